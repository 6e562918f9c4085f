package subscription

import (
	"context"
	"testing"
	"time"

	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/projections"
	"github.com/lotbook/lotbook/projections/projtest"
)

// issueLog writes an issue drawn over three applications: a paid winner, an unpaid winner later
// waived, a loser refunded; the paid winner's shares allotted.
func issueLog(e *projtest.Env) (paid, unpaid, loser string) {
	paid, unpaid, loser = e.Register("0911111111"), e.Register("0922222222"), e.Register("0933333333")
	id := "1295-20260302"
	e.Add(events.SubscriptionStream(id), "ops:ops", events.SubscriptionIssueListed{IssueID: id, Symbol: "1295", Name: "生合", Market: "TW", Currency: "TWD",
		Price: projtest.Dec("50"), ReferencePrice: projtest.Dec("72.5"), Lots: 2, UnitLots: 1, LotShares: 1000, Fee: projtest.Dec("20"), Postage: projtest.Dec("50"),
		OpensAt: time.Date(2026, 3, 2, 1, 0, 0, 0, time.UTC), ClosesAt: time.Date(2026, 3, 3, 6, 0, 0, 0, time.UTC),
		DrawDate: "2026-03-04", DeductionDate: "2026-03-05", RefundDate: "2026-03-06", ListingDate: "2026-03-09", PE: projtest.Dec("18.4"), IndustryPE: projtest.Dec("25.1")},
		events.SubscriptionSeedCommitted{IssueID: id, Commitment: "c0", Algorithm: "a"})
	apply := func(m, no string) {
		e.Add(events.AccountStream(m), "member:x", events.SubscriptionApplied{IssueID: id, ApplicationNo: no, Symbol: "1295", Name: "生合", Lots: 1, Shares: 1000,
			Price: projtest.Dec("50"), Amount: projtest.Dec("50000"), Fee: projtest.Dec("20"),
			Postings: events.Transfer(events.MemberAvailable(m), events.MemberFrozen(m), "TWD", projtest.Dec("50020"))})
	}
	apply(paid, "S1")
	apply(unpaid, "S2")
	apply(loser, "S3")
	e.Add(events.SubscriptionStream(id), "system", events.SubscriptionDrawn{IssueID: id, Seed: "5e", Commitment: "c0", Algorithm: "a", Lots: 2,
		Applications: []string{"S1", "S2", "S3"}, Winners: []string{"S2", "S1"}})
	e.Add(events.AccountStream(paid), "system", events.SubscriptionPaid{IssueID: id, ApplicationNo: "S1", Amount: projtest.Dec("50000"), Fee: projtest.Dec("20"),
		Postage: projtest.Dec("50"), Postings: events.Transfer(events.MemberFrozen(paid), events.HouseSubscriptionClearing, "TWD", projtest.Dec("50000"))})
	e.Add(events.AccountStream(unpaid), "system", events.SubscriptionUnpaid{IssueID: id, ApplicationNo: "S2", Due: projtest.Dec("50")})
	for _, r := range []struct {
		m, no  string
		waived bool
	}{{loser, "S3", false}, {unpaid, "S2", true}} {
		e.Add(events.AccountStream(r.m), "system", events.SubscriptionRefunded{IssueID: id, ApplicationNo: r.no, Amount: projtest.Dec("50000"), Fee: projtest.Dec("20"),
			Waived: r.waived, Postings: events.Transfer(events.MemberFrozen(r.m), events.MemberAvailable(r.m), "TWD", projtest.Dec("50000"))})
	}
	e.Add(events.AccountStream(paid), "system", events.SubscriptionAllotted{IssueID: id, ApplicationNo: "S1", Symbol: "1295", Name: "生合", Security: "TW:1295",
		Shares: 1000, Price: projtest.Dec("50"), Basis: projtest.Dec("50000"), PaidDate: "2026-03-05", ListingDate: "2026-03-09",
		Postings: events.TransferShares(events.HouseSubscriptionShares, events.MemberAccount(paid, events.KindShares), "TW:1295", 1000)})
	return paid, unpaid, loser
}

func check(t *testing.T, db *projections.ReadDB, paid, unpaid, loser string) {
	t.Helper()
	ctx := context.Background()
	is, err := Issues(ctx, db.Reader)
	if err != nil || len(is) != 1 || is[0].Applications != 3 || !is[0].Drawn || len(is[0].Winners) != 2 || is[0].Commitment != "c0" {
		t.Fatalf("issues %+v %v", is, err)
	}
	// Thursday 5 March 09:00 Taipei, before the refunds: a won application reads pending payment
	// until its deduction is recorded (none here is still only won).
	now := time.Date(2026, 3, 5, 1, 0, 0, 0, time.UTC)
	for m, want := range map[string]struct {
		state    string
		won      bool
		allotted int64
		refunded string
	}{paid: {PaymentCompleted, true, 1000, "0"}, unpaid: {Waived, true, 0, "50000"}, loser: {NotWon, false, 0, "50000"}} {
		as, err := MemberApplications(ctx, db.Reader, m)
		if err != nil || len(as) != 1 {
			t.Fatalf("applications of %s: %+v %v", m, as, err)
		}
		a := as[0]
		if a.State(now) != want.state || a.Won() != want.won || a.Allotted != want.allotted || a.Refunded.String() != want.refunded {
			t.Errorf("%s: state %s won %v allotted %d refunded %s, want %+v", a.ApplicationNo, a.State(now), a.Won(), a.Allotted, a.Refunded, want)
		}
	}
	all, err := IssueApplications(ctx, db.Reader, "1295-20260302")
	if err != nil || len(all) != 3 || all[0].ApplicationNo != "S1" {
		t.Fatalf("issue's applications %+v %v", all, err)
	}
}

// TestSubscriptionReadModel: issues and applications with their states, equal to the replay on
// both databases, after a rebuild and when applied one event per page.
func TestSubscriptionReadModel(t *testing.T) {
	projtest.Backends(t, func(t *testing.T, e *projtest.Env) {
		paid, unpaid, loser := issueLog(e)
		db, r := e.Start()
		r.WaitFor(t, e.Head())
		check(t, db, paid, unpaid, loser)
		projtest.NoDiffs(t, r.Runner)
		if err := r.Rebuild(context.Background(), "subscription", nil); err != nil {
			t.Fatal(err)
		}
		check(t, db, paid, unpaid, loser)
	})
	e := projtest.SQLite(t)
	paid, unpaid, loser := issueLog(e)
	check(t, e.OneByOne(projector), paid, unpaid, loser)
}

// TestPendingPayment: a winner reads won before the deduction day's step and pending payment
// from it until the deduction is recorded.
func TestPendingPayment(t *testing.T) {
	a := Application{state: Won}
	a.Calendar.ClosesAt = time.Date(2026, 3, 3, 6, 0, 0, 0, time.UTC)
	a.Calendar.DeductionDate = "2026-03-05"
	if s := a.State(time.Date(2026, 3, 4, 23, 59, 0, 0, time.UTC)); s != Won {
		t.Errorf("the evening before: %s", s)
	}
	if s := a.State(time.Date(2026, 3, 5, 0, 0, 0, 0, time.UTC)); s != PendingPayment {
		t.Errorf("at 08:00 Taipei on the deduction day: %s", s)
	}
}
