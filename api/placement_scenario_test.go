package api

import (
	"testing"
	"time"

	"github.com/lotbook/lotbook/api/wire"
	"github.com/lotbook/lotbook/commands/rules/draw"
)

// placementRecord is m's application to a placement.
func (c *client) placementRecord() wire.PlacementApplication {
	c.h.t.Helper()
	var as []wire.PlacementApplication
	c.at("/api/vue/placement/records", c.h.head(), &as)
	if len(as) != 1 {
		c.h.t.Fatalf("placement records %+v", as)
	}
	return as[0]
}

// TestPlacement walks a placement over HTTP: ops offer one lot (bad offers refused); three members
// apply for a lot each (the cap, bad input and no funds refused); ops cannot allot before the
// window closes, then ask once; the rule allots 1,000 shares pro rata, 333 each, and the share
// left to the application the revealed seed draws (the auditor re-runs it); each pays its shares
// from the frozen amount and gets the rest back; on the listing date the shares are a holding.
func TestPlacement(t *testing.T) {
	forEachBackend(t, func(t *testing.T, h *harness) {
		form := map[string]any{"symbol": "1295", "price": "88", "lots": 1, "maxLotsPerMember": 1,
			"opensAt": "2026-03-02T01:00:00Z", "closesAt": "2026-03-03T06:00:00Z", "listingDate": "2026-03-09"}
		h.refusedForms("/api/vue/ops/placement/placements", form, []badField{
			{"price", "0", 400, "price_invalid"},
			{"maxLotsPerMember", 2, 400, "quantity_invalid"},
			{"listingDate", "2026-03-02", 400, "offering_dates_invalid"},
			{"closesAt", "2026-03-01T06:00:00Z", 400, "offering_dates_invalid"},
			{"symbol", "9999999", 404, "symbol_not_found"},
		})
		a := h.ops.post("/api/vue/ops/placement/placements", form)
		want(t, a, 200, "ok")
		var offered wire.OfferingListedResult
		a.data(t, &offered)
		id := offered.Id
		apply := "/api/vue/placement/placements/" + id + "/apply"
		ms := []*client{h.auctionMember(true, "100000"), h.auctionMember(true, "100000"), h.auctionMember(true, "100000")}
		poor := h.auctionMember(true, "")
		h.refused(422, "offering_cap_exceeded", func() answer { return ms[0].post(apply, map[string]any{"lots": 2}) })
		h.refused(400, "quantity_required", func() answer { return ms[0].post(apply, map[string]any{"lots": 0}) })
		h.refused(400, "invalid_request", func() answer { return ms[0].post(apply, map[string]any{"lots": 1, "price": "1"}) })
		h.refused(422, "insufficient_balance", func() answer { return poor.post(apply, map[string]any{"lots": 1}) })
		for _, m := range ms {
			a := m.post(apply, map[string]any{"lots": 1})
			want(t, a, 200, "ok")
			var r wire.PlacementApplyResult
			a.data(t, &r)
			if r.Frozen != "88000.00" || r.Available != "12000.00" {
				t.Fatalf("applied %+v", r)
			}
		}
		h.refused(422, "offering_cap_exceeded", func() answer { return ms[0].post(apply, map[string]any{"lots": 1}) })
		allot := "/api/vue/ops/placement/placements/" + id + "/allot"
		h.refused(422, "offering_not_closed", func() answer { return h.ops.post(allot, map[string]any{}) })
		want(t, ms[0].post(allot, map[string]any{}), 403, "forbidden")

		h.clock.Advance(28 * time.Hour) // Tuesday 14:00: the window closes
		h.refused(422, "offering_closed", func() answer { return poor.post(apply, map[string]any{"lots": 1}) })
		want(t, h.ops.post(allot, map[string]any{}), 200, "ok")
		h.refused(422, "placement_allotment_requested", func() answer { return h.ops.post(allot, map[string]any{}) })
		h.ticking("the allotment and settlement", func() bool {
			var as []wire.PlacementApplication
			h.ops.at("/api/vue/ops/placement/placements/"+id+"/applications", h.head(), &as)
			for _, x := range as {
				if x.State == wire.PlacementApplied {
					return false
				}
			}
			return len(as) == 3
		})
		// Ops see who applied: each application with the member's account (phone) and name.
		var as []wire.PlacementApplication
		h.ops.at("/api/vue/ops/placement/placements/"+id+"/applications", h.head(), &as)
		for _, x := range as {
			if x.Member == nil || x.Member.Name != "王小明" || len(x.Member.Account) != 10 {
				t.Fatalf("ops application %+v", x)
			}
		}
		var check wire.OfferingCheck
		h.aud.at("/api/vue/audit/placement/placements/"+id+"/allotment", h.head(), &check)
		if !check.Verified || len(check.Entries) != 3 || len(check.Grants) != 3 {
			t.Fatalf("allotment check %+v", check)
		}
		nos := []string{check.Entries[0].No, check.Entries[1].No, check.Entries[2].No}
		lucky, err := draw.Winners(check.Seed, nos, 1)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range ms {
			r := m.placementRecord()
			shares, cost, available := int64(333), "29304.00", "70696.00" // 88 × 333; 100,000 less it
			if r.ApplicationNo == lucky[0] {
				shares, cost, available = 334, "29392.00", "70608.00"
			}
			if r.State != wire.PlacementAllotted || r.Allotted != shares || r.Cost != cost {
				t.Fatalf("application %+v, want %d shares for %s", r, shares, cost)
			}
			m.wantCash(h.head(), available, "0.00")
		}
		lines := map[wire.FundRecordType]string{}
		for _, r := range ms[0].records("all", h.head()).Items {
			lines[r.Type] = r.Amount
		}
		if lines[wire.PlacementFreeze] != "-88000.00" || lines[wire.PlacementPayment] == "" || lines[wire.PlacementRefund] == "" {
			t.Fatalf("fund records %+v", lines)
		}
		no := ms[0].placementRecord().ApplicationNo
		want(t, ms[0].post("/api/vue/trade/positions/"+no+"/close", map[string]any{"type": "market"}), 422, "not_yet_listing_time")

		h.clock.Advance(6*24*time.Hour - 14*time.Hour - time.Minute) // Sunday 23:59
		h.ticking("the delivery", func() bool { return ms[0].placementRecord().State == wire.PlacementDelivered })
		pos := ms[0].positionNamed(no)
		if p := pos.Position; p.Status != wire.PositionHolding || p.Shares != ms[0].placementRecord().Allotted || p.Symbol != "1295" {
			t.Fatalf("delivered position %+v", pos)
		}
	})
}
