package api

import (
	"sync"
	"testing"
	"time"

	"github.com/lotbook/lotbook/market"
)

// One simulated market serves every test stack of the package: building one takes seconds. Its
// clock starts with the harness's (Monday 2 March 2026, 10:00 in Taipei) and moves only when a
// test calls advanceMarket, so prices stand still unless a test moves them.
var shared struct {
	once  sync.Once
	mu    sync.Mutex
	clock *testClock
	mkt   *market.Service
	err   error
}

func testMarket(t testing.TB) *market.Service {
	t.Helper()
	shared.once.Do(func() {
		shared.clock = newTestClock()
		shared.mkt, shared.err = market.New(market.Config{Seed: DefaultMarketSeed, Demo: true, Now: shared.clock.Now})
		if shared.err == nil {
			shared.mkt.Advance()
		}
		// As every hub does when it starts (wsHub.warm): the first index candles are slow.
		for _, ix := range []string{"TAIEX", "TPEX"} {
			for _, iv := range []string{"1m", "1d", "1M", "1y"} {
				if _, err := shared.mkt.Candles(ix, iv, time.Time{}, 1); err != nil {
					shared.err = err
				}
			}
		}
	})
	if shared.err != nil {
		t.Fatalf("market: %v", shared.err)
	}
	return shared.mkt
}

// advanceMarket moves the shared market's clock by d and trades up to it.
func advanceMarket(t testing.TB, d time.Duration) {
	t.Helper()
	mkt := testMarket(t)
	shared.mu.Lock()
	defer shared.mu.Unlock()
	shared.clock.Advance(d)
	mkt.Advance()
}
