package commands

import (
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestKDFIsBounded: argon2id work (logins, fund and channel passwords) never runs on more
// goroutines at once than there are cores, however many requests arrive together: each holds
// its cost's memory (19 MiB by default) while it runs.
func TestKDFIsBounded(t *testing.T) {
	s := New(nil, Options{})
	var running, most atomic.Int32
	var wg sync.WaitGroup
	for range 64 {
		wg.Go(func() {
			s.KDF(func() {
				n := running.Add(1)
				for {
					m := most.Load()
					if n <= m || most.CompareAndSwap(m, n) {
						break
					}
				}
				time.Sleep(time.Millisecond)
				running.Add(-1)
			})
		})
	}
	wg.Wait()
	if got, limit := most.Load(), int32(runtime.GOMAXPROCS(0)); got > limit || got < 1 {
		t.Fatalf("%d argon2id computations at once, want 1..%d", got, limit)
	}
}
