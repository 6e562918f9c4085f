package api

import (
	"testing"
	"time"
)

func TestLimiterRefillsAtItsRate(t *testing.T) {
	now := time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)
	l := newLimiter(3, time.Minute, func() time.Time { return now })
	for i := range 3 {
		if ok, _ := l.allow("a"); !ok {
			t.Fatalf("request %d refused within the burst", i+1)
		}
	}
	ok, wait := l.allow("a")
	if ok {
		t.Fatal("fourth request allowed")
	}
	if wait <= 0 || wait > 20*time.Second {
		t.Fatalf("retry after %v, want (0, 20s]", wait)
	}
	if ok, _ := l.allow("b"); !ok {
		t.Fatal("another key shares the bucket")
	}
	now = now.Add(20 * time.Second)
	if ok, _ := l.allow("a"); !ok {
		t.Fatal("no token after one refill period")
	}
	if ok, _ := l.allow("a"); ok {
		t.Fatal("two tokens after one refill period")
	}
}

func TestLimiterSweepsFullBuckets(t *testing.T) {
	now := time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)
	l := newLimiter(2, time.Minute, func() time.Time { return now })
	l.allow("a")
	now = now.Add(2 * time.Minute)
	l.allow("b")
	if _, ok := l.buckets["a"]; ok {
		t.Fatal("refilled bucket kept")
	}
}
