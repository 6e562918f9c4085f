package api

import (
	"context"
	"testing"

	"github.com/google/uuid"

	"github.com/lotbook/lotbook/api/wire"
	"github.com/lotbook/lotbook/commands/lending/repair"
	"github.com/lotbook/lotbook/events"
)

// A crash between a lending's two steps, over HTTP on SQLite and PostgreSQL: the quota take of
// 2,000 shares of 2603 is in the log (appended as the first step wrote it) but its lending never
// followed. The desk shows the quota used and refuses a member's lending of the 2,000 shares
// left by it. The sweep leaves a take younger than its grace alone (a request may be finishing
// it); past the grace it closes the lending on the account and gives the quota back: the desk
// shows nothing used, the same member lends all 3,000 of the quota, and a second sweep changes
// nothing. Verify passes.
func TestLendingRepairGivesBackQuotaOfALendingThatNeverHappened(t *testing.T) {
	forEachBackend(t, func(t *testing.T, h *harness) {
		th, _ := lendingHolder(t, h, 3000)
		m := th.m
		used := func() int64 {
			t.Helper()
			var desk wire.LendingDesk
			h.ops.at("/api/vue/ops/lending", h.head(), &desk)
			return desk.Symbols[0].Used
		}
		// The crash: the first step's event, without its follower.
		const lendNo = "LD26030299999999999999"
		typ, data, err := events.Encode(events.LendingQuotaTaken{LendNo: lendNo, MemberID: events.MemberID(m.account), Shares: 2000, Quota: 3000})
		if err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		if _, err := h.st.Store.Append(ctx, events.LendingStream("2603"), events.AnyVersion, []events.EventData{{ID: uuid.New(), Type: typ,
			Data: data, Metadata: events.Metadata{CommandID: "crashed-lend", Actor: "member:" + m.account, ServerTime: h.clock.Now()}}}); err != nil {
			t.Fatal(err)
		}
		h.catchUp()
		if u := used(); u != 2000 {
			t.Fatalf("quota used after the crash %d", u)
		}
		want(t, m.lend("2603", 2000), 422, "lending_quota_full")

		proc := h.registered(repair.ProcessName).(*repair.Process)
		h.until("the sweep folded the take", func() bool { return proc.Position() >= h.head() })
		h.unchanged(func() {
			if err := proc.Sweep(ctx, h.clock.Now().Add(repair.Grace/2)); err != nil {
				t.Fatal(err)
			}
		})
		if err := proc.Sweep(ctx, h.clock.Now().Add(repair.Grace)); err != nil {
			t.Fatal(err)
		}
		h.catchUp()
		if u := used(); u != 0 {
			t.Fatalf("quota used after the repair %d", u)
		}
		h.until("the sweep folded the release", func() bool { return proc.Position() >= h.head() })
		h.unchanged(func() {
			if err := proc.Sweep(ctx, h.clock.Now().Add(2*repair.Grace)); err != nil {
				t.Fatal(err)
			}
		})
		want(t, m.lend("2603", 3000), 200, "stock_lent")
		if u := used(); u != 3000 {
			t.Fatalf("quota used after lending all of it %d", u)
		}
		h.verify()
	})
}
