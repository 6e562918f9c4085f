package seed

import (
	"context"
	"fmt"

	"github.com/lotbook/lotbook/commands/lending"
	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/market/instruments"
)

// The demo's stock lending: the channel open at 2 % a year, and rates and quotas for up to three
// symbols the demo member holds (their shares come from the earlier steps: an allotment, a stock
// dividend), and, when the member holds any, one lot (or all it holds, if less) of the first lent.
// The keys are fixed, and a member that lends already lends nothing more, so a later start writes
// nothing again (and keeps what ops changed since).
func init() { Register("lending", seedLending) }

func seedLending(ctx context.Context, env Env) error {
	c := lending.New(env.Kernel)
	if _, err := c.SetChannel(ctx, Meta("lending:channel"), true, "0.02"); err != nil {
		return fmt.Errorf("lending channel: %w", err)
	}
	member := events.MemberID(MemberAccount)
	hs, err := c.Holdings(ctx, member)
	if err != nil {
		return fmt.Errorf("lending holdings of %s: %w", MemberAccount, err)
	}
	cat, err := instruments.Default()
	if err != nil {
		return err
	}
	rates := []string{"0.035", "0.025", ""}
	var first *lending.Holding
	lends := false
	for i, h := range hs {
		if h.Lent > 0 {
			lends = true
		}
		if i >= len(rates) {
			continue
		}
		if _, err := c.SetSymbol(ctx, Meta("lending:symbol:"+h.Symbol), h.Symbol, rates[i], 1_000_000); err != nil {
			return fmt.Errorf("lending rule of %s: %w", h.Symbol, err)
		}
		if first == nil && h.Lendable > 0 {
			first = &hs[i]
		}
	}
	if lends || first == nil {
		return nil
	}
	shares := min(first.Lendable, 1000)
	name := ""
	if in, ok := cat.Lookup(first.Symbol); ok {
		name = in.Name
	}
	if _, err := c.Lend(ctx, Meta("lending:lend:"+first.Symbol), member, lending.Lend{Symbol: first.Symbol, Name: name, Shares: shares}); err != nil {
		return fmt.Errorf("demo lending of %s: %w", first.Symbol, err)
	}
	return nil
}
