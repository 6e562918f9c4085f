package copytrade_test

import (
	"strconv"
	"sync"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/commands/commandstest"
	"github.com/lotbook/lotbook/commands/commandstest/scenario"
	"github.com/lotbook/lotbook/commands/copytrade"
	"github.com/lotbook/lotbook/events"
)

// Many mentor fills mirrored at once, each on its own kernel (as several processes would): the
// follow never spends more than it committed, and the commitment plus what was spent is the
// amount held.
func TestConcurrentSpendsNeverOverspend(t *testing.T) {
	f, follower, followID, kernels := followOnThreeKernels(t, "0911000001", "0911000002")
	var wg sync.WaitGroup
	for i := range 40 {
		wg.Go(func() {
			_, err := kernels[i%len(kernels)].Spend(f.Ctx, commandstest.Meta("system"), copytrade.Spend{FollowerID: follower, FollowID: followID,
				Ref: "fill-" + strconv.Itoa(i), Symbol: "2330", Price: decimal.NewFromInt(30), Value: decimal.NewFromInt(100000),
				MentorEquity: decimal.NewFromInt(1000000)})
			if err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	spent, n := decimal.Zero, 0
	for _, r := range f.CheckLog() {
		if r.Type == "CopyFundsSpent.v1" {
			p, err := events.DecodeRecorded(r)
			f.Must(err)
			spent = spent.Add(p.(events.CopyFundsSpent).Amount)
			n++
		}
	}
	// each fill asks 10 % of 100,000 = 10,000, 333 shares at 30: less than a lot, and odd lots
	// are off, so nothing is spent
	if n != 0 {
		t.Fatalf("spent %s of 100000 in %d spends", spent, n)
	}
	// now with odd lots: every spend fits until the commitment is used up
	for i := range 40 {
		wg.Go(func() {
			_, err := kernels[i%len(kernels)].Spend(f.Ctx, commandstest.Meta("system"), copytrade.Spend{FollowerID: follower, FollowID: followID,
				Ref: "odd-" + strconv.Itoa(i), Symbol: "2330", Price: decimal.NewFromInt(30), Value: decimal.NewFromInt(100000),
				MentorEquity: decimal.NewFromInt(1000000), OddLots: true})
			if err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	spent, n = decimal.Zero, 0
	for _, r := range f.CheckLog() {
		if r.Type == "CopyFundsSpent.v1" {
			p, err := events.DecodeRecorded(r)
			f.Must(err)
			spent = spent.Add(p.(events.CopyFundsSpent).Amount)
			n++
		}
	}
	if spent.GreaterThan(decimal.NewFromInt(100000)) {
		t.Fatalf("spent %s of 100000 in %d spends", spent, n)
	}
	if n < 9 || spent.LessThan(decimal.NewFromInt(90000)) {
		t.Fatalf("only %d spends, %s: the commitment should be nearly used up", n, spent)
	}
}

// Mirrored short sales and buys racing on several kernels: the margins and costs they take never
// add up to more than the commitment.
func TestConcurrentShortSpendsNeverOverspend(t *testing.T) {
	f, follower, followID, kernels := followOnThreeKernels(t, "0911000011", "0911000012")
	var wg sync.WaitGroup
	for i := range 30 {
		wg.Go(func() {
			// each asks 30 % of the commitment: 1 lot at 30, its margin 33,000 / 1.11 = 29,730 at
			// the limit-up 33 (the one buy: 30,042); whichever win, at least two are shorts
			_, err := kernels[i%len(kernels)].Spend(f.Ctx, commandstest.Meta("system"), copytrade.Spend{FollowerID: follower, FollowID: followID,
				Ref: "fill-" + strconv.Itoa(i), Symbol: "2330", Price: decimal.NewFromInt(30), LimitUp: decimal.NewFromInt(33),
				Value: decimal.NewFromInt(300000), MentorEquity: decimal.NewFromInt(1000000), Short: i != 0})
			if err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	spent, n, shorts := decimal.Zero, 0, 0
	for _, r := range f.CheckLog() {
		if r.Type == "CopyFundsSpent.v1" {
			p, err := events.DecodeRecorded(r)
			f.Must(err)
			e := p.(events.CopyFundsSpent)
			spent = spent.Add(e.Amount)
			n++
			if e.Direction == events.DirectionShort {
				shorts++
			}
		}
	}
	// three spends fit (at most 90,126), a fourth never does
	if spent.GreaterThan(decimal.NewFromInt(100000)) || n != 3 || shorts == 0 {
		t.Fatalf("spent %s of 100000 in %d spends (%d short)", spent, n, shorts)
	}
	b, err := commands.View(f.Ctx, f.Svc, events.AccountStream(follower), func(a *commands.Account, _ *commands.Entry) commands.Balance {
		return a.Balances["TWD"]
	})
	f.Must(err)
	if !b.Frozen.Equal(decimal.NewFromInt(100000).Sub(spent)) || !b.Available.Add(b.Frozen).Equal(decimal.NewFromInt(200000)) {
		t.Fatalf("follower's cash %+v after spending %s", b, spent)
	}
}

// followOnThreeKernels registers a mentor and a follower funded with 200,000 who follows it with
// 100,000, and gives three kernels on one log (as three processes would).
func followOnThreeKernels(t *testing.T, mentorAccount, followerAccount string) (f *scenario.Fixture, follower, followID string, kernels []*copytrade.Commands) {
	t.Helper()
	f = scenario.New(t)
	f.Seed(true)
	mentor := f.Register(mentorAccount, "LOTBOOK").MemberID
	follower = f.Register(followerAccount, "LOTBOOK").MemberID
	f.Fund(follower, "200000")
	c := copytrade.New(f.Svc)
	_, err := c.SetProfile(f.Ctx, commandstest.Meta("member"), mentor, copytrade.ProfileInput{DisplayName: "Ann", MinAmount: "10000",
		WindowDays: 30, ProfitShare: "10"})
	f.Must(err)
	fr, err := c.Follow(f.Ctx, commandstest.Meta("member"), follower, copytrade.FollowInput{MentorID: mentor, Amount: "100000"})
	f.Must(err)
	return f, follower, fr.FollowID, []*copytrade.Commands{c, copytrade.New(f.Service()), copytrade.New(f.Service())}
}
