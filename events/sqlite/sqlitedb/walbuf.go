package sqlitedb

// #include "walbuf.h"
import "C"

import (
	"fmt"
	"sync"
)

// WALBufferVFS is the VFS that gathers a WAL file's writes into one call at each sync (see
// walbuf.c). A file that uses it must run with synchronous=FULL.
const WALBufferVFS = "lotbook-walbuf"

var registerOnce = sync.OnceValue(func() error {
	if rc := C.lotbook_walbuf_register(); rc != 0 {
		return fmt.Errorf("sqlite: register VFS %s: result %d", WALBufferVFS, rc)
	}
	return nil
})
