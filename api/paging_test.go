package api

import (
	"fmt"
	"math"
	"testing"

	"github.com/lotbook/lotbook/api/wire"
	"github.com/lotbook/lotbook/projections"
)

// A page past the deepest one the server reads is refused with 400 on every list, on every
// backend: no query runs with an offset that overflowed (PostgreSQL answered 500, SQLite quietly
// served page 1).
func TestPagingIsBounded(t *testing.T) {
	forEachBackend(t, func(t *testing.T, h *harness) {
		m := h.register("0912345678")
		lists := []struct {
			c    *client
			path string
		}{
			{m, "/api/vue/funds/records"},
			{m, "/api/vue/trade/orders"},
			{m, "/api/vue/trade/positions"},
			{m, "/api/vue/trade/notices"},
			{h.ops, "/api/vue/ops/deposits"},
			{h.ops, "/api/vue/ops/withdrawals"},
			{h.ops, "/api/vue/ops/realname"},
			{h.ops, "/api/vue/ops/members"},
			{h.anon(), "/api/vue/market/stocks"},
		}
		overflow := []string{
			fmt.Sprint(math.MaxInt64),
			fmt.Sprint(math.MaxInt64/20 + 2), // (page-1)*20 wraps to a negative offset
			fmt.Sprint(math.MaxInt64/100 + 2),
			"1152921504606846977",  // (page-1)*16 wraps to exactly 0: page 1 again
			"99999999999999999999", // beyond int64
		}
		for _, l := range lists {
			for _, size := range []int{20, 16, 100} {
				for _, p := range append(overflow, fmt.Sprint(projections.MaxPage(size)+1)) {
					want(t, l.c.get(fmt.Sprintf("%s?page=%s&size=%d", l.path, p, size)), 400, "page_out_of_range")
				}
			}
		}
		// Counts are plain digits: no sign, no space, no exponent.
		for _, q := range []string{"page=+2", "page=%202", "page=2%20", "page=1e1", "size=+20", "size=020.0"} {
			want(t, m.get("/api/vue/funds/records?"+q), 400, "invalid_request")
			want(t, h.anon().get("/api/vue/market/stocks?"+q), 400, "invalid_request")
		}
		h.anon().getOK("/api/vue/market/stocks/2330/candles?interval=1d&limit=5", new(wire.CandlePage))
		want(t, h.anon().get("/api/vue/market/stocks/2330/candles?interval=1d&limit=+5"), 400, "invalid_request")
		// The deepest page is still served (empty here, so no more after it), except on the
		// market list, whose page count is known.
		for _, l := range lists[:len(lists)-1] {
			var p struct {
				Items   []map[string]any `json:"items"`
				Page    int              `json:"page"`
				HasMore bool             `json:"hasMore"`
				Ratio   string           `json:"ratio"`
			}
			l.c.getOK(fmt.Sprintf("%s?page=%d", l.path, projections.MaxPage(20)), &p)
			if len(p.Items) != 0 || p.HasMore || p.Page != projections.MaxPage(20) {
				t.Errorf("%s last page: %+v", l.path, p)
			}
		}
	})
}
