package api

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/lotbook/lotbook/api/wire"
)

// Chip grabbing over HTTP on SQLite and PostgreSQL: refused claims take no quota; 50 members
// claiming the last 10 lots at once get exactly 10 lots between them; the allotment fills each
// paid claim into a holding once. The harness checks the ledger and the read models after it.
func TestChipGrabScenario(t *testing.T) {
	forEachBackend(t, func(t *testing.T, h *harness) {
		th := newTradeHarness(t, h, "")
		th.mkt.book("2884", "31", "31", lvls("30.95", 50000), lvls("31", 50000))
		now := h.clock.Now()
		offer := map[string]any{"symbol": "2884", "price": "31", "quotaLots": 12, "maxLotsPerMember": 2,
			"opensAt": now.Add(-time.Minute), "closesAt": now.Add(24 * time.Hour)}
		h.unchanged(func() {
			bad := func(k string, v any) map[string]any {
				b := map[string]any{}
				for kk, vv := range offer {
					b[kk] = vv
				}
				b[k] = v
				return b
			}
			want(t, h.ops.post("/api/vue/ops/chipgrab", bad("price", "35")), 422, "price_out_of_band")
			want(t, h.ops.post("/api/vue/ops/chipgrab", bad("price", "31.001")), 400, "price_invalid")
			want(t, h.ops.post("/api/vue/ops/chipgrab", bad("maxLotsPerMember", 13)), 400, "lots_invalid")
		})
		a := h.ops.post("/api/vue/ops/chipgrab", offer)
		want(t, a, 200, "ok")
		var offered wire.ChipGrabAllotResult
		a.data(t, &offered)
		claim := "/api/vue/chipgrab/" + offered.OfferingId + "/claim"
		remaining := func(want int64) {
			t.Helper()
			var os []wire.ChipGrabOffering
			h.ops.at("/api/vue/ops/chipgrab", h.head(), &os)
			if len(os) != 1 || os[0].RemainingLots != want {
				t.Fatalf("offerings %+v, want %d lots left", os, want)
			}
		}

		// Refused claims change nothing, and take no quota.
		poor := h.register(fmt.Sprintf("09%08d", 70000000+int(imageSizes.Add(1))))
		poor.fund("10000")
		h.unchanged(func() {
			want(t, poor.post(claim, map[string]any{"lots": 0}), 400, "lots_invalid")
			want(t, poor.post(claim, map[string]any{"lots": "1"}), 400, "invalid_request")
			want(t, poor.post("/api/vue/chipgrab/"+uuid.NewString()+"/claim", map[string]any{"lots": 1}), 404, "chipgrab_not_found")
			want(t, poor.post(claim, map[string]any{"lots": 1}), 422, "insufficient_balance")
		})
		remaining(12)

		// 2 lots at 31: 62,000 and commission 88 (88.35) frozen; the member's cap is 2.
		first := h.register(fmt.Sprintf("09%08d", 70000000+int(imageSizes.Add(1))))
		first.fund("100000")
		a = first.post(claim, map[string]any{"lots": 2})
		want(t, a, 200, "chipgrab_claimed")
		var mine wire.ChipGrabClaimResult
		a.data(t, &mine)
		if mine.Status != wire.ChipGrabClaimStatusFrozen || mine.Lots != 2 {
			t.Fatalf("claim %+v", mine)
		}
		first.wantCash(mine.Position, "37912.00", "62088.00")
		h.unchanged(func() { want(t, first.post(claim, map[string]any{"lots": 1}), 422, "quota_member_cap") })
		remaining(10)

		// Ops' list of the offering's claims names each claimant: account, and the verified name.
		first.verify(twID(int(imageSizes.Add(1))))
		var opsList wire.ChipGrabClaimPage
		h.ops.at("/api/vue/ops/chipgrab/"+offered.OfferingId+"/claims", h.head(), &opsList)
		if it := opsList.Items; len(it) != 1 || it[0].OrderNo != mine.OrderNo || it[0].Account == nil || *it[0].Account != first.account ||
			it[0].MemberName == nil || *it[0].MemberName != "王小明" {
			t.Fatalf("ops claims %+v", it)
		}
		want(t, first.get("/api/vue/ops/chipgrab/"+offered.OfferingId+"/claims"), 403, "forbidden")

		// 50 members at once for the last 10 lots.
		members := make([]*client, 50)
		for i := range members {
			members[i] = h.register(fmt.Sprintf("09%08d", 70000000+int(imageSizes.Add(1))))
			members[i].fund("100000")
		}
		answers := make([]answer, len(members))
		var wg sync.WaitGroup
		start := make(chan struct{})
		for i, m := range members {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				answers[i] = m.post(claim, map[string]any{"lots": 1})
			}()
		}
		close(start)
		wg.Wait()
		var won []*client
		for i, a := range answers {
			switch {
			case a.code == 200 && a.Msg == "chipgrab_claimed":
				won = append(won, members[i])
			case a.code == 422 && a.Msg == "quota_insufficient":
			default:
				t.Fatalf("claim answered %s", a)
			}
		}
		if len(won) != 10 {
			t.Fatalf("%d members got a lot of the last 10", len(won))
		}
		remaining(0)
		for _, m := range won {
			m.wantCash(h.head(), "68956.00", "31044.00") // 31,000 and commission 44 (44.175)
		}

		// The allotment fills every paid claim once, into a holding.
		want(t, h.ops.post("/api/vue/ops/chipgrab/"+offered.OfferingId+"/allot", map[string]any{}), 200, "ok")
		h.unchanged(func() {
			a := h.ops.post("/api/vue/ops/chipgrab/"+offered.OfferingId+"/allot", map[string]any{})
			want(t, a, 200, "ok")
			var r wire.ChipGrabAllotResult
			a.data(t, &r)
			if r.Lots != 12 {
				t.Fatalf("allotted %+v", r)
			}
			want(t, members[0].post(claim, map[string]any{"lots": 1}), 422, "chipgrab_closed")
		})
		first.wantCash(h.head(), "37912.00", "0.00")
		var claims wire.ChipGrabClaimPage
		first.at("/api/vue/chipgrab/claims", h.head(), &claims)
		if len(claims.Items) != 1 || claims.Items[0].Status != wire.ChipGrabClaimStatusAllotted || claims.Items[0].Amount != "62088.00" {
			t.Fatalf("claims %+v", claims)
		}
		if p := first.positionNamed(mine.OrderNo).Position; p.Status != wire.PositionHolding || p.Shares != 2000 || p.EntryPrice != "31.00" {
			t.Fatalf("holding %+v", p)
		}
		for _, m := range won {
			var ps wire.TradePositionPage
			m.at("/api/vue/trade/positions?status=holding", h.head(), &ps)
			if len(ps.Items) != 1 || ps.Items[0].Shares != 1000 || ps.Items[0].Symbol != "2884" {
				t.Fatalf("a winner's holdings %+v", ps)
			}
		}
		var poorClaims wire.ChipGrabClaimPage
		poor.at("/api/vue/chipgrab/claims", h.head(), &poorClaims)
		if len(poorClaims.Items) != 0 {
			t.Fatalf("a refused claim was recorded: %+v", poorClaims)
		}
	})
}
