package subscription_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/commands/commandstest"
	"github.com/lotbook/lotbook/commands/funds"
	"github.com/lotbook/lotbook/commands/identity"
	"github.com/lotbook/lotbook/commands/process/offering"
	ids "github.com/lotbook/lotbook/commands/rules/identity"
	"github.com/lotbook/lotbook/commands/rules/secret"
	"github.com/lotbook/lotbook/commands/subscription"
	"github.com/lotbook/lotbook/events"
)

// validID is the n-th valid Taiwan ID number of the test.
func validID(n int) string {
	for d := 0; d <= 9; d++ {
		if id := fmt.Sprintf("A2%07d%d", n, d); ids.ValidTaiwanID(id) {
			return id
		}
	}
	panic("no check digit")
}

// TestCalendarActsOnceAcrossInstancesAndRestarts: two API instances run the calendar over one
// store at once, then one restarts: every application gets each of its steps once, the draw is
// drawn once and verifies.
func TestCalendarActsOnceAcrossInstancesAndRestarts(t *testing.T) {
	sealer, err := secret.NewSealer(secret.DevKey())
	if err != nil {
		t.Fatal(err)
	}
	f := commandstest.New(t, func(o *commands.Options) { o.Sealer = sealer })
	f.SeedMembers()
	ctx := f.Ctx
	ops := commandstest.Meta("ops:ops")
	fund, ident := funds.New(f.Svc), identity.New(f.Svc)
	_, err = fund.ConfigureDepositChannel(ctx, ops, funds.ChannelInput{ID: "bank", Name: "Bank", Currency: "TWD", Min: "1", Max: "1000000",
		Password: "8888", Window: events.TimeWindow{AlwaysOpen: true}, Enabled: true})
	f.Must(err)
	lot := subscription.New(f.Svc)
	// Monday 23 November 11:00 Taipei; the window closes at 12:00, every step is dated that day.
	listed, err := lot.ListIssue(ctx, commandstest.Meta("ops:ops"), subscription.ListIssue{Symbol: "1295", Name: "生合", Market: "TW",
		Price: "50", ReferencePrice: "72.5", PE: "18.4", IndustryPE: "25.1", Lots: 3, UnitLots: 1,
		OpensAt: commandstest.T0.Add(-time.Hour), ClosesAt: commandstest.T0.Add(time.Hour),
		DrawDate: "2026-11-23", DeductionDate: "2026-11-23", RefundDate: "2026-11-23", ListingDate: "2026-11-24"})
	f.Must(err)
	const members = 8
	for i := range members {
		account := fmt.Sprintf("09%08d", 55500000+i)
		s := f.Register(account, "LOTBOOK")
		_, err := ident.SubmitRealName(ctx, commandstest.Meta("member"), s.MemberID, identity.RealNameInput{Name: "王小明", IDNumber: validID(i),
			FrontFileID: f.Upload(s.MemberID), BackFileID: f.Upload(s.MemberID)})
		f.Must(err)
		_, err = ident.ApproveRealName(ctx, ops, identity.ReviewRealName{Account: account})
		f.Must(err)
		amount := "50070"
		if i == 0 {
			amount = "50020" // no postage: unpaid if drawn
		}
		o, err := fund.RequestDeposit(ctx, commandstest.Meta("member"), s.MemberID, funds.DepositInput{ChannelID: "bank", Amount: amount,
			ProofFileID: f.Upload(s.MemberID), ChannelPassword: "8888"})
		f.Must(err)
		_, err = fund.ApproveDeposit(ctx, ops, funds.ReviewOrder{MemberID: s.MemberID, OrderNo: o.OrderNo})
		f.Must(err)
		_, err = lot.Apply(ctx, commandstest.Meta("member"), subscription.Apply{MemberID: s.MemberID, IssueID: listed.IssueID, Lots: 1})
		f.Must(err)
	}
	// The next day 09:00 Taipei: every step is due.
	f.Clock.Add(22 * time.Hour)
	// Each instance has its own kernel (own cache) over the store, as another process would.
	run := func() *offering.Process {
		return offering.New(offering.Config{Spec: subscription.New(f.Service(func(o *commands.Options) { o.Sealer = sealer })).Spec(),
			Store: f.Store, Clock: f.Clock.Now})
	}
	allotted := func() int { return commandstest.Count(f.All(), "SubscriptionAllotted") }
	settled := func() bool {
		all := f.All()
		return commandstest.Count(all, "SubscriptionRefunded")+commandstest.Count(all, "SubscriptionAllotted") == members
	}
	ctx1, stop := context.WithCancel(ctx)
	var wg sync.WaitGroup
	// The timers wait for the clock: it moves a second every 20 ms while the instances run.
	ticking, stopTicking := context.WithCancel(ctx)
	defer stopTicking()
	go func() {
		for ticking.Err() == nil {
			time.Sleep(20 * time.Millisecond)
			f.Clock.Add(time.Second)
		}
	}()
	for range 2 {
		c := run()
		wg.Go(func() {
			if err := c.Run(ctx1); err != nil {
				t.Error(err)
			}
		})
	}
	deadline := time.Now().Add(30 * time.Second)
	for !settled() {
		if time.Now().After(deadline) {
			t.Fatalf("the calendar did not finish: %d allotted", allotted())
		}
		time.Sleep(50 * time.Millisecond)
	}
	stop()
	wg.Wait()
	head, _ := f.Store.Head(ctx)
	// A restart (from the checkpoint the two saved) finds nothing left to do.
	ctx2, stop2 := context.WithCancel(ctx)
	c := run()
	wg.Go(func() {
		if err := c.Run(ctx2); err != nil {
			t.Error(err)
		}
	})
	f.Must(c.WaitReady(ctx2))
	f.Must(c.RunDue(ctx2))
	stop2()
	wg.Wait()
	// The settled issue is forgotten: the checkpoint keeps nothing of it.
	if snap, err := c.Snapshot(); err != nil || string(snap) != `{"form":2,"offerings":{}}` {
		t.Fatalf("calendar state after the issue settled: %s %v", snap, err)
	}
	if again, _ := f.Store.Head(ctx); again != head {
		t.Fatalf("a restarted calendar wrote %d more events", again-head)
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
