package seed

import (
	"context"
	"fmt"
	"time"

	"github.com/lotbook/lotbook/commands/rules/ipo"
	"github.com/lotbook/lotbook/commands/subscription"
	"github.com/lotbook/lotbook/events"
)

// demoIssue is a new-share issue of the demo, dated by days from today (Asia/Taipei): its window
// opens at 09:00 on opens and closes at 14:00 on closes; draw, deduction, refund and listing follow.
type demoIssue struct {
	symbol, name, price, ref, pe, industryPE string
	lots                                     int64
	opens, closes, draw, deduct, refund, lst int
}

// demoIssues cover every state: ended, subscribing (drawn and waiting for the deduction), open to
// subscribe, and not started.
var demoIssues = []demoIssue{
	{"2941", "米斯特", "32", "45.5", "14.8", "19.6", 1200, -20, -18, -16, -15, -14, -12},
	{"2751", "王座", "56", "71", "17.2", "22.4", 800, -6, -4, -2, 1, 2, 4},
	{"1295", "生合", "50", "72.5", "18.4", "25.1", 1000, -1, 2, 3, 4, 5, 7},
	{"2073", "雄順", "38", "48.2", "12.9", "16.3", 600, 3, 5, 6, 7, 8, 10},
}

func init() { Register("subscription issues", subscriptionIssues) }

// subscriptionIssues lists the demo's new-share issues relative to the demo's day. Each day's set is
// listed once: an issue's id is its code and opening day, its command id derived from it.
func subscriptionIssues(ctx context.Context, env Env) error {
	if env.Kernel.Sealer() == nil {
		// Draw seeds derive from the secret key: a kernel without one (tooling that seeds a data
		// folder offline) lists no issue; the server seeds them when it starts.
		return nil
	}
	lot := subscription.New(env.Kernel)
	today := env.Now.In(ipo.Taipei)
	day := func(d, hour int) time.Time {
		return time.Date(today.Year(), today.Month(), today.Day()+d, hour, 0, 0, 0, ipo.Taipei)
	}
	date := func(d int) string { return day(d, 0).Format(time.DateOnly) }
	for _, is := range demoIssues {
		in := subscription.ListIssue{Symbol: is.symbol, Name: is.name, Market: events.MarketTW, Price: is.price, ReferencePrice: is.ref,
			PE: is.pe, IndustryPE: is.industryPE, Lots: is.lots, UnitLots: 1, OpensAt: day(is.opens, 9), ClosesAt: day(is.closes, 14),
			DrawDate: date(is.draw), DeductionDate: date(is.deduct), RefundDate: date(is.refund), ListingDate: date(is.lst)}
		id := subscription.IssueID(in.Symbol, in.OpensAt)
		if _, err := lot.ListIssue(ctx, meta("issue:"+id), in); err != nil && !alreadyDone(err, subscription.KeyIssueExists) {
			return fmt.Errorf("issue %s: %w", id, err)
		}
	}
	return nil
}
