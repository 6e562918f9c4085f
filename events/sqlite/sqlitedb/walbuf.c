// walbuf is a VFS over SQLite's default one that gathers the writes to a WAL file and hands them
// to the file system in one call when SQLite syncs, reads, sizes, truncates or closes the file.
// SQLite writes each WAL frame as two calls (its 24-byte header, then the page): a commit of 130
// pages was 260 pwrite calls, each a costly system call in this VM, on the path every append
// waits on; gathered, they are 5 calls of at most 120 KiB. Other files pass through untouched.
//
// It needs every commit to sync the WAL (synchronous=FULL or EXTRA): SQLite makes a commit
// visible to other connections through the shared wal-index after that sync, so the frames are
// in the file by then. With synchronous=NORMAL the wal-index would name frames still held here.
#include <stdlib.h>
#include <string.h>

#include "walbuf.h"

// SQLite's own, compiled into the binary by the driver's package; weak so that cgo's trial link
// of this package alone does not need them.
extern sqlite3_vfs *sqlite3_vfs_find(const char *) __attribute__((weak));
extern int sqlite3_vfs_register(sqlite3_vfs *, int) __attribute__((weak));

#define WALBUF_CAP (1 << 20) // a 64-event commit is about 550 KB

typedef struct walbuf_file {
	sqlite3_file base;
	sqlite3_file *real; // the default VFS's file, in the same allocation after this struct
	char *buf;
	int len;            // bytes held, which belong at [off, off+len)
	sqlite3_int64 off;
} walbuf_file;

#define WALBUF_HDR ((int)((sizeof(walbuf_file) + 15) & ~(size_t)15))

static sqlite3_vfs *real_vfs;
static sqlite3_vfs walbuf_vfs;

// WALBUF_CHUNK bounds one write to the default VFS, which takes at most 128 KiB - 1 a call.
#define WALBUF_CHUNK (120 << 10)

static int walbuf_flush(walbuf_file *p) {
	int n = p->len;
	p->len = 0;
	for (int done = 0; done < n; done += WALBUF_CHUNK) {
		int amt = n - done < WALBUF_CHUNK ? n - done : WALBUF_CHUNK;
		int rc = p->real->pMethods->xWrite(p->real, p->buf + done, amt, p->off + done);
		if (rc != SQLITE_OK) {
			return rc;
		}
	}
	return SQLITE_OK;
}

static int walbuf_close(sqlite3_file *f) {
	walbuf_file *p = (walbuf_file *)f;
	int rc = walbuf_flush(p);
	int rc2 = p->real->pMethods->xClose(p->real);
	free(p->buf);
	p->buf = 0;
	return rc != SQLITE_OK ? rc : rc2;
}

static int walbuf_read(sqlite3_file *f, void *dst, int amt, sqlite3_int64 off) {
	walbuf_file *p = (walbuf_file *)f;
	int rc = walbuf_flush(p);
	return rc != SQLITE_OK ? rc : p->real->pMethods->xRead(p->real, dst, amt, off);
}

static int walbuf_write(sqlite3_file *f, const void *src, int amt, sqlite3_int64 off) {
	walbuf_file *p = (walbuf_file *)f;
	if (p->len > 0 && off == p->off + p->len && amt <= WALBUF_CAP - p->len) {
		memcpy(p->buf + p->len, src, amt);
		p->len += amt;
		return SQLITE_OK;
	}
	// Not the continuation of what is held (or no room): what is held goes first, so the file
	// ends with the later write wherever the two overlap.
	int rc = walbuf_flush(p);
	if (rc != SQLITE_OK) {
		return rc;
	}
	if (amt > WALBUF_CHUNK) {
		return p->real->pMethods->xWrite(p->real, src, amt, off);
	}
	if (p->buf == 0 && (p->buf = malloc(WALBUF_CAP)) == 0) {
		return p->real->pMethods->xWrite(p->real, src, amt, off);
	}
	memcpy(p->buf, src, amt);
	p->off = off;
	p->len = amt;
	return SQLITE_OK;
}

static int walbuf_truncate(sqlite3_file *f, sqlite3_int64 size) {
	walbuf_file *p = (walbuf_file *)f;
	int rc = walbuf_flush(p);
	return rc != SQLITE_OK ? rc : p->real->pMethods->xTruncate(p->real, size);
}

static int walbuf_sync(sqlite3_file *f, int flags) {
	walbuf_file *p = (walbuf_file *)f;
	int rc = walbuf_flush(p);
	return rc != SQLITE_OK ? rc : p->real->pMethods->xSync(p->real, flags);
}

static int walbuf_file_size(sqlite3_file *f, sqlite3_int64 *size) {
	walbuf_file *p = (walbuf_file *)f;
	int rc = walbuf_flush(p);
	return rc != SQLITE_OK ? rc : p->real->pMethods->xFileSize(p->real, size);
}

static int walbuf_lock(sqlite3_file *f, int level) {
	walbuf_file *p = (walbuf_file *)f;
	return p->real->pMethods->xLock(p->real, level);
}

