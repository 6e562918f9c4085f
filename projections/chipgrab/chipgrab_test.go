package chipgrab

import (
	"context"
	"testing"
	"time"

	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/projections/projtest"
)

var t0 = time.Date(2026, 3, 2, 2, 0, 0, 0, time.UTC)

// chipLog writes an offering of 5 lots, a claim paid and allotted, a claim that could not be
// paid and went back to the quota, and a claim paid and waiting.
func chipLog(e *projtest.Env) (a, b string) {
	a, b = e.Register("0912345678"), e.Register("0987654321")
	e.Deposit(a, "D1", "100000")
	e.Deposit(b, "D2", "100000")
	off := events.ChipGrabStream("off")
	e.Add(off, "ops:ops", events.ChipGrabOffered{OfferingID: "off", Symbol: "2884", Name: "玉山金", Kind: "stock", Price: projtest.Dec("31"),
		QuotaLots: 5, MaxLotsPerMember: 2, OpensAt: t0, ClosesAt: t0.Add(time.Hour)})
	frozen := func(m, no string) events.ChipGrabFrozen {
		return events.ChipGrabFrozen{OrderNo: no, OfferingID: "off", Symbol: "2884", Name: "玉山金", Kind: "stock", Price: projtest.Dec("31"),
			Lots: 1, Shares: 1000, Amount: projtest.Dec("31044"), Postings: events.Transfer(events.MemberAvailable(m), events.MemberFrozen(m), "TWD", projtest.Dec("31044"))}
	}
	e.Add(off, "member:a", events.ChipGrabClaimed{OfferingID: "off", OrderNo: "G1", MemberID: a, Lots: 1, RemainingLots: 4, RequestCommand: "r1"})
	e.Add(events.AccountStream(a), "member:a", frozen(a, "G1"))
	e.Add(off, "member:b", events.ChipGrabClaimed{OfferingID: "off", OrderNo: "G2", MemberID: b, Lots: 2, RemainingLots: 2, RequestCommand: "r2"})
	e.Add(events.AccountStream(b), "member:b", events.ChipGrabFreezeRefused{OrderNo: "G2", OfferingID: "off", Reason: "insufficient_balance"})
	e.Add(off, "member:b", events.ChipGrabClaimReleased{OfferingID: "off", OrderNo: "G2", MemberID: b, Lots: 2, RemainingLots: 4, Reason: "insufficient_balance"})
	e.Add(off, "member:a", events.ChipGrabClaimed{OfferingID: "off", OrderNo: "G3", MemberID: a, Lots: 1, RemainingLots: 3, RequestCommand: "r3"})
	e.Add(events.AccountStream(a), "member:a", frozen(a, "G3"))
	e.Add(off, "ops:ops", events.ChipGrabAllotmentStarted{OfferingID: "off"})
	e.Add(events.AccountStream(a), "ops:ops", events.ChipGrabAllotted{OrderNo: "G1", OfferingID: "off", Lots: 1, Price: projtest.Dec("31"),
		Released: projtest.Dec("31044"), Postings: events.Transfer(events.MemberFrozen(a), events.MemberAvailable(a), "TWD", projtest.Dec("31044"))})
	return a, b
}

// TestChipGrabReadModel: the offering shows the quota left after claims and releases; each member
// sees their claims' outcomes; the read model equals its replay, and a page fold one by one.
func TestChipGrabReadModel(t *testing.T) {
	projtest.Backends(t, func(t *testing.T, e *projtest.Env) {
		ctx := context.Background()
		a, b := chipLog(e)
		db, r := e.Start()
		r.WaitFor(t, e.Head())
		os, err := Offerings(ctx, db.Reader)
		if err != nil || len(os) != 1 || os[0].RemainingLots != 3 || !os[0].Allotting || os[0].QuotaLots != 5 {
			t.Fatalf("offerings %+v %v", os, err)
		}
		ca, _, err := MemberClaims(ctx, db.Reader, a, 1, 20)
		if err != nil || len(ca) != 2 || ca[0].OrderNo != "G3" || ca[0].Status != StatusFrozen || ca[1].Status != StatusAllotted ||
			!ca[1].Amount.Equal(projtest.Dec("31044")) || ca[1].Symbol != "2884" {
			t.Fatalf("claims of a %+v %v", ca, err)
		}
		cb, _, err := MemberClaims(ctx, db.Reader, b, 1, 20)
		if err != nil || len(cb) != 1 || cb[0].Status != StatusReleased || cb[0].Reason != "insufficient_balance" || !cb[0].Amount.IsZero() {
			t.Fatalf("claims of b %+v %v", cb, err)
		}
		projtest.NoDiffs(t, r.Runner)
	})
}

func TestChipGrabOneByOne(t *testing.T) {
	e := projtest.SQLite(t)
	chipLog(e)
	e.OneByOne(projector)
}
