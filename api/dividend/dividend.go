// Package dividend is the dividend capability's HTTP side: the market's ex-dividend and
// ex-rights calendar, one instrument's history and yield, the high-yield list (computed from the
// market's schedule and prices), and the member's receipts (the journal's dividend lines).
package dividend

import (
	"cmp"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	openapi_types "github.com/oapi-codegen/runtime/types"

	// The dividend payout process manager registers itself (process.Register) when linked in.
	_ "github.com/lotbook/lotbook/commands/dividend/payout"

	"github.com/lotbook/lotbook/api/httpx"
	"github.com/lotbook/lotbook/api/wire"
	rule "github.com/lotbook/lotbook/commands/rules/dividend"
	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/market"
	"github.com/lotbook/lotbook/market/calendar"
	"github.com/lotbook/lotbook/projections"
)

// Module serves the dividend routes.
type Module struct {
	read *projections.ReadDB
	mkt  *market.Service
	now  func() time.Time
}

// New is the dividend module over the read models, the market and the server's clock.
func New(read *projections.ReadDB, mkt *market.Service, now func() time.Time) *Module {
	return &Module{read: read, mkt: mkt, now: now}
}

// Routes are the dividend operations of openapi.yaml.
func (m *Module) Routes() []httpx.Route {
	return []httpx.Route{
		httpx.Op(httpx.Member, "GET", "/api/vue/dividend/calendar", httpx.IdemNone, m.calendar),
		httpx.Op(httpx.Member, "GET", "/api/vue/dividend/info", httpx.IdemNone, m.info),
		httpx.Op(httpx.Member, "GET", "/api/vue/dividend/highYield", httpx.IdemNone, m.highYield),
		httpx.Op(httpx.Member, "GET", "/api/vue/dividend/receipts", httpx.IdemNone, m.receipts),
	}
}

var taipei = calendar.Taiwan().Location()

func today(now time.Time) time.Time {
	l := now.In(taipei)
	return time.Date(l.Year(), l.Month(), l.Day(), 0, 0, 0, 0, taipei)
}

func date(t time.Time) openapi_types.Date {
	return openapi_types.Date{Time: time.Date(t.In(taipei).Year(), t.In(taipei).Month(), t.In(taipei).Day(), 0, 0, 0, 0, time.UTC)}
}

// percent is a ÷ b in percent, two decimals (zero when b is not positive).
func percent(a, b decimal.Decimal) string {
	if !b.IsPositive() {
		return "0.00"
	}
	return a.Div(b).Shift(2).StringFixed(2)
}

func (m *Module) eventOut(d market.Dividend, now time.Time) wire.DividendEvent {
	out := wire.DividendEvent{Id: d.ID, Symbol: d.Symbol, Name: d.Symbol, Period: d.Period, Frequency: wire.DividendEventFrequency(d.Frequency),
		Cash: d.Cash.StringFixed(2), Stock: d.Stock.StringFixed(2), SharesPerLot: d.SharesPerLot().StringFixed(0),
		Announced: date(d.Announced), ExDate: date(d.ExDate), RecordDate: date(d.RecordDate), PayDate: date(d.PayDate),
		Price: "0.00", Yield: "0.00"}
	if in, err := m.mkt.Instrument(d.Symbol); err == nil {
		out.Name, out.NameEn = in.Name, &in.NameEN
	}
	if q, err := m.mkt.Quote(d.Symbol); err == nil {
		out.Price, out.Yield = httpx.Money(q.Price), percent(d.Cash, q.Price)
		if !d.ExDate.Before(today(now)) && q.PrevClose.IsPositive() {
			ref := httpx.Money(d.Reference(q.PrevClose))
			out.Reference = &ref
		}
	}
	return out
}

func (m *Module) calendar(c *httpx.Call) (httpx.Reply, error) {
	q := c.R.URL.Query()
	kind := cmp.Or(q.Get("kind"), "all")
	if kind != "all" && kind != "cash" && kind != "stock" {
		return httpx.Reply{}, httpx.InvalidRequest(fmt.Errorf("kind %q", kind))
	}
	days := 30
	if v := q.Get("days"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 120 {
			return httpx.Reply{}, httpx.InvalidRequest(fmt.Errorf("days %q", v))
		}
		days = n
	}
	past := false
	if v := q.Get("past"); v != "" {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return httpx.Reply{}, httpx.InvalidRequest(fmt.Errorf("past %q", v))
		}
		past = b
	}
	now := m.now()
	from, to := today(now), today(now).AddDate(0, 0, days)
	if past {
		from, to = today(now).AddDate(0, 0, -days), today(now)
	}
	ds := m.mkt.DividendsBetween(from, to)
	if past {
		slices.Reverse(ds)
	}
	out := make([]wire.DividendEvent, 0, len(ds))
	for _, d := range ds {
		if kind == "stock" && !d.HasStock() || kind == "cash" && !d.Cash.IsPositive() {
			continue
		}
		out = append(out, m.eventOut(d, now))
		if len(out) == 500 {
			break
		}
	}
	return httpx.OK(out)
}

// trailing is the cash per share of the symbol's dividends gone ex in the year before now.
func trailing(ds []market.Dividend, now time.Time) decimal.Decimal {
	sum := decimal.Zero
	for _, d := range ds {
		if d.ExDate.After(now.AddDate(-1, 0, 0)) && !d.ExDate.After(now) {
			sum = sum.Add(d.Cash)
		}
	}
	return sum
}

