package httpx

import (
	"testing"
	"time"
)

func TestLimiterRefillsAtItsRate(t *testing.T) {
	now := time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)
	l := NewLimiter(3, time.Minute, func() time.Time { return now })
	for i := range 3 {
		if ok, _ := l.Allow("a"); !ok {
			t.Fatalf("request %d refused within the burst", i+1)
		}
	}
	ok, wait := l.Allow("a")
	if ok {
		t.Fatal("fourth request allowed")
	}
	if wait <= 0 || wait > 20*time.Second {
		t.Fatalf("retry after %v, want (0, 20s]", wait)
	}
	if ok, _ := l.Allow("b"); !ok {
		t.Fatal("another key shares the bucket")
	}
	now = now.Add(20 * time.Second)
	if ok, _ := l.Allow("a"); !ok {
		t.Fatal("no token after one refill period")
	}
	if ok, _ := l.Allow("a"); ok {
		t.Fatal("two tokens after one refill period")
	}
}

func TestLimiterSweepsFullBuckets(t *testing.T) {
	now := time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)
	l := NewLimiter(2, time.Minute, func() time.Time { return now })
	l.Allow("a")
	now = now.Add(2 * time.Minute)
	l.Allow("b")
	if l.buckets.Contains("a") {
		t.Fatal("refilled bucket kept")
	}
}

// TestLimiterIsBounded: past its bound a limiter forgets the least recently seen key, so a flood
// of addresses cannot grow it, and a recently limited key keeps its bucket.
func TestLimiterIsBounded(t *testing.T) {
	now := time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)
	l := newLimiterOf(1, time.Minute, func() time.Time { return now }, 2)
	l.Allow("a")
	l.Allow("b")
	if ok, _ := l.Allow("a"); ok {
		t.Fatal("second request of a within the minute allowed")
	}
	l.Allow("c") // forgets b, the least recently seen
	if n := l.buckets.Len(); n != 2 {
		t.Fatalf("%d keys kept, want 2", n)
	}
	if ok, _ := l.Allow("a"); ok {
		t.Fatal("a's bucket forgotten although recently used")
	}
	if ok, _ := l.Allow("b"); !ok {
		t.Fatal("b still limited although forgotten")
	}
}
