package seed

import (
	"context"
	"fmt"
	"time"

	"github.com/lotbook/lotbook/commands"
	blockcmd "github.com/lotbook/lotbook/commands/block"
	"github.com/lotbook/lotbook/commands/chipgrab"
)

// BlockPassword is the password of the demo's invite-only block (README lists it).
const BlockPassword = "vip888"

// Blocks lists the demo's two block trades of the Taipei day of now, open from the start of that
// day for a week, so a demo started on any day has blocks open: one open to every member at a
// discount on the reference price, one for invited members (BlockPassword) at a small premium;
// each of 500 lots or more, the exchange's block size.
// Their commands are keyed by the day, so a restart on the same day lists nothing new. quote is
// the market feed's view of a symbol (engine.ListingQuote).
func Blocks(ctx context.Context, cmds *blockcmd.Commands, quote func(symbol string) commands.ListingQuote, now time.Time) error {
	start := startOfDay(now)
	for _, b := range []struct {
		symbol, premium, password string
		minLots, capLots, total   int64
	}{
		{"2882", "-1.5", "", 1, 20, 1000},
		{"2603", "0.5", BlockPassword, 2, 10, 500},
	} {
		in := blockcmd.ListBlockInput{Symbol: b.symbol, PremiumPercent: b.premium, Password: b.password, MinLots: b.minLots,
			DailyCapLots: b.capLots, TotalLots: b.total, OpensAt: start, ClosesAt: start.AddDate(0, 0, 7)}
		step := "block:" + start.Format(time.DateOnly) + ":" + b.symbol
		if _, err := cmds.ListBlock(ctx, meta(step), in, quote(b.symbol)); err != nil {
			return fmt.Errorf("seed: block %s: %w", b.symbol, err)
		}
	}
	return nil
}

// ChipGrab offers the demo's chip grab of the Taipei day of now, open from the start of that day
// for three days: 500 lots of 2884 at the reference price, at most 5 lots a member. Keyed by
// the day, as Blocks. quote is the market feed's view of a symbol (engine.ListingQuote).
func ChipGrab(ctx context.Context, cmds *chipgrab.Commands, quote func(symbol string) commands.ListingQuote, now time.Time) error {
	start := startOfDay(now)
	q := quote("2884")
	in := chipgrab.OfferInput{Symbol: "2884", Price: q.Reference.StringFixed(2), QuotaLots: 500, MaxLotsPerMember: 5,
		OpensAt: start, ClosesAt: start.AddDate(0, 0, 3)}
	if _, err := cmds.Offer(ctx, meta("chipgrab:"+start.Format(time.DateOnly)+":2884"), in, q); err != nil {
		return fmt.Errorf("seed: chip grab 2884: %w", err)
	}
	return nil
}

// startOfDay is the start of the Taipei day of t.
func startOfDay(t time.Time) time.Time {
	day := t.In(commands.Taipei)
	return time.Date(day.Year(), day.Month(), day.Day(), 0, 0, 0, 0, commands.Taipei)
}
