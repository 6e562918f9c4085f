package seed

import (
	"context"
	"fmt"
	"time"

	"github.com/lotbook/lotbook/commands/placement"
	"github.com/lotbook/lotbook/commands/process/offering"
	"github.com/lotbook/lotbook/events"
)

func init() { Register("placement", demoPlacement) }

// demoPlacement offers a placement open from yesterday 09:00 to tomorrow 14:00 (Taipei), listed
// four days later, so that the demo always has one to apply for; ops trigger its allotment after
// the window. Each day's placement is offered once (its id is its code and opening day).
func demoPlacement(ctx context.Context, env Env) error {
	seeds, err := offeringSeeds(env, placement.SeedDomain)
	if err != nil {
		return err
	}
	cmd := placement.New(env.Kernel, seeds)
	day := taipeiDays(env.Now)
	in := placement.Offer{Terms: offering.Terms{Symbol: "6669", Name: "緯穎", Market: events.MarketTW, OpensAt: day(-1, 9), ClosesAt: day(1, 14),
		ListingDate: day(4, 0).Format(time.DateOnly)}, Price: "2150", Lots: 300, MaxLotsPerMember: 5}
	id := offering.ID(in.Symbol, in.OpensAt)
	if _, err := cmd.Offer(ctx, Meta("placement:"+id), in); err != nil && !AlreadyDone(err, offering.KeyExists) {
		return fmt.Errorf("placement %s: %w", id, err)
	}
	return nil
}
