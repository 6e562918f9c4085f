package seed

import (
	"errors"
	"time"

	"github.com/lotbook/lotbook/commands/process/offering"
	"github.com/lotbook/lotbook/commands/rules/ipo"
)

// offeringSeeds are the seeds of an offering capability (domain) from the server's key, as the
// running server derives them.
func offeringSeeds(env Env, domain string) (offering.Seeds, error) {
	sealer := env.Kernel.Sealer()
	if sealer == nil {
		return nil, errors.New("the kernel has no secret key to derive the offering's seeds from")
	}
	return offering.SealerSeeds(sealer, domain), nil
}

// taipeiDays is the demo's calendar: hour o'clock (Asia/Taipei) d days from now's day.
func taipeiDays(now time.Time) func(d, hour int) time.Time {
	today := now.In(ipo.Taipei)
	return func(d, hour int) time.Time {
		return time.Date(today.Year(), today.Month(), today.Day()+d, hour, 0, 0, 0, ipo.Taipei)
	}
}
