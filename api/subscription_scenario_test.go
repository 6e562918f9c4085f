package api

import (
	"maps"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/lotbook/lotbook/api/wire"
	"github.com/lotbook/lotbook/commands/rules/identity"
)

// twID is the n-th valid Taiwan ID number of the tests (check digit computed).
func twID(n int) string {
	base := "B1" + strconv.Itoa(1000000 + n)[1:] // B1 + 6 digits... padded below to 8 digits after the letter
	for len(base) < 9 {
		base += "0"
	}
	for d := 0; d <= 9; d++ {
		if id := base + strconv.Itoa(d); identity.ValidTaiwanID(id) {
			return id
		}
	}
	panic("no check digit")
}

// issueOf reads an issue as m sees it.
func (c *client) issueOf(id string) wire.SubscriptionIssueDetail {
	c.h.t.Helper()
	var d wire.SubscriptionIssueDetail
	c.at("/api/vue/subscription/issues/"+id, c.h.head(), &d)
	return d
}

// until polls cond (the calendar runs its steps once a second) for at most 60 s: a loaded CI
// machine may take many seconds per step.
func (h *harness) until(what string, cond func() bool) {
	h.t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			h.t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// TestSubscriptionLottery walks an issue through its calendar over HTTP: ops list it; 50 members
// apply at once (one twice, one without funds, one not verified); the draw reveals the committed
// seed and the auditor reproduces it; winners pay on the deduction day except one short of the
// postage, who is unpaid and then waived; losers get all but the fee back; on the listing date the
// paid winners hold the shares and can sell them. The harness then proves the ledger.
func TestSubscriptionLottery(t *testing.T) {
	forEachBackend(t, func(t *testing.T, h *harness) {
		th := newTradeHarness(t, h, "")
		// Monday 2 March 2026 10:00 Taipei: the window opened at 09:00 and closes Tuesday 14:00.
		form := map[string]any{"symbol": "1295", "price": "50", "referencePrice": "72.5", "lots": 10, "unitLots": 1,
			"opensAt": "2026-03-02T01:00:00Z", "closesAt": "2026-03-03T06:00:00Z", "drawDate": "2026-03-04",
			"deductionDate": "2026-03-05", "refundDate": "2026-03-06", "listingDate": "2026-03-09", "pe": "18.4", "industryPe": "25.1"}
		// Bad listings change nothing.
		h.refusedForms("/api/vue/ops/subscription/issues", form, []badField{
			{"price", "50.001", 400, "price_invalid"},
			{"price", "-50", 400, "price_invalid"},
			{"lots", 0, 400, "quantity_invalid"},
			{"drawDate", "2026-03-02", 400, "subscription_calendar_invalid"},
			{"listingDate", "2026-03-05", 400, "subscription_calendar_invalid"},
			{"symbol", "9999999", 404, "symbol_not_found"},
			{"lots", "10", 400, "invalid_request"},
		})
		a := h.ops.post("/api/vue/ops/subscription/issues", form)
		want(t, a, 200, "ok")
		var listed wire.SubscriptionIssueListedResult
		a.data(t, &listed)
		if listed.IssueId != "1295-20260302" || len(listed.Commitment) != 64 {
			t.Fatalf("listed %+v", listed)
		}
		want(t, h.ops.post("/api/vue/ops/subscription/issues", form), 422, "subscription_issue_exists")
		// An issue whose window opens next week.
		later := maps.Clone(form)
		later["opensAt"], later["closesAt"], later["drawDate"], later["deductionDate"], later["refundDate"], later["listingDate"] =
			"2026-03-09T01:00:00Z", "2026-03-10T06:00:00Z", "2026-03-11", "2026-03-12", "2026-03-13", "2026-03-16"
		want(t, h.ops.post("/api/vue/ops/subscription/issues", later), 200, "ok")
		id := listed.IssueId

		// 50 members: 48 verified with the price and fee (50,020), one verified with nothing, one
		// not verified.
		members := make([]*client, 50)
		for i := range members {
			m := h.register("09" + strconv.Itoa(40000000+int(imageSizes.Add(1))))
			if i != 49 {
				m.verify(twID(int(imageSizes.Add(1))))
			}
			if i != 47 {
				m.fund("50020")
			}
			members[i] = m
		}
		m0 := members[0]
		var issues []wire.SubscriptionIssue
		m0.at("/api/vue/subscription/issues", h.head(), &issues)
		if len(issues) != 2 || issues[0].State != wire.NotStarted || issues[1].State != wire.ToSubscribe || issues[1].Amount != "50020.00" {
			t.Fatalf("issues %+v", issues)
		}
		// Bad input changes nothing.
		apply := "/api/vue/subscription/issues/" + id + "/apply"
		h.refused(400, "quantity_invalid", func() answer { return m0.post(apply, map[string]any{"lots": 2}) })
		h.refused(400, "quantity_required", func() answer { return m0.post(apply, map[string]any{"lots": 0}) })
		h.refused(400, "invalid_request", func() answer { return m0.post(apply, map[string]any{"lots": 1.5}) })
		h.refused(400, "invalid_request", func() answer { return m0.post(apply, map[string]any{"lots": "1"}) })
		h.refused(400, "invalid_request", func() answer { return m0.post(apply, map[string]any{"lots": 1, "price": "1"}) })
		h.refused(404, "not_found", func() answer {
			return m0.post("/api/vue/subscription/issues/1295-20990101/apply", map[string]any{"lots": 1})
		})
		h.refused(404, "not_found", func() answer { return m0.post("/api/vue/subscription/issues/..%2f/apply", map[string]any{"lots": 1}) })
		h.refused(422, "subscription_not_started", func() answer {
			return m0.post("/api/vue/subscription/issues/1295-20260309/apply", map[string]any{"lots": 1})
		})

		// All at once, member 48 twice under two keys.
		type result struct {
			i   int
			ans answer
		}
		results := make(chan result, 51)
		var wg sync.WaitGroup
		for i, m := range members {
			wg.Go(func() { results <- result{i, m.postKey(apply, uuid.NewString(), map[string]any{"lots": 1})} })
		}
		wg.Go(func() { results <- result{48, members[48].postKey(apply, uuid.NewString(), map[string]any{"lots": 1})} })
		wg.Wait()
		close(results)
		repeats, ok48 := 0, 0
		for r := range results {
			switch {
			case r.i == 47:
				want(t, r.ans, 422, "insufficient_balance")
			case r.i == 49:
				want(t, r.ans, 422, "subscription_channel_not_open")
			case r.i == 48 && r.ans.Msg == "subscription_repeated":
				repeats++
			default:
				want(t, r.ans, 200, "ok")
				var res wire.SubscriptionApplyResult
				r.ans.data(t, &res)
				if res.Available != "0.00" || res.Frozen != "50020.00" {
					t.Fatalf("member %d after applying: %+v", r.i, res)
				}
				if r.i == 48 {
					ok48++
				}
			}
		}
		if repeats != 1 || ok48 != 1 {
			t.Fatalf("member 48 applied %d times and was refused as a repeat %d times", ok48, repeats)
		}
		// The same key again is the same answer, applied once.
		key := uuid.NewString()
		want(t, members[0].postKey(apply, key, map[string]any{"lots": 1}), 422, "subscription_repeated")

		d := m0.issueOf(id)
		if d.Issue.Applications != 48 || d.Application == nil || d.Application.State != wire.AllotmentStateWaitingForDraw || d.Issue.Seed != "" {
			t.Fatalf("detail %+v", d)
		}
		// The window closes.
		h.clock.Advance(28 * time.Hour) // Tuesday 14:00
		want(t, members[47].post(apply, map[string]any{"lots": 1}), 422, "subscription_closed")

		// Wednesday 08:00: the draw.
		h.clock.Advance(18 * time.Hour)
		h.until("the draw", func() bool { return m0.issueOf(id).Issue.Drawn })
		var check wire.SubscriptionDrawCheck
		h.aud.at("/api/vue/audit/subscription/issues/"+id+"/draw", h.head(), &check)
		if !check.Verified || len(check.Winners) != 10 || len(check.Applications) != 48 || check.Commitment != listed.Commitment {
			t.Fatalf("draw check %+v", check)
		}
		want(t, m0.get("/api/vue/audit/subscription/issues/"+id+"/draw"), 403, "forbidden")
		// Ops see who applied: each application with the member's account (phone) and name.
		var apps []wire.SubscriptionApplication
		h.ops.at("/api/vue/ops/subscription/issues/"+id+"/applications", h.head(), &apps)
		accounts := map[string]bool{}
		for _, a := range apps {
			if a.Member == nil || a.Member.Name != "王小明" {
				t.Fatalf("ops application %+v", a)
			}
			accounts[a.Member.Account] = true
		}
		if len(apps) != 48 || len(accounts) != 48 || !accounts[m0.account] {
			t.Fatalf("ops applications of %d members, %d listed", len(accounts), len(apps))
		}
		if mine := m0.issueOf(id).Application; mine.Member != nil {
			t.Fatalf("a member's own application names its member: %+v", mine.Member)
		}
		var winners, losers []*client
		for i, m := range members {
			if i == 47 || i == 49 {
				continue
			}
			a := m.issueOf(id).Application
			switch a.Result {
			case wire.SubscriptionApplicationResultWon:
				if a.State != wire.AllotmentStateWon {
					t.Fatalf("winner's state %s", a.State)
				}
				winners = append(winners, m)
			case wire.SubscriptionApplicationResultNotWon:
				losers = append(losers, m)
			default:
				t.Fatalf("application after the draw %+v", a)
			}
		}
		if len(winners) != 10 || len(losers) != 38 {
			t.Fatalf("%d winners, %d losers", len(winners), len(losers))
		}
		// Wednesday 10:00: every winner but the first brings the postage.
		h.clock.Advance(2 * time.Hour)
		for _, w := range winners[1:] {
			w.fund("1000")
		}
		short := winners[0]
		// Thursday 08:00: the deduction.
		h.clock.Advance(22 * time.Hour)
		h.until("the deduction", func() bool {
			for _, w := range winners {
				if s := w.issueOf(id).Application.State; s != wire.AllotmentStatePaymentCompleted && s != wire.AllotmentStateUnpaid {
					if s != wire.AllotmentStatePendingPayment {
						t.Fatalf("winner on the deduction day: %s", s)
					}
					return false
				}
			}
			return true
		})
		if s := short.issueOf(id).Application.State; s != wire.AllotmentStateUnpaid {
			t.Fatalf("the short winner is %s", s)
		}
		paid := winners[1]
		paid.wantCash(h.head(), "950.00", "0.00") // 1,000 less the postage; the price and fee paid from frozen
		// Selling allotted shares before the listing date.
		appNo := paid.issueOf(id).Application.ApplicationNo
		want(t, paid.post("/api/vue/trade/positions/"+appNo+"/close", map[string]any{"type": "market"}), 422, "not_yet_listing_time")

		// Friday 08:00: refunds, and the short winner waived.
		h.clock.Advance(24 * time.Hour)
		h.until("the refunds", func() bool {
			return short.issueOf(id).Application.State == wire.AllotmentStateWaived && losers[len(losers)-1].issueOf(id).Application.Refunded == "50000.00"
		})
		short.wantCash(h.head(), "50000.00", "0.00")
		loser := losers[0]
		h.until("a loser's refund", func() bool { return loser.issueOf(id).Application.Refunded == "50000.00" })
		loser.wantCash(h.head(), "50000.00", "0.00")
		recs := loser.records("all", h.head())
		lines := map[wire.FundRecordType]string{}
		for _, r := range recs.Items {
			lines[r.Type] = r.Amount
		}
		if lines[wire.SubscriptionFreeze] != "-50020.00" || lines[wire.SubscriptionRefund] != "50000.00" || lines[wire.SubscriptionFee] != "-20.00" {
			t.Fatalf("loser's fund records %+v", recs.Items)
		}

		// Monday 9 March 08:00: the listing. The paid winners hold 1,000 shares each and can sell.
		h.clock.Advance(72 * time.Hour)
		h.until("the allotment", func() bool { return paid.issueOf(id).Application.Allotted == 1000 })
		pos := paid.positionNamed(appNo)
		if p := pos.Position; p.Status != wire.PositionHolding || p.Shares != 1000 || p.Symbol != "1295" {
			t.Fatalf("allotted position %+v", pos)
		}
		if a := short.issueOf(id).Application; a.Allotted != 0 {
			t.Fatalf("the waived winner was allotted %+v", a)
		}
		th.mkt.book("1295", "72.5", "73", lvls("73", 5000), lvls("73.5", 5000))
		a = paid.post("/api/vue/trade/positions/"+appNo+"/close", map[string]any{"type": "market"})
		want(t, a, 200, "close_submitted")
		var sold wire.TradeResult
		a.data(t, &sold)
		if sold.Status != wire.TradeOrderStatusFilled || sold.Filled != 1000 {
			t.Fatalf("sale %+v", sold)
		}
		// 73,000 less commission 104 (104.025) and tax 219: 72,677, plus the 950 left.
		paid.wantCash(sold.Position, "73627.00", "0.00")
	})
}