func (m *Module) info(c *httpx.Call) (httpx.Reply, error) {
	code := strings.ToUpper(strings.TrimSpace(c.R.URL.Query().Get("code")))
	if code == "" || len(code) > 12 {
		return httpx.Reply{}, httpx.InvalidRequest(errors.New("code"))
	}
	in, err := m.mkt.Instrument(code)
	if err != nil {
		return httpx.Reply{}, httpx.Refuse(http.StatusNotFound, wire.MessageKeyNotFound, err)
	}
	now := m.now()
	ds, err := m.mkt.Dividends(code, today(now).AddDate(-5, 0, 0), today(now).AddDate(1, 0, 0))
	if err != nil {
		return httpx.Reply{}, httpx.Refuse(http.StatusNotFound, wire.MessageKeyNotFound, err)
	}
	prof, _ := m.mkt.DividendProfile(code)
	out := wire.DividendInfo{Symbol: in.Symbol, Name: in.Name, NameEn: &in.NameEN, Pays: prof.Pays, Frequency: prof.Frequency,
		Price: "0.00", Items: make([]wire.DividendEvent, 0, len(ds))}
	cash := trailing(ds, now)
	out.TrailingCash, out.Yield = cash.StringFixed(2), "0.00"
	if q, err := m.mkt.Quote(code); err == nil {
		out.Price, out.Yield = httpx.Money(q.Price), percent(cash, q.Price)
	}
	for i := len(ds) - 1; i >= 0; i-- {
		// Ahead, only what is announced.
		if ds[i].Announced.After(now) {
			continue
		}
		out.Items = append(out.Items, m.eventOut(ds[i], now))
	}
	return httpx.OK(out)
}

func (m *Module) highYield(c *httpx.Call) (httpx.Reply, error) {
	now := m.now()
	ds := m.mkt.DividendsBetween(today(now).AddDate(-1, 0, 0), today(now).AddDate(0, 3, 0))
	bySymbol := map[string][]market.Dividend{}
	for _, d := range ds {
		bySymbol[d.Symbol] = append(bySymbol[d.Symbol], d)
	}
	out := make([]wire.DividendYield, 0, len(bySymbol))
	yields := map[string]decimal.Decimal{}
	for sym, list := range bySymbol {
		cash := trailing(list, now)
		q, err := m.mkt.Quote(sym)
		if err != nil || !cash.IsPositive() || !q.Price.IsPositive() {
			continue
		}
		y := cash.Div(q.Price)
		yields[sym] = y
		item := wire.DividendYield{Symbol: sym, Name: q.Name, NameEn: &q.NameEN, Price: httpx.Money(q.Price), TrailingCash: cash.StringFixed(2),
			Yield: y.Shift(2).StringFixed(2), Frequency: list[0].Frequency}
		for _, d := range list {
			if d.ExDate.After(now) {
				nd := date(d.ExDate)
				item.NextExDate = &nd
				break
			}
		}
		out = append(out, item)
	}
	slices.SortFunc(out, func(a, b wire.DividendYield) int {
		return cmp.Or(yields[b.Symbol].Cmp(yields[a.Symbol]), cmp.Compare(a.Symbol, b.Symbol))
	})
	return httpx.OK(out[:min(len(out), 50)])
}

func (m *Module) receipts(c *httpx.Call) (httpx.Reply, error) {
	var lines []projections.FundLine
	err := c.Snapshot(func(rd *projections.Reader) error {
		for _, typ := range []string{events.LineDividend, events.LineDividendStock} {
			ls, _, err := rd.FundHistory(c.Ctx(), c.Sess.MemberID, typ, 1, 100)
			if err != nil {
				return err
			}
			lines = append(lines, ls...)
		}
		return nil
	})
	if err != nil {
		return httpx.Reply{}, fmt.Errorf("dividend receipts of %s: %w", c.Sess.MemberID, err)
	}
	slices.SortStableFunc(lines, func(a, b projections.FundLine) int {
		return cmp.Or(cmp.Compare(b.Details["exDate"], a.Details["exDate"]), cmp.Compare(a.Type, b.Type))
	})
	items := make([]wire.DividendReceipt, 0, len(lines))
	for _, l := range lines {
		items = append(items, receiptOut(m.mkt, l))
	}
	return httpx.OK(wire.DividendReceipts{Items: items, NhiRate: rule.NHIRate.Shift(2).StringFixed(2),
		NhiThreshold: httpx.Money(rule.NHIThreshold), RemittanceFee: httpx.Money(rule.RemittanceFee), Par: httpx.Money(rule.Par)})
}

func receiptOut(mkt *market.Service, l projections.FundLine) wire.DividendReceipt {
	d := l.Details
	num := func(k string) string {
		if v, err := decimal.NewFromString(d[k]); err == nil {
			return v.String()
		}
		return "0"
	}
	day := func(k string) openapi_types.Date {
		t, _ := time.Parse(time.DateOnly, d[k])
		return openapi_types.Date{Time: t}
	}
	shares, _ := strconv.ParseInt(d["shares"], 10, 64)
	kind, amount := "cash", httpx.Money(l.Amount)
	if l.Type == events.LineDividendStock {
		kind, amount = "stock", l.Amount.StringFixed(0)
	}
	symbol, _, _ := strings.Cut(d["dividendId"], "-")
	name, nameEN := symbol, symbol
	if in, err := mkt.Instrument(symbol); err == nil {
		name, nameEN = in.Name, in.NameEN
	}
	status := "pending"
	if l.Status == events.LineCompleted {
		status = "completed"
	}
	return wire.DividendReceipt{OrderNo: l.OrderNo, Kind: kind, Symbol: symbol, Name: name, NameEn: &nameEN, Period: d["period"], ExDate: day("exDate"),
		PayDate: day("payDate"), Shares: shares, Cash: num("cash"), Stock: num("stock"), Gross: num("gross"),
		FractionCash: num("fractionCash"), Nhi: num("nhi"), Fee: num("fee"), Amount: amount, Status: status, CreatedAt: l.CreatedAt.UTC()}
}
