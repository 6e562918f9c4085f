package seed

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/lotbook/lotbook/commands/placement"
	"github.com/lotbook/lotbook/commands/process/offering"
	"github.com/lotbook/lotbook/commands/rules/ipo"
	"github.com/lotbook/lotbook/events"
)

func init() { Register("placement", demoPlacement) }

// demoPlacement offers a placement open from yesterday 09:00 to tomorrow 14:00 (Taipei), listed
// four days later, so that the demo always has one to apply for; ops trigger its allotment after
// the window. Each day's placement is offered once (its id is its code and opening day).
func demoPlacement(ctx context.Context, env Env) error {
	sealer := env.Kernel.Sealer()
	if sealer == nil {
		return errors.New("placement: the kernel has no secret key to derive the allotment's seed from")
	}
	cmd := placement.New(env.Kernel, offering.SealerSeeds(sealer, placement.SeedDomain))
	today := env.Now.In(ipo.Taipei)
	day := func(d, hour int) time.Time {
		return time.Date(today.Year(), today.Month(), today.Day()+d, hour, 0, 0, 0, ipo.Taipei)
	}
	in := placement.Offer{Terms: offering.Terms{Symbol: "6669", Name: "緯穎", Market: events.MarketTW, OpensAt: day(-1, 9), ClosesAt: day(1, 14),
		ListingDate: day(4, 0).Format(time.DateOnly)}, Price: "2150", Lots: 300, MaxLotsPerMember: 5}
	id := offering.ID(in.Symbol, in.OpensAt)
	if _, err := cmd.Offer(ctx, Meta("placement:"+id), in); err != nil && !AlreadyDone(err, offering.KeyExists) {
		return fmt.Errorf("placement %s: %w", id, err)
	}
	return nil
}
