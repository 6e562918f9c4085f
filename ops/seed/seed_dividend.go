package seed

import (
	"context"
	"fmt"
	"time"

	"github.com/lotbook/lotbook/commands/dividend"
	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/market/calendar"
	"github.com/lotbook/lotbook/market/dividends"
	"github.com/lotbook/lotbook/market/instruments"
)

// The demo member's dividends, dated from today on the simulated market's schedule (the default
// market seed): two lots of a stock held over an ex-date five to ten weeks ago, whose cash and new
// shares were paid (the new shares are a holding at zero cost), and two lots of another over an
// ex-date in the last three weeks, paid on a date still to come (the payout process pays it
// then). The keys are fixed, so a later start writes nothing again.
func init() { Register("dividend", seedDividend) }

// demoMarketSeed is api.DefaultMarketSeed: the schedule the demo's screens show.
const demoMarketSeed = 1

func seedDividend(ctx context.Context, env Env) error {
	cat, err := instruments.Default()
	if err != nil {
		return err
	}
	sched := dividends.Schedule{Seed: demoMarketSeed, Calendar: calendar.Taiwan()}
	find := func(from, to time.Time, ok func(dividends.Dividend) bool) (dividend.Distribution, bool) {
		for _, in := range cat.All() {
			if in.Type != instruments.StockType {
				continue
			}
			di := dividends.Instrument{Symbol: in.Code, RefPrice: in.RefPrice.Decimal(), Large: float64(in.RefPrice)/100*float64(in.Shares) > 5e11}
			for _, d := range sched.Between(di, from, to) {
				if ok(d) {
					return dividend.Distribution{ID: d.ID, Symbol: d.Symbol, Name: in.Name, Kind: "stock", Period: d.Period,
						Cash: d.Cash, Stock: d.Stock, ExDate: d.ExDate, RecordDate: d.RecordDate, PayDate: d.PayDate}, true
				}
			}
		}
		return dividend.Distribution{}, false
	}
	now := env.Now
	paid, ok := find(now.AddDate(0, 0, -70), now.AddDate(0, 0, -35), func(d dividends.Dividend) bool {
		return d.HasStock() && d.Cash.IsPositive() && d.PayDate.Before(now)
	})
	if !ok {
		paid, ok = find(now.AddDate(0, 0, -70), now.AddDate(0, 0, -35), func(d dividends.Dividend) bool { return d.PayDate.Before(now) })
	}
	expected, ok2 := find(now.AddDate(0, 0, -21), now, func(d dividends.Dividend) bool { return d.Cash.IsPositive() && d.PayDate.After(now) })
	if !ok || !ok2 {
		return nil // no dividend in the windows: nothing to show
	}
	member := events.MemberID(MemberAccount)
	c := dividend.New(env.Kernel)
	if _, err := c.Entitle(ctx, Meta("dividend:entitle-paid"), dividend.Entitle{MemberID: member, Distribution: paid, Shares: 2000}); err != nil {
		return fmt.Errorf("dividend entitlement %s: %w", paid.ID, err)
	}
	if _, err := c.Pay(ctx, Meta("dividend:pay-paid"), member, dividend.OrderNo(paid.ID)); err != nil {
		return fmt.Errorf("dividend payment %s: %w", paid.ID, err)
	}
	if _, err := c.Entitle(ctx, Meta("dividend:entitle-expected"), dividend.Entitle{MemberID: member, Distribution: expected, Shares: 2000}); err != nil {
		return fmt.Errorf("dividend entitlement %s: %w", expected.ID, err)
	}
	return nil
}
