package seed

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/lotbook/lotbook/commands/auction"
	"github.com/lotbook/lotbook/commands/process/offering"
	"github.com/lotbook/lotbook/commands/rules/ipo"
	"github.com/lotbook/lotbook/events"
)

func init() { Register("auction", demoAuction) }

// demoAuction lists an auction open from yesterday 09:00 to tomorrow 14:00 (Taipei), awarded the
// day after and listed three days later, so that the demo always has one to bid on. Its id is its
// code and opening day: each day's auction is listed once, whatever the number of starts.
func demoAuction(ctx context.Context, env Env) error {
	sealer := env.Kernel.Sealer()
	if sealer == nil {
		return errors.New("auction: the kernel has no secret key to derive the award's seed from")
	}
	cmd := auction.New(env.Kernel, offering.SealerSeeds(sealer, auction.SeedDomain))
	today := env.Now.In(ipo.Taipei)
	day := func(d, hour int) time.Time {
		return time.Date(today.Year(), today.Month(), today.Day()+d, hour, 0, 0, 0, ipo.Taipei)
	}
	in := auction.List{Terms: offering.Terms{Symbol: "2345", Name: "智邦", Market: events.MarketTW, OpensAt: day(-1, 9), ClosesAt: day(1, 14),
		ListingDate: day(5, 0).Format(time.DateOnly)}, Lots: 500, MaxLotsPerBidder: 50, MinPrice: "520", DepositRate: "20",
		AwardDate: day(2, 0).Format(time.DateOnly)}
	id := offering.ID(in.Symbol, in.OpensAt)
	if _, err := cmd.List(ctx, Meta("auction:"+id), in); err != nil && !AlreadyDone(err, offering.KeyExists) {
		return fmt.Errorf("auction %s: %w", id, err)
	}
	return nil
}
