package api

import (
	"context"
	"fmt"
	"strconv"
	"testing"
	"time"

	"github.com/lotbook/lotbook/api/httpx"
	"github.com/lotbook/lotbook/api/wire"
	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/projections/audit"
)

// The auditor's timeline is served in keyset pages by log position, and every page's running
// balances equal the replay of the whole log, whether the page follows one the server just served
// or starts at a cursor it never handed out. A malformed cursor or size is refused.
func TestTimelinePagesByPosition(t *testing.T) {
	forEachBackend(t, func(t *testing.T, h *harness) {
		h.withdrawals()
		m, card := h.ready("0912345678", "A123456789", "0123456789012", "5000")
		other := h.register("0922222222") // its events interleave: positions are sparse
		for i := range 16 {
			a := m.withdraw("100", card, "123456")
			want(t, a, 200, "ok")
			var o wire.OrderResult
			a.data(t, &o)
			h.clock.Advance(31 * time.Second)
			decision := "/approve"
			if i%2 == 1 {
				decision = "/reject"
			}
			want(t, h.ops.post("/api/vue/ops/withdrawals/"+o.OrderNo+decision, map[string]string{"remark": "checked"}), 200, "ok")
			h.login(m.account, "secret123")
			h.login(other.account, "secret123")
		}
		h.catchUp()
		replay, err := audit.Timeline(context.Background(), h.st.Store, events.MemberID(m.account))
		if err != nil {
			t.Fatal(err)
		}
		if len(replay) <= 50 {
			t.Fatalf("the member has %d events, want more than one default page", len(replay))
		}
		path := "/api/vue/audit/accounts/" + m.account + "/timeline"
		// same checks a page against the replay from index from on.
		same := func(p wire.Timeline, from int) {
			t.Helper()
			for i, e := range p.Items {
				r := replay[from+i]
				if e.Position != r.Position || e.Type != r.Type || len(e.Balances) != len(r.Balances) || e.Lines == nil || len(*e.Lines) != len(r.Lines) {
					t.Fatalf("item %d: %d %s, replay %d %s", from+i, e.Position, e.Type, r.Position, r.Type)
				}
				for cur, b := range r.Balances {
					if got := e.Balances[cur]; got.Available != httpx.Money(b.Available) || got.Frozen != httpx.Money(b.Frozen) {
						t.Fatalf("item %d at %d: %s %+v, replay %s %s", from+i, e.Position, cur, got, b.Available, b.Frozen)
					}
				}
			}
		}

		var first wire.Timeline
		h.aud.getOK(path, &first)
		if len(first.Items) != 50 || first.NextCursor == nil || *first.NextCursor != strconv.FormatInt(replay[49].Position, 10) {
			t.Fatalf("default page: %d items, next %v", len(first.Items), first.NextCursor)
		}
		same(first, 0)
		// Each event's money lines as it labels them: a withdrawal adds its line, the decision
		// changes that line's status.
		var request, decided *wire.TimelineLine
		for _, e := range first.Items {
			for _, l := range *e.Lines {
				switch {
				case request == nil && l.Type == "withdraw":
					request = &l
				case request != nil && decided == nil && l.Key == request.Key && l.Type == "":
					decided = &l
				}
			}
		}
		if request == nil || request.Amount != "100" || request.Asset != "TWD" || request.Status != events.ReviewPending || request.Key == "" ||
			decided == nil || decided.Status != events.ReviewApproved || decided.Remark != "checked" {
			t.Fatalf("withdrawal lines %+v then %+v", request, decided)
		}

		const size = 7
		seen, cursor := 0, ""
		for pages := 0; ; pages++ {
			var p wire.Timeline
			h.aud.getOK(fmt.Sprintf("%s?size=%d%s", path, size, cursor), &p)
			same(p, seen)
			seen += len(p.Items)
			if p.NextCursor == nil {
				break
			}
			if len(p.Items) != size || pages > len(replay) {
				t.Fatalf("page %d: %d items with a next cursor", pages, len(p.Items))
			}
			cursor = "&cursor=" + *p.NextCursor
		}
		if seen != len(replay) {
			t.Fatalf("paged %d events, replay has %d", seen, len(replay))
		}
		// A cursor the server never handed out (mid-page, or another member's position) folds the
		// postings before it.
		gaps := 0
		for _, at := range []int{3, 17, 30, len(replay) - 2} {
			cursors := []int64{replay[at].Position}
			if between := replay[at+1].Position - 1; between > replay[at].Position {
				cursors = append(cursors, between)
				gaps++
			}
			for _, c := range cursors {
				var p wire.Timeline
				h.aud.getOK(fmt.Sprintf("%s?size=5&cursor=%d", path, c), &p)
				if len(p.Items) == 0 {
					t.Fatalf("nothing after %d", c)
				}
				same(p, at+1)
			}
		}
		if gaps == 0 {
			t.Fatal("no other member's position between the member's events")
		}
		var end wire.Timeline
		h.aud.getOK(fmt.Sprintf("%s?cursor=%d", path, h.head()), &end)
		if len(end.Items) != 0 || end.NextCursor != nil {
			t.Fatalf("after the head: %+v", end)
		}

		for _, q := range []string{
			"cursor=", "cursor=-1", "cursor=+5", "cursor=%205", "cursor=5%20", "cursor=1e3", "cursor=abc", "cursor=0x10",
			"cursor=99999999999999999999", "cursor=" + strconv.FormatInt(h.head()+1, 10),
			"size=0", "size=201", "size=-1", "size=+5", "size=5.0", "size=",
		} {
			h.refused(400, "invalid_request", func() answer { return h.aud.get(path + "?" + q) })
		}
		var max wire.Timeline
		h.aud.getOK(path+"?size=200", &max)
		if len(max.Items) != len(replay) || max.NextCursor != nil {
			t.Fatalf("size 200: %d items, next %v", len(max.Items), max.NextCursor)
		}
	})
}
