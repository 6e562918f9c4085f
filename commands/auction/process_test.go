package auction_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/commands/auction"
	"github.com/lotbook/lotbook/commands/commandstest"
	"github.com/lotbook/lotbook/commands/funds"
	"github.com/lotbook/lotbook/commands/identity"
	"github.com/lotbook/lotbook/commands/process/offering"
	ids "github.com/lotbook/lotbook/commands/rules/identity"
	"github.com/lotbook/lotbook/commands/rules/secret"
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

// TestProcessActsOnceAcrossInstancesAndRestarts: two instances run the auction's process over one
// store at once, then one restarts from their checkpoint: the award is made once, every bid is
// settled once and every winner's shares delivered once, and the award verifies.
func TestProcessActsOnceAcrossInstancesAndRestarts(t *testing.T) {
	sealer, err := secret.NewSealer(secret.DevKey())
	if err != nil {
		t.Fatal(err)
	}
	withKey := func(o *commands.Options) { o.Sealer = sealer }
	f := commandstest.New(t, withKey)
	f.SeedMembers()
	ctx, ops := f.Ctx, commandstest.Meta("ops:ops")
	fund, ident := funds.New(f.Svc), identity.New(f.Svc)
	_, err = fund.ConfigureDepositChannel(ctx, ops, funds.ChannelInput{ID: "bank", Name: "Bank", Currency: "TWD", Min: "1", Max: "1000000",
		Password: "8888", Window: events.TimeWindow{AlwaysOpen: true}, Enabled: true})
	f.Must(err)
	newCommands := func() *auction.Commands {
		return auction.New(f.Service(withKey), offering.SealerSeeds(sealer, auction.SeedDomain))
	}
	cmd := newCommands()
	listed, err := cmd.List(ctx, ops, auction.List{Terms: offering.Terms{Symbol: "1295", Name: "生合", Market: "TW",
		OpensAt: commandstest.T0.Add(-time.Hour), ClosesAt: commandstest.T0.Add(time.Hour), ListingDate: "2026-11-24"},
		Lots: 3, MaxLotsPerBidder: 1, MinPrice: "50", DepositRate: "20", AwardDate: "2026-11-24"})
	f.Must(err)
	const bidders = 6
	for i := range bidders {
		account := fmt.Sprintf("09%08d", 55600000+i)
		s := f.Register(account, "LOTBOOK")
		_, err := ident.SubmitRealName(ctx, commandstest.Meta("member"), s.MemberID, identity.RealNameInput{Name: "王小明", IDNumber: validID(i),
			FrontFileID: f.Upload(s.MemberID), BackFileID: f.Upload(s.MemberID)})
		f.Must(err)
		_, err = ident.ApproveRealName(ctx, ops, identity.ReviewRealName{Account: account})
		f.Must(err)
		o, err := fund.RequestDeposit(ctx, commandstest.Meta("member"), s.MemberID, funds.DepositInput{ChannelID: "bank", Amount: "60000",
			ProofFileID: f.Upload(s.MemberID), ChannelPassword: "8888"})
		f.Must(err)
		_, err = fund.ApproveDeposit(ctx, ops, funds.ReviewOrder{MemberID: s.MemberID, OrderNo: o.OrderNo})
		f.Must(err)
		_, err = cmd.Bid(ctx, commandstest.Meta("member"), auction.Bid{MemberID: s.MemberID, AuctionID: listed.AuctionID,
			Price: fmt.Sprint(50 + i), Lots: 1})
		f.Must(err)
	}
	// The next day 09:00 Taipei: the award (08:00) and the listing (00:00) are both due.
	f.Clock.Add(22 * time.Hour)
	run := func() *offering.Process {
		return offering.New(offering.Config{Spec: newCommands().Spec(), Store: f.Store, Clock: f.Clock.Now})
	}
	done := func() bool { return commandstest.Count(f.All(), "AuctionDelivered") == 3 }
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
		p := run()
		wg.Go(func() {
			if err := p.Run(ctx1); err != nil {
				t.Error(err)
			}
		})
	}
	deadline := time.Now().Add(30 * time.Second)
	for !done() {
		if time.Now().After(deadline) {
			t.Fatalf("the process did not finish: %d delivered", commandstest.Count(f.All(), "AuctionDelivered"))
		}
		time.Sleep(50 * time.Millisecond)
	}
	stop()
	wg.Wait()
	head, _ := f.Store.Head(ctx)
	ctx2, stop2 := context.WithCancel(ctx)
	p := run()
	wg.Go(func() {
		if err := p.Run(ctx2); err != nil {
			t.Error(err)
		}
	})
	f.Must(p.WaitReady(ctx2))
	f.Must(p.RunDue(ctx2))
	stop2()
	wg.Wait()
	if again, _ := f.Store.Head(ctx); again != head {
		t.Fatalf("a restarted process wrote %d more events", again-head)
	}
	all := f.CheckLog()
	n := func(typ string) int { return commandstest.Count(all, typ) }
	if n("AuctionAwarded") != 1 || n("AuctionSettled") != bidders || n("AuctionDelivered") != 3 || n("AuctionForfeited") != 0 {
		t.Fatalf("awarded %d, settled %d, delivered %d, forfeited %d", n("AuctionAwarded"), n("AuctionSettled"), n("AuctionDelivered"), n("AuctionForfeited"))
	}
	// The check reads the auction's stream and its bidders' accounts, not the whole log.
	c, err := auction.Verify(ctx, streamsOnly{f.Store}, listed.AuctionID)
	if err != nil || !c.Verified || len(c.Grants) != 3 || c.Grants[0].Price.String() != "55" {
		t.Fatalf("verify %+v %v", c, err)
	}
}

// streamsOnly is the store with per-stream reads only: a read of the whole log fails.
type streamsOnly struct{ events.Store }

func (streamsOnly) ReadAll(context.Context, int64, int) ([]events.RecordedEvent, error) {
	return nil, errors.New("the whole log was read")
}
