package coupons_test

import (
	"sync"
	"testing"

	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/commands/commandstest"
	"github.com/lotbook/lotbook/commands/coupons"
)

// Two API processes (two kernels, each with its own cache) check one member in many times at
// once: the account stream's expected version lets exactly one check-in of the day be written;
// every other answers checkin_done.
func TestParallelCheckInsWriteOne(t *testing.T) {
	f := commandstest.New(t)
	f.SeedMembers()
	s := f.Register("0912345678", "LOTBOOK")
	kernels := []*coupons.Commands{coupons.New(f.Svc), coupons.New(f.Service())}
	const n = 16
	keys := make([]string, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := kernels[i%2].CheckIn(f.Ctx, commandstest.Meta("member"), s.MemberID)
			if e, ok := commands.AsError(err); ok {
				keys[i] = e.Key
			} else if err != nil {
				keys[i] = err.Error()
			}
		}()
	}
	wg.Wait()
	ok := 0
	for i, k := range keys {
		switch k {
		case "":
			ok++
		case coupons.KeyCheckinDone:
		default:
			t.Fatalf("check-in %d: %s", i, k)
		}
	}
	all := f.CheckLog()
	if ok != 1 || commandstest.Count(all, "CheckedIn") != 1 || commandstest.Count(all, "CouponGranted") != 1 {
		t.Fatalf("%d answered, %d recorded", ok, commandstest.Count(all, "CheckedIn"))
	}
	// A foreign member id and an ops account are refused, and write nothing.
	_, err := kernels[0].CheckIn(f.Ctx, commandstest.Meta("member"), "not-a-uuid")
	commandstest.WantKey(t, err, commands.KeyAccountNotExist)
}
