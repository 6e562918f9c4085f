package api

import (
	"sync"
	"time"

	"github.com/hashicorp/golang-lru/v2/simplelru"
	"golang.org/x/time/rate"
)

// maxLimiterKeys bounds the keys (IPs, accounts) a limiter remembers. Past it the least recently
// seen key is forgotten: to reset a key's bucket that way a client would need this many other
// keys between two tries, each of them limited too.
const maxLimiterKeys = 100_000

// limiter is a set of token buckets keyed by a string (an IP, an account). Each bucket holds up
// to burst tokens and refills at burst per period. In memory per instance: behind a load balancer
// the effective limit is per instance, which is fine for brute-force protection.
type limiter struct {
	mu      sync.Mutex
	every   rate.Limit
	burst   int
	now     func() time.Time
	buckets *simplelru.LRU[string, *rate.Limiter]
	sweep   time.Time
}

func newLimiter(burst int, period time.Duration, now func() time.Time) *limiter {
	return newLimiterOf(burst, period, now, maxLimiterKeys)
}

func newLimiterOf(burst int, period time.Duration, now func() time.Time, keys int) *limiter {
	buckets, err := simplelru.NewLRU[string, *rate.Limiter](keys, nil)
	if err != nil {
		panic("api: limiter of " + err.Error()) // only for a size below 1, which no caller passes
	}
	return &limiter{every: rate.Limit(float64(burst) / period.Seconds()), burst: burst, now: now, buckets: buckets}
}

// allow takes a token for key. When none is left it returns false and how long until one is.
func (l *limiter) allow(key string) (bool, time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	l.sweepLocked(now)
	b, ok := l.buckets.Get(key)
	if !ok {
		b = rate.NewLimiter(l.every, l.burst) // full
		l.buckets.Add(key, b)
	}
	r := b.ReserveN(now, 1)
	if wait := r.DelayFrom(now); wait > 0 {
		r.CancelAt(now) // a refused request takes no token
		return false, wait
	}
	return true, 0
}

// sweepLocked drops full buckets now and then so that the map does not grow with every IP seen.
func (l *limiter) sweepLocked(now time.Time) {
	if now.Sub(l.sweep) < time.Minute {
		return
	}
	l.sweep = now
	for _, k := range l.buckets.Keys() {
		if b, ok := l.buckets.Peek(k); ok && b.TokensAt(now) >= float64(l.burst) {
			l.buckets.Remove(k)
		}
	}
}

// RateLimits configures the login, registration and upload limits (requests per minute).
type RateLimits struct {
	LoginPerAccount int // default 10
	LoginPerIP      int // default 30
	RegisterPerIP   int // default 5
	UploadPerMember int // default 10: a deposit proof or two ID photos at a time, with retries
}

func (r RateLimits) withDefaults() RateLimits {
	if r.LoginPerAccount <= 0 {
		r.LoginPerAccount = 10
	}
	if r.LoginPerIP <= 0 {
		r.LoginPerIP = 30
	}
	if r.RegisterPerIP <= 0 {
		r.RegisterPerIP = 5
	}
	if r.UploadPerMember <= 0 {
		r.UploadPerMember = 10
	}
	return r
}
