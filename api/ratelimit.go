package api

import (
	"math"
	"sync"
	"time"
)

// limiter is a set of token buckets keyed by a string (an IP, an account). Each bucket holds up
// to burst tokens and refills at burst per period. In memory per instance: behind a load balancer
// the effective limit is per instance, which is fine for brute-force protection.
type limiter struct {
	mu      sync.Mutex
	burst   float64
	perSec  float64
	now     func() time.Time
	buckets map[string]*bucket
	sweep   time.Time
}

type bucket struct {
	tokens float64
	at     time.Time
}

func newLimiter(burst int, period time.Duration, now func() time.Time) *limiter {
	return &limiter{
		burst:   float64(burst),
		perSec:  float64(burst) / period.Seconds(),
		now:     now,
		buckets: map[string]*bucket{},
	}
}

// allow takes a token for key. When none is left it returns false and how long until one is.
func (l *limiter) allow(key string) (bool, time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	l.sweepLocked(now)
	b, ok := l.buckets[key]
	if !ok {
		b = &bucket{tokens: l.burst, at: now}
		l.buckets[key] = b
	}
	b.tokens = math.Min(l.burst, b.tokens+now.Sub(b.at).Seconds()*l.perSec)
	b.at = now
	if b.tokens >= 1 {
		b.tokens--
		return true, 0
	}
	wait := time.Duration((1 - b.tokens) / l.perSec * float64(time.Second))
	return false, wait
}

// sweepLocked drops full buckets now and then so that the map does not grow with every IP seen.
func (l *limiter) sweepLocked(now time.Time) {
	if now.Sub(l.sweep) < time.Minute {
		return
	}
	l.sweep = now
	for k, b := range l.buckets {
		if b.tokens+now.Sub(b.at).Seconds()*l.perSec >= l.burst {
			delete(l.buckets, k)
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
