package engine

import (
	"testing"
	"time"

	"github.com/lotbook/lotbook/commands/rules/ticket"
	"github.com/lotbook/lotbook/market"
	"github.com/lotbook/lotbook/market/calendar"
)

// What the market's schedule lets members do with the after-hours sessions, as commands see it:
// on the exchange 盤後零股 takes orders 13:40–14:30 and 盤後定價 14:00–14:30, both auctioned once
// their entry ends; the demo takes both around the clock (until its day's close at 23:55) beside
// the day's sessions and auctions them on its one-minute cadence while they do.
func TestAfterHoursSessionsOnTheExchangeAndInTheDemo(t *testing.T) {
	loc := calendar.Taiwan().Location()
	now := time.Date(2026, 11, 23, 10, 0, 0, 0, loc)
	clock := func() time.Time { return now }
	exchange, err := market.New(market.Config{Seed: 1, Now: clock})
	if err != nil {
		t.Fatal(err)
	}
	demo, err := market.New(market.Config{Seed: 1, Demo: true, Now: clock})
	if err != nil {
		t.Fatal(err)
	}
	type sessions struct{ odd, fixed, intraday, regular bool }
	tests := []struct {
		mkt      *market.Service
		name, at string
		accepts  sessions // orders accepted in 盤後零股, 盤後定價, 盤中零股, 整股
		auction  bool     // the after-hours auctions are due
		cadence  time.Duration
	}{
		{exchange, "exchange morning", "2026-11-23 10:00:00", sessions{intraday: true, regular: true}, false, 0},
		{exchange, "exchange odd lot entry", "2026-11-23 13:45:00", sessions{odd: true}, false, 0},
		{exchange, "exchange fixed price entry", "2026-11-23 14:10:00", sessions{odd: true, fixed: true}, false, 0},
		{exchange, "exchange 14:30", "2026-11-23 14:30:00", sessions{}, true, 0},
		{exchange, "exchange Sunday", "2026-11-22 14:10:00", sessions{}, true, 0},
		{demo, "demo morning", "2026-11-23 10:00:00", sessions{odd: true, fixed: true, intraday: true, regular: true}, true, time.Minute},
		{demo, "demo night", "2026-11-22 21:30:00", sessions{odd: true, fixed: true, intraday: true, regular: true}, true, time.Minute},
		{demo, "demo day's close", "2026-11-23 23:56:00", sessions{}, true, time.Minute},
	}
	for _, tc := range tests {
		if now, err = time.ParseInLocation(time.DateTime, tc.at, loc); err != nil {
			t.Fatal(err)
		}
		v := sessionOf(tc.mkt.Session())
		got := sessions{odd: v.AcceptsIn(ticket.OddAfterHours, true), fixed: v.AcceptsIn(ticket.FixedPrice, false),
			intraday: v.AcceptsIn(ticket.OddIntraday, true), regular: v.AcceptsIn(ticket.Regular, false)}
		if got != tc.accepts {
			t.Errorf("%s: accepts %+v, want %+v", tc.name, got, tc.accepts)
		}
		if a, f := v.AuctionDue(ticket.OddAfterHours), v.AuctionDue(ticket.FixedPrice); a != tc.auction || f != tc.auction {
			t.Errorf("%s: after-hours auctions due %v/%v, want %v", tc.name, a, f, tc.auction)
		}
		if v.AfterHoursEvery != tc.cadence {
			t.Errorf("%s: cadence %s, want %s", tc.name, v.AfterHoursEvery, tc.cadence)
		}
	}
}
