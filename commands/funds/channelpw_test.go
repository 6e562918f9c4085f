package funds

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// fakeVerify: a hash "h:<pw>" matches pw.
func fakeVerify(hash, pw string) bool { return hash == "h:"+pw }

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