static int walbuf_unlock(sqlite3_file *f, int level) {
	walbuf_file *p = (walbuf_file *)f;
	return p->real->pMethods->xUnlock(p->real, level);
}

static int walbuf_check_reserved_lock(sqlite3_file *f, int *out) {
	walbuf_file *p = (walbuf_file *)f;
	return p->real->pMethods->xCheckReservedLock(p->real, out);
}

static int walbuf_file_control(sqlite3_file *f, int op, void *arg) {
	walbuf_file *p = (walbuf_file *)f;
	int rc = walbuf_flush(p);
	return rc != SQLITE_OK ? rc : p->real->pMethods->xFileControl(p->real, op, arg);
}

static int walbuf_sector_size(sqlite3_file *f) {
	walbuf_file *p = (walbuf_file *)f;
	return p->real->pMethods->xSectorSize(p->real);
}

static int walbuf_device_characteristics(sqlite3_file *f) {
	walbuf_file *p = (walbuf_file *)f;
	return p->real->pMethods->xDeviceCharacteristics(p->real);
}

static int walbuf_shm_map(sqlite3_file *f, int pg, int pgsz, int extend, void volatile **pp) {
	walbuf_file *p = (walbuf_file *)f;
	return p->real->pMethods->xShmMap(p->real, pg, pgsz, extend, pp);
}

static int walbuf_shm_lock(sqlite3_file *f, int offset, int n, int flags) {
	walbuf_file *p = (walbuf_file *)f;
	return p->real->pMethods->xShmLock(p->real, offset, n, flags);
}

static void walbuf_shm_barrier(sqlite3_file *f) {
	walbuf_file *p = (walbuf_file *)f;
	p->real->pMethods->xShmBarrier(p->real);
}

static int walbuf_shm_unmap(sqlite3_file *f, int del) {
	walbuf_file *p = (walbuf_file *)f;
	return p->real->pMethods->xShmUnmap(p->real, del);
}

static int walbuf_fetch(sqlite3_file *f, sqlite3_int64 off, int amt, void **pp) {
	walbuf_file *p = (walbuf_file *)f;
	int rc = walbuf_flush(p);
	return rc != SQLITE_OK ? rc : p->real->pMethods->xFetch(p->real, off, amt, pp);
}

static int walbuf_unfetch(sqlite3_file *f, sqlite3_int64 off, void *ptr) {
	walbuf_file *p = (walbuf_file *)f;
	return p->real->pMethods->xUnfetch(p->real, off, ptr);
}

static const sqlite3_io_methods walbuf_methods = {
	3,
	walbuf_close,
	walbuf_read,
	walbuf_write,
	walbuf_truncate,
	walbuf_sync,
	walbuf_file_size,
	walbuf_lock,
	walbuf_unlock,
	walbuf_check_reserved_lock,
	walbuf_file_control,
	walbuf_sector_size,
	walbuf_device_characteristics,
	walbuf_shm_map,
	walbuf_shm_lock,
	walbuf_shm_barrier,
	walbuf_shm_unmap,
	walbuf_fetch,
	walbuf_unfetch,
};

static int walbuf_open(sqlite3_vfs *vfs, const char *name, sqlite3_file *f, int flags, int *out_flags) {
	(void)vfs;
	if ((flags & SQLITE_OPEN_WAL) == 0) {
		return real_vfs->xOpen(real_vfs, name, f, flags, out_flags);
	}
	walbuf_file *p = (walbuf_file *)f;
	memset(p, 0, sizeof(*p));
	p->real = (sqlite3_file *)((char *)p + WALBUF_HDR);
	int rc = real_vfs->xOpen(real_vfs, name, p->real, flags, out_flags);
	if (rc != SQLITE_OK) {
		// SQLite calls xClose after a failed xOpen that set the methods: ours then close the
		// default VFS's file.
		if (p->real->pMethods != 0) {
			p->base.pMethods = &walbuf_methods;
		}
		return rc;
	}
	p->base.pMethods = &walbuf_methods;
	return SQLITE_OK;
}

// lotbook_walbuf_register registers the VFS "lotbook-walbuf" over the default VFS, which must
// offer version 3 file methods (the unix VFS does). It returns SQLite's result code, or -1.
int lotbook_walbuf_register(void) {
	if (sqlite3_vfs_find == 0 || sqlite3_vfs_register == 0) {
		return -1;
	}
	real_vfs = sqlite3_vfs_find(0);
	if (real_vfs == 0) {
		return -1;
	}
	// The other methods take the VFS only to reach its app data, which only xOpen uses: they
	// are the default VFS's own.
	walbuf_vfs = *real_vfs;
	walbuf_vfs.pNext = 0;
	walbuf_vfs.zName = "lotbook-walbuf";
	walbuf_vfs.szOsFile = WALBUF_HDR + real_vfs->szOsFile;
	walbuf_vfs.xOpen = walbuf_open;
	return sqlite3_vfs_register(&walbuf_vfs, 0);
}
