package httpx

import (
	"fmt"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/hashicorp/golang-lru/v2/simplelru"
	"golang.org/x/time/rate"

	"github.com/lotbook/lotbook/api/wire"
)

// maxLimiterKeys bounds the keys (IPs, accounts) a limiter remembers. Past it the least recently
// seen key is forgotten: to reset a key's bucket that way a client would need this many other
// keys between two tries, each of them limited too.
const maxLimiterKeys = 100_000

// Limiter is a set of token buckets keyed by a string (an IP, an account). Each bucket holds up
// to burst tokens and refills at burst per period. In memory per instance: behind a load balancer
// the effective limit is per instance, which is fine for brute-force protection.
type Limiter struct {
	mu      sync.Mutex
	every   rate.Limit
	burst   int
	now     func() time.Time
	buckets *simplelru.LRU[string, *rate.Limiter]
	sweep   time.Time
}

// NewLimiter is a limiter of burst requests per period and key, on the clock now.
func NewLimiter(burst int, period time.Duration, now func() time.Time) *Limiter {
	return newLimiterOf(burst, period, now, maxLimiterKeys)
}

func newLimiterOf(burst int, period time.Duration, now func() time.Time, keys int) *Limiter {
	buckets, err := simplelru.NewLRU[string, *rate.Limiter](keys, nil)
	if err != nil {
		panic("httpx: limiter of " + err.Error()) // only for a size below 1, which no caller passes
	}
	return &Limiter{every: rate.Limit(float64(burst) / period.Seconds()), burst: burst, now: now, buckets: buckets}
}

// Allow takes a token for key. When none is left it returns false and how long until one is.
func (l *Limiter) Allow(key string) (bool, time.Duration) {
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
func (l *Limiter) sweepLocked(now time.Time) {
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

// Limit takes a token from each check (a limiter's Allow for a key); the first refusal answers
// 429 rate_limited with Retry-After.
func Limit(c *Call, checks ...func() (bool, time.Duration)) error {
	for _, check := range checks {
		if allowed, wait := check(); !allowed {
			secs := int(wait/time.Second) + 1
			c.W.Header().Set("Retry-After", fmt.Sprint(secs))
			return Refuse(http.StatusTooManyRequests, wire.MessageKeyRateLimited, fmt.Errorf("retry after %v", wait))
		}
	}
	return nil
}

// ClientIP is the address the request came from (the peer: lotbook trusts no forwarding header).
func ClientIP(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}
