package reviews

import (
	"context"
	"errors"
	"testing"

	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/projections"
	"github.com/lotbook/lotbook/projections/projtest"
)

// TestDepositQueue: ops see pending deposits with the member's login account, and each decided
// one with its reviewer; the read model equals its replay, before and after a rebuild.
func TestDepositQueue(t *testing.T) {
	projtest.Backends(t, func(t *testing.T, e *projtest.Env) {
		ctx := context.Background()
		db, r := e.Start()
		m := e.Register("0912345678")
		other := e.Register("0922222222")
		e.RequestDeposit(m, "D1", "5000")
		e.RequestDeposit(m, "D2", "2500.5")
		e.ApproveDeposit(m, "D1", "5000")
		e.Add(events.AccountStream(m), "ops:ops", events.DepositRejected{OrderNo: "D2", Remark: "blurry proof"})
		e.RequestDeposit(other, "D3", "1000")
		r.WaitFor(t, e.Head())

		check := func() {
			t.Helper()
			pending, _, err := Queue(ctx, db.Reader, events.ReviewPending, 1, 20)
			if err != nil || len(pending) != 1 || pending[0].OrderNo != "D3" || pending[0].Account != "0922222222" || pending[0].MemberID != other {
				t.Fatalf("pending = %+v, %v", pending, err)
			}
			decided, _, err := Queue(ctx, db.Reader, "", 1, 20)
			if err != nil || len(decided) != 3 || decided[0].OrderNo != "D3" || decided[2].OrderNo != "D1" {
				t.Fatalf("all = %+v, %v", decided, err)
			}
			d, err := ByOrderNo(ctx, db.Reader, "D1")
			if err != nil || d.Status != events.ReviewApproved || d.ReviewedBy != "ops:ops" || d.Account != "0912345678" || !d.Amount.Equal(projtest.Dec("5000")) {
				t.Fatalf("D1 = %+v, %v", d, err)
			}
			d, err = ByOrderNo(ctx, db.Reader, "D2")
			if err != nil || d.Status != events.ReviewRejected || d.Remark != "blurry proof" || !d.Amount.Equal(projtest.Dec("2500.5")) ||
				!d.UpdatedAt.After(d.CreatedAt) {
				t.Fatalf("D2 = %+v, %v", d, err)
			}
			if _, err := ByOrderNo(ctx, db.Reader, "nope"); !errors.Is(err, projections.ErrNotFound) {
				t.Fatalf("unknown deposit: %v", err)
			}
		}
		check()
		projtest.NoDiffs(t, r.Runner)
		if err := r.Rebuild(ctx, "review_queue", nil); err != nil {
			t.Fatal(err)
		}
		check()
	})
}

// TestDepositQueueOneByOne: the page fold (a decision in the same page as its request, an
// account registered in the same page) agrees with applying every event in its own page.
func TestDepositQueueOneByOne(t *testing.T) {
	e := projtest.SQLite(t)
	m := e.Register("0912345678")
	e.Deposit(m, "D1", "5000")
	e.RequestDeposit(m, "D2", "10")
	e.OneByOne(projector)
}
