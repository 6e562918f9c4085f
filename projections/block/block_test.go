package block

import (
	"context"
	"testing"
	"time"

	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/projections/projtest"
)

var t0 = time.Date(2026, 3, 2, 2, 0, 0, 0, time.UTC)

// blockLog writes a block, two applications of one member (approved, rejected) and one of
// another (pending), and ops closing the block.
func blockLog(e *projtest.Env) (a, b string) {
	a, b = e.Register("0912345678"), e.Register("0987654321")
	e.Add(events.BlockStream("blk"), "ops:ops", events.BlockListed{BlockID: "blk", Symbol: "2603", Name: "長榮", Kind: "stock",
		ReferencePrice: projtest.Dec("186.5"), PremiumRate: projtest.Dec("-0.02"), Price: projtest.Dec("182.77"), MinLots: 2, DailyCapLots: 4,
		OpensAt: t0, ClosesAt: t0.Add(48 * time.Hour)})
	applied := func(m, no string, lots int64) events.BlockApplied {
		amount := projtest.Dec("183").Mul(projtest.Dec("1000")).Mul(projtest.Dec("2"))
		return events.BlockApplied{OrderNo: no, BlockID: "blk", Symbol: "2603", Name: "長榮", Kind: "stock", Price: projtest.Dec("182.77"),
			Bid: projtest.Dec("183"), Lots: lots, Shares: lots * 1000, Day: "2026-03-02", Amount: amount,
			Postings: events.Transfer(events.MemberAvailable(m), events.MemberFrozen(m), "TWD", amount)}
	}
	e.Deposit(a, "D1", "1000000")
	e.Deposit(b, "D2", "1000000")
	e.Add(events.AccountStream(a), "member:a", applied(a, "B1", 2))
	e.Add(events.AccountStream(a), "ops:ops", events.BlockApplicationApproved{OrderNo: "B1", BlockID: "blk", Lots: 2, Price: projtest.Dec("182.77"),
		Released: projtest.Dec("366000"), Postings: events.Transfer(events.MemberFrozen(a), events.MemberAvailable(a), "TWD", projtest.Dec("366000"))})
	e.Add(events.AccountStream(a), "member:a", applied(a, "B2", 2))
	e.Add(events.AccountStream(b), "member:b", applied(b, "B3", 2))
	e.Add(events.AccountStream(a), "ops:ops", events.BlockApplicationRejected{OrderNo: "B2", BlockID: "blk", Released: projtest.Dec("366000"),
		Remark: "full", Postings: events.Transfer(events.MemberFrozen(a), events.MemberAvailable(a), "TWD", projtest.Dec("366000"))})
	e.Add(events.BlockStream("blk"), "ops:ops", events.BlockClosed{BlockID: "blk", Remark: "done"})
	return a, b
}

// TestBlockReadModel: the listing sums applied (not rejected) and filled lots; each member sees
// their own applications with the review's outcome; the ops queue lists the pending one with the
// applicant's account; the read model equals its replay, and a page fold equals one by one.
func TestBlockReadModel(t *testing.T) {
	projtest.Backends(t, func(t *testing.T, e *projtest.Env) {
		ctx := context.Background()
		a, b := blockLog(e)
		db, r := e.Start()
		r.WaitFor(t, e.Head())
		l, err := ListingByID(ctx, db.Reader, "blk")
		if err != nil || l.AppliedLots != 4 || l.FilledLots != 2 || !l.Closed || l.Open(t0.Add(time.Hour)) || !l.Price.Equal(projtest.Dec("182.77")) {
			t.Fatalf("listing %+v %v", l, err)
		}
		mine, _, err := MemberApplications(ctx, db.Reader, a, 1, 20)
		if err != nil || len(mine) != 2 || mine[0].OrderNo != "B2" || mine[0].Status != StatusRejected || mine[0].Remark != "full" ||
			mine[1].Status != StatusApproved || mine[1].FilledLots != 2 || mine[1].ReviewedBy != "ops:ops" {
			t.Fatalf("applications of a %+v %v", mine, err)
		}
		q, _, err := Queue(ctx, db.Reader, StatusPending, 1, 20)
		if err != nil || len(q) != 1 || q[0].MemberID != b || q[0].Account != "0987654321" {
			t.Fatalf("queue %+v %v", q, err)
		}
		projtest.NoDiffs(t, r.Runner)
	})
}

func TestBlockOneByOne(t *testing.T) {
	e := projtest.SQLite(t)
	blockLog(e)
	e.OneByOne(projector)
}
