// Package offeringtest is the offerings' test bed (the lottery's, the auction's, the
// placement's): the member m1 as an entry's decision sees it, times in Taipei, and a run of an
// offering's process by two instances at once followed by a restart. Only tests import it.
package offeringtest

import (
	"context"
	"sync"
	"time"

	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/commands/commandstest"
	"github.com/lotbook/lotbook/commands/process/offering"
	"github.com/lotbook/lotbook/commands/rules/ipo"
	"github.com/lotbook/lotbook/events"
)

// Taipei is s ("2006-01-02 15:04") in Taipei, as the offerings' calendars are published.
func Taipei(s string) time.Time {
	t, err := time.ParseInLocation("2006-01-02 15:04", s, ipo.Taipei)
	if err != nil {
		panic(err)
	}
	return t
}

// Terms are the tests' offering of 6805 (富世達): the window from Tuesday 24 November 09:00 to
// Thursday 26 November 14:00 in Taipei, listed on 3 December, in lots of 1,000 shares.
var Terms = events.OfferingTerms{OfferingID: "6805-20261124", Symbol: "6805", Name: "富世達", Market: events.MarketTW, Currency: "TWD",
	LotShares: 1000, OpensAt: Taipei("2026-11-24 09:00"), ClosesAt: Taipei("2026-11-26 14:00"), ListingDate: "2026-12-03"}

// Ledger is the member m1's cash accounts.
var Ledger = commands.Ledger{MemberID: "m1", Available: events.MemberAvailable("m1"), Frozen: events.MemberFrozen("m1")}

// Registered registers m1 as a member (not staff).
var Registered = events.MemberRegistered{MemberID: "m1", Account: "0912345678", Role: events.RoleMember}

// Member is m1's facts (offering.Member) after ps, as a decision reads them.
func Member(ps ...events.Payload) offering.Member {
	m := offering.NewMember("m1")
	for _, p := range ps {
		m.Apply(events.RecordedEvent{}, p)
	}
	return m.Copy()
}

// Verified is m1 registered as a member with an approved real name: one who may enter.
func Verified() offering.Member { return Member(Registered, events.RealNameApproved{}) }

// ActsOnce runs an offering's process (spec builds each instance's, over its own kernel) on two
// instances at once until done, then restarts one from their checkpoint and fails the test if
// the restart writes anything. It answers the restarted process (its snapshot, say). The
// process's timers wait for f's clock: it moves a second every 20 ms while the instances run.
func ActsOnce(f *commandstest.Fixture, spec func() offering.Spec, done func() bool) *offering.Process {
	f.T.Helper()
	ctx := f.Ctx
	run := func() *offering.Process {
		return offering.New(offering.Config{Spec: spec(), Store: f.Store, Clock: f.Clock.Now})
	}
	ctx1, stop := context.WithCancel(ctx)
	var wg sync.WaitGroup
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
				f.T.Error(err)
			}
		})
	}
	deadline := time.Now().Add(30 * time.Second)
	for !done() {
		if time.Now().After(deadline) {
			stop()
			wg.Wait()
			f.T.Fatalf("the %s process did not finish", spec().Name)
		}
		time.Sleep(50 * time.Millisecond)
	}
	stop()
	wg.Wait()
	head, err := f.Store.Head(ctx)
	f.Must(err)
	ctx2, stop2 := context.WithCancel(ctx)
	p := run()
	wg.Go(func() {
		if err := p.Run(ctx2); err != nil {
			f.T.Error(err)
		}
	})
	f.Must(p.WaitReady(ctx2))
	f.Must(p.RunDue(ctx2))
	stop2()
	wg.Wait()
	if again, err := f.Store.Head(ctx); err != nil || again != head {
		f.T.Fatalf("a restarted %s process wrote %d more events (%v)", spec().Name, again-head, err)
	}
	return p
}
