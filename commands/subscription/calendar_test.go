package subscription_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/lotbook/lotbook/commands/commandstest"
	"github.com/lotbook/lotbook/commands/commandstest/offeringtest"
	"github.com/lotbook/lotbook/commands/commandstest/scenario"
	"github.com/lotbook/lotbook/commands/process/offering"
	"github.com/lotbook/lotbook/commands/subscription"
	"github.com/lotbook/lotbook/events"
)

// TestCalendarActsOnceAcrossInstancesAndRestarts: two API instances run the calendar over one
// store at once, then one restarts: every application gets each of its steps once, the draw is
// drawn once and verifies.
func TestCalendarActsOnceAcrossInstancesAndRestarts(t *testing.T) {
	f := scenario.New(t)
	f.Seed(true)
	ctx := f.Ctx
	lot := subscription.New(f.Svc)
	// Monday 23 November 11:00 Taipei; the window closes at 12:00, every step is dated that day.
	listed, err := lot.ListIssue(ctx, commandstest.Meta("ops:ops"), subscription.ListIssue{Symbol: "1295", Name: "生合", Market: "TW",
		Price: "50", ReferencePrice: "72.5", PE: "18.4", IndustryPE: "25.1", Lots: 3, UnitLots: 1,
		OpensAt: commandstest.T0.Add(-time.Hour), ClosesAt: commandstest.T0.Add(time.Hour),
		DrawDate: "2026-11-23", DeductionDate: "2026-11-23", RefundDate: "2026-11-23", ListingDate: "2026-11-24"})
	f.Must(err)
	const members = 8
	for i := range members {
		amount := "50070"
		if i == 0 {
			amount = "50020" // no postage: unpaid if drawn
		}
		memberID := f.Verified(fmt.Sprintf("09%08d", 55500000+i), scenario.IDNumber(i), amount)
		_, err = lot.Apply(ctx, commandstest.Meta("member"), subscription.Apply{MemberID: memberID, IssueID: listed.IssueID, Lots: 1})
		f.Must(err)
	}
	// The next day 09:00 Taipei: every step is due.
	f.Clock.Add(22 * time.Hour)
	// Each instance has its own kernel (own cache) over the store, as another process would.
	c := offeringtest.ActsOnce(f.Fixture, func() offering.Spec { return subscription.New(f.Service(commandstest.WithSealer)).Spec() },
		func() bool {
			all := f.All()
			return commandstest.Count(all, "SubscriptionRefunded")+commandstest.Count(all, "SubscriptionAllotted") == members
		})
	// The settled issue is forgotten: the checkpoint keeps nothing of it.
	if snap, err := c.Snapshot(); err != nil || string(snap) != `{"form":2,"offerings":{}}` {
		t.Fatalf("calendar state after the issue settled: %s %v", snap, err)
	}
	all := f.CheckLog()
	n := func(typ string) int { return commandstest.Count(all, typ) }
	if n("SubscriptionDrawn") != 1 || n("SubscriptionPaid")+n("SubscriptionUnpaid") != 3 || n("SubscriptionAllotted") != n("SubscriptionPaid") ||
		n("SubscriptionRefunded") != members-n("SubscriptionAllotted") {
		t.Fatalf("drawn %d, paid %d, unpaid %d, refunded %d, allotted %d", n("SubscriptionDrawn"), n("SubscriptionPaid"), n("SubscriptionUnpaid"),
			n("SubscriptionRefunded"), n("SubscriptionAllotted"))
	}
	// The check reads the issue's stream and its applicants' accounts, not the whole log.
	d, err := subscription.Verify(ctx, streamsOnly{f.Store}, listed.IssueID)
	if err != nil || !d.Verified() || len(d.Applications) != members {
		t.Fatalf("verify %+v %v", d, err)
	}
}

// streamsOnly is the store with per-stream reads only: a read of the whole log fails.
type streamsOnly struct{ events.Store }

func (streamsOnly) ReadAll(context.Context, int64, int) ([]events.RecordedEvent, error) {
	return nil, errors.New("the whole log was read")
}
