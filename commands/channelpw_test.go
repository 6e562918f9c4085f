package commands

import (
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestVerifiedMemo(t *testing.T) {
	memo := newVerifiedMemo()
	var calls atomic.Int64
	slow := func(hash, pw string) bool {
		calls.Add(1)
		time.Sleep(20 * time.Millisecond) // stands for argon2id
		return fakeVerify(hash, pw)
	}
	// Concurrent checks of one right password share one computation.
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			if !memo.check("h:8888", "8888", slow) {
				t.Error("right password refused")
			}
		})
	}
	wg.Wait()
	if n := calls.Load(); n != 1 {
		t.Fatalf("8 concurrent checks computed %d times, want 1", n)
	}
	// Remembered afterwards; a wrong password is never remembered and pays every time.
	for range 3 {
		if !memo.check("h:8888", "8888", slow) || memo.check("h:8888", "8889", slow) {
			t.Fatal("wrong answer")
		}
	}
	if n := calls.Load(); n != 4 {
		t.Fatalf("computed %d times, want 1 + 3 wrong tries", n)
	}
	// The memo is per stored hash: the same password against a new hash is checked again.
	if memo.check("h:9999", "8888", slow) || !memo.check("h:8888b", "8888b", slow) {
		t.Fatal("memo answered across hashes")
	}
}

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
