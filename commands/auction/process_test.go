package auction_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/lotbook/lotbook/commands/auction"
	"github.com/lotbook/lotbook/commands/commandstest"
	"github.com/lotbook/lotbook/commands/commandstest/offeringtest"
	"github.com/lotbook/lotbook/commands/commandstest/scenario"
	"github.com/lotbook/lotbook/commands/process/offering"
	"github.com/lotbook/lotbook/commands/rules/secret"
	"github.com/lotbook/lotbook/events"
)

// TestProcessActsOnceAcrossInstancesAndRestarts: two instances run the auction's process over one
// store at once, then one restarts from their checkpoint: the award is made once, every bid is
// settled once and every winner's shares delivered once, and the award verifies.
func TestProcessActsOnceAcrossInstancesAndRestarts(t *testing.T) {
	sealer, err := secret.NewSealer(secret.DevKey())
	if err != nil {
		t.Fatal(err)
	}
	f := scenario.New(t)
	f.Seed(true)
	ctx, ops := f.Ctx, commandstest.Meta("ops:ops")
	// Each instance has its own kernel (own cache) over the store, as another process would.
	newCommands := func() *auction.Commands {
		return auction.New(f.Service(commandstest.WithSealer), offering.SealerSeeds(sealer, auction.SeedDomain))
	}
	cmd := newCommands()
	listed, err := cmd.List(ctx, ops, auction.List{Terms: offering.Terms{Symbol: "1295", Name: "生合", Market: "TW",
		OpensAt: commandstest.T0.Add(-time.Hour), ClosesAt: commandstest.T0.Add(time.Hour), ListingDate: "2026-11-24"},
		Lots: 3, MaxLotsPerBidder: 1, MinPrice: "50", DepositRate: "20", AwardDate: "2026-11-24"})
	f.Must(err)
	const bidders = 6
	for i := range bidders {
		memberID := f.Verified(fmt.Sprintf("09%08d", 55600000+i), scenario.IDNumber(i), "60000")
		_, err := cmd.Bid(ctx, commandstest.Meta("member"), auction.Bid{MemberID: memberID, AuctionID: listed.AuctionID,
			Price: fmt.Sprint(50 + i), Lots: 1})
		f.Must(err)
	}
	// The next day 09:00 Taipei: the award (08:00) and the listing (00:00) are both due.
	f.Clock.Add(22 * time.Hour)
	offeringtest.ActsOnce(f.Fixture, func() offering.Spec { return newCommands().Spec() },
		func() bool { return commandstest.Count(f.All(), "AuctionDelivered") == 3 })
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
