package seed

import (
	"context"
	"fmt"
	"time"

	"github.com/lotbook/lotbook/commands/auction"
	"github.com/lotbook/lotbook/commands/process/offering"
	"github.com/lotbook/lotbook/events"
)

func init() { Register("auction", demoAuction) }

// demoAuction lists an auction open from yesterday 09:00 to tomorrow 14:00 (Taipei), awarded the
// day after and listed three days later, so that the demo always has one to bid on. Its id is its
// code and opening day: each day's auction is listed once, whatever the number of starts.
func demoAuction(ctx context.Context, env Env) error {
	seeds, err := offeringSeeds(env, auction.SeedDomain)
	if err != nil {
		return err
	}
	cmd := auction.New(env.Kernel, seeds)
	day := taipeiDays(env.Now)
	in := auction.List{Terms: offering.Terms{Symbol: "2345", Name: "智邦", Market: events.MarketTW, OpensAt: day(-1, 9), ClosesAt: day(1, 14),
		ListingDate: day(5, 0).Format(time.DateOnly)}, Lots: 500, MaxLotsPerBidder: 50, MinPrice: "520", DepositRate: "20",
		AwardDate: day(2, 0).Format(time.DateOnly)}
	id := offering.ID(in.Symbol, in.OpensAt)
	if _, err := cmd.List(ctx, Meta("auction:"+id), in); err != nil && !AlreadyDone(err, offering.KeyExists) {
		return fmt.Errorf("auction %s: %w", id, err)
	}
	return nil
}
