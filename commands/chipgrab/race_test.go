package chipgrab_test

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/commands/chipgrab"
	"github.com/lotbook/lotbook/commands/commandstest"
	"github.com/lotbook/lotbook/commands/funds"
	"github.com/lotbook/lotbook/events"
)

// Two API processes (two kernels over one store, each with its own cache) take claims on one
// offering at once: the offering stream's expected-version append serialises them, so the lots
// taken never pass the quota, and every member who got lots has exactly their cost frozen.
func TestClaimsFromTwoProcessesNeverOverAllot(t *testing.T) {
	f := commandstest.New(t)
	f.SeedMembers()
	fs := funds.New(f.Svc) // the members' cash comes from deposits, as in production
	_, err := fs.ConfigureDepositChannel(f.Ctx, commandstest.Meta("system"), funds.ChannelInput{ID: "bank", Name: "Bank", Currency: "TWD",
		Min: "1000", Max: "1000000", Enabled: true, Window: events.TimeWindow{AlwaysOpen: true}})
	f.Must(err)
	const members, quota = 30, 7
	ids := make([]string, members)
	for i := range ids {
		s := f.Register(fmt.Sprintf("09%08d", 12340000+i), "LOTBOOK")
		ids[i] = s.MemberID
		dep, err := fs.RequestDeposit(f.Ctx, commandstest.Meta("member"), s.MemberID, funds.DepositInput{ChannelID: "bank", Amount: "50000", ProofFileID: f.Upload(s.MemberID)})
		f.Must(err)
		_, err = fs.ApproveDeposit(f.Ctx, commandstest.Meta("ops:ops"), funds.ReviewOrder{MemberID: s.MemberID, OrderNo: dep.OrderNo})
		f.Must(err)
	}
	second := f.Service()
	kernels := []*chipgrab.Commands{chipgrab.New(f.Svc), chipgrab.New(second)}
	off, err := kernels[0].Offer(f.Ctx, commandstest.Meta("ops:ops"), chipgrab.OfferInput{Symbol: "2884", Price: "31", QuotaLots: quota,
		MaxLotsPerMember: 1, OpensAt: commandstest.T0, ClosesAt: commandstest.T0.Add(time.Hour)},
		commands.ListingQuote{Symbol: "2884", Name: "玉山金", LimitUp: decimal.RequireFromString("34.1"), LimitDown: decimal.RequireFromString("27.9")})
	f.Must(err)

	var wg sync.WaitGroup
	keys := make([]string, members)
	for i, id := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := kernels[i%2].Claim(f.Ctx, commandstest.Meta("member"), id, off.OfferingID, 1)
			if e, ok := commands.AsError(err); ok {
				keys[i] = e.Key
			} else if err != nil {
				keys[i] = err.Error()
			}
		}()
	}
	wg.Wait()
	got := 0
	for i, k := range keys {
		switch k {
		case "":
			got++
		case "quota_insufficient":
		default:
			t.Fatalf("member %d: %s", i, k)
		}
	}
	t.Logf("write conflicts retried: %d", f.Svc.Conflicts()+second.Conflicts())
	all := f.CheckLog()
	if got != quota || commandstest.Count(all, "ChipGrabClaimed") != quota || commandstest.Count(all, "ChipGrabFrozen") != quota {
		t.Fatalf("%d claims answered, %d recorded, %d frozen; the quota is %d", got, commandstest.Count(all, "ChipGrabClaimed"),
			commandstest.Count(all, "ChipGrabFrozen"), quota)
	}
}
