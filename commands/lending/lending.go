// Package lending is stock lending (借券出借) on the write side. Three aggregates take part:
//
//   - the config part "lending" (stream config): the channel open or closed, the default annual
//     rate, and per symbol a rate and the total quota of shares lent; ops set them, attributed;
//   - the quota of one symbol (stream lending-<symbol>): the shares every lending has taken,
//     appended with the expected version so that two members never both take the last shares;
//   - the account part "lending" (stream account-<id>): the member's lendings. Its lent shares are
//     a commands.ShareHold, so a sale (trading's close of a position) must leave them in place;
//     a lending and a sale of the same shares are decided one after the other on the account
//     stream, so the member lends them or sells them, never both.
//
// A lending takes quota, then lends on the account (or gives the quota back when the account
// refuses); a recall ends the lending on the account, then gives the quota back. Every step's
// command id derives from the request's, so a retried request finishes what a first one left
// half way and applies nothing twice. Fees accrue each Taipei trading day (the fee process in
// commands/lending/fee, and a recall for the days before it). See events/lending_events.go.
package lending

import (
	"slices"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/commands"
	rule "github.com/lotbook/lotbook/commands/rules/lending"
	"github.com/lotbook/lotbook/events"
)

// Message keys of stock lending.
const (
	KeyQuotaFull          = "lending_quota_full"
	KeyChannelClosed      = "lending_channel_closed"
	KeyInsufficientShares = "insufficient_shares"
	KeyNotActive          = "lending_not_active"
	KeyRateInvalid        = "lending_rate_invalid"
	KeyQuotaInvalid       = "lending_quota_invalid"
)

// Lending states.
const (
	StatusLending   = "lending"
	StatusCompleted = "completed"
)

const (
	twd        = commands.TWD
	lendPrefix = "LD"
	// maxAccrualDays bounds the calendar days one accrual looks at (a process down for longer
	// catches up over several runs).
	maxAccrualDays = 366
	// releasedRecalled and releasedAbandoned say why a lending's quota was given back.
	releasedRecalled  = "recalled"
	releasedAbandoned = "abandoned"
)

// Closes gives a symbol's closing price of a Taipei day (YYYY-MM-DD): the last close on or before
// it. The market is the only source of prices.
type Closes interface {
	Close(symbol, day string) (decimal.Decimal, error)
}

// symbolRule is one symbol's published lending rule.
type symbolRule struct {
	rate  decimal.Decimal // zero: the default rate
	quota int64
}

// desk is the config part: the published lending rules.
type desk struct {
	open        bool
	defaultRate decimal.Decimal
	symbols     map[string]symbolRule
}

var deskPart = commands.RegisterConfigPart("lending", func() *desk { return &desk{symbols: map[string]symbolRule{}} })

// Apply follows ops' settings.
func (d *desk) Apply(_ events.RecordedEvent, p events.Payload) {
	switch e := p.(type) {
	case events.LendingChannelSet:
		d.open, d.defaultRate = e.Open, e.DefaultRate
	case events.LendingSymbolSet:
		d.symbols[e.Symbol] = symbolRule{rate: e.Rate, quota: e.Quota}
	}
}

// rateOf is the rate symbol lends at now (zero when no rate is published).
func (d *desk) rateOf(symbol string) decimal.Decimal {
	return rule.RateFor(d.symbols[symbol].rate, d.defaultRate)
}

// quota is one symbol's quota stream: the shares each lending holds of it.
type quota struct {
	taken    map[string]events.LendingQuotaTaken // lend no -> its take, while it holds shares
	released map[string]bool
	used     int64
}

func init() {
	commands.RegisterStreams(events.LendingStream(""), func(string) commands.State {
		return &quota{taken: map[string]events.LendingQuotaTaken{}, released: map[string]bool{}}
	})
}

// Apply follows takes and releases.
func (q *quota) Apply(_ events.RecordedEvent, p events.Payload) {
	switch e := p.(type) {
	case events.LendingQuotaTaken:
		q.taken[e.LendNo] = e
		q.used += e.Shares
	case events.LendingQuotaReleased:
		if t, ok := q.taken[e.LendNo]; ok {
			q.used -= t.Shares
			delete(q.taken, e.LendNo)
		}
		q.released[e.LendNo] = true
	}
}

// lending is one of the member's lendings.
type lending struct {
	events.StockLent
	status         string
	fees           decimal.Decimal
	accruedThrough string // the last Taipei day a fee was paid for
}

// book is the account part: the member's lendings and the symbols the member has held.
type book struct {
	memberShares string
	lendings     map[string]*lending
	symbols      map[string]bool // symbols that ever reached the member's share account
	abandoned    map[string]bool // lend numbers the repair sweep closed before they were lent
}

var bookPart = commands.RegisterAccountPart("lending", func(l commands.Ledger) *book {
	return &book{memberShares: events.MemberAccount(l.MemberID, events.KindShares), lendings: map[string]*lending{}, symbols: map[string]bool{},
		abandoned: map[string]bool{}}
})

// Apply evolves the member's lendings.
func (b *book) Apply(_ events.RecordedEvent, p events.Payload) {
	if m, ok := p.(events.MovesMoney); ok {
		for _, leg := range m.MoneyPostings() {
			if leg.Security != "" && leg.Account == b.memberShares {
				if _, sym, ok := strings.Cut(leg.Security, ":"); ok {
					b.symbols[sym] = true
				}
			}
		}
	}
	switch e := p.(type) {
	case events.StockLent:
		b.lendings[e.LendNo] = &lending{StockLent: e, status: StatusLending}
	case events.LendingAbandoned:
		b.abandoned[e.LendNo] = true
	case events.LendingFeeAccrued:
		if l := b.lendings[e.LendNo]; l != nil {
			l.fees, l.accruedThrough = l.fees.Add(e.Amount), e.Day
		}
	case events.StockRecalled:
		if l := b.lendings[e.LendNo]; l != nil {
			l.status = StatusCompleted
		}
	}
}

// HoldsOrder keeps new order numbers off the lendings.
func (b *book) HoldsOrder(no string) bool { return b.lendings[no] != nil }

// HeldShares implements commands.ShareHold: lent shares cannot be sold until recalled.
func (b *book) HeldShares(symbol string) int64 {
	var n int64
	for _, l := range b.lendings {
		if l.status == StatusLending && l.Symbol == symbol {
			n += l.Shares
		}
	}
	return n
}

// lendable is what of symbol the member may lend now: its free shares less those lent.
func lendable(a *commands.Account, symbol string) int64 {
	return max(0, a.FreeShares(symbol)-a.HeldShares(symbol))
}

// validSymbol tells whether s looks like a Taiwan security code: 1 to 10 letters or digits.
func validSymbol(s string) bool {
	if s == "" || len(s) > 10 {
		return false
	}
	for _, r := range s {
		if !(r >= '0' && r <= '9' || r >= 'A' && r <= 'Z') {
			return false
		}
	}
	return true
}

// refuse is why the desk lends nothing of symbol now: the channel closed, or no rule for it.
func (d *desk) refuse(symbol string) *commands.Error {
	if !d.open {
		return commands.Rule(KeyChannelClosed)
	}
	if _, ok := d.symbols[symbol]; !ok || !d.rateOf(symbol).IsPositive() {
		return commands.Rule(KeyQuotaFull)
	}
	return nil
}

// decideTake takes shares of a symbol's quota for the lending lendNo, at the desk's rules.
func decideTake(d *desk, q *quota, symbol, memberID, lendNo string, shares int64) ([]events.Payload, error) {
	if e := d.refuse(symbol); e != nil {
		return nil, e
	}
	if r := d.symbols[symbol]; q.used+shares > r.quota {
		return nil, commands.Rule(KeyQuotaFull)
	}
	return []events.Payload{events.LendingQuotaTaken{LendNo: lendNo, MemberID: memberID, Shares: shares, Quota: d.symbols[symbol].quota}}, nil
}

// decideLend lends the shares a take holds quota for, when the member has them free; at the rate
// published now. An account that lent them already answers with nothing new.
func decideLend(a *commands.Account, d *desk, t events.LendingQuotaTaken, symbol, name string, now time.Time) ([]events.Payload, error) {
	if bookPart.Of(a).lendings[t.LendNo] != nil {
		return nil, nil
	}
	if bookPart.Of(a).abandoned[t.LendNo] {
		// the repair sweep gave its quota back: lending now would lend beyond the quota
		return nil, commands.Rule(KeyNotActive)
	}
	if lendable(a, symbol) < t.Shares {
		return nil, commands.Rule(KeyInsufficientShares)
	}
	return []events.Payload{events.StockLent{LendNo: t.LendNo, Symbol: symbol, Name: name, Shares: t.Shares,
		AnnualRate: d.rateOf(symbol), Day: taipeiDay(now)}}, nil
}

// decideAbandon closes lending lendNo of symbol on the account when its quota was taken but it
// was never lent (the repair sweep). ok false: it was lent, and its quota is its own.
func decideAbandon(a *commands.Account, lendNo, symbol string) (out []events.Payload, ok bool) {
	b := bookPart.Of(a)
	switch {
	case b.lendings[lendNo] != nil:
		return nil, false
	case b.abandoned[lendNo]:
		return nil, true
	}
	return []events.Payload{events.LendingAbandoned{LendNo: lendNo, Symbol: symbol}}, true
}

// decideRelease gives a lending's quota back (nothing when it holds none).
func decideRelease(q *quota, lendNo, reason string) []events.Payload {
	if _, ok := q.taken[lendNo]; !ok {
		return nil
	}
	return []events.Payload{events.LendingQuotaReleased{LendNo: lendNo, Reason: reason}}
}

// tradingDay tells whether day (YYYY-MM-DD) is a Taipei trading day on cal (every day without one).
func tradingDay(day time.Time, cal commands.Calendar) bool {
	return cal == nil || !cal.IsHoliday(time.Date(day.Year(), day.Month(), day.Day(), 12, 0, 0, 0, commands.Taipei))
}

// accrue pays each Taipei trading day's fee of an active lending from the day after the last one
// paid (the day lent for the first) through the day through, at each day's close. A day paid
// already is not paid again, so the accrual is idempotent whoever sends it and however often.
func accrue(memberID string, l *lending, through string, closes Closes, cal commands.Calendar) ([]events.Payload, error) {
	if l.status != StatusLending {
		return nil, nil
	}
	from := l.Day
	if l.accruedThrough != "" {
		from = l.accruedThrough
	}
	day, err := time.ParseInLocation(time.DateOnly, from, commands.Taipei)
	if err != nil {
		return nil, commands.Unavailable(err)
	}
	if l.accruedThrough != "" {
		day = day.AddDate(0, 0, 1)
	}
	var out []events.Payload
	for n := 0; n < maxAccrualDays && day.Format(time.DateOnly) <= through; n, day = n+1, day.AddDate(0, 0, 1) {
		if !tradingDay(day, cal) {
			continue
		}
		d := day.Format(time.DateOnly)
		closePrice, err := closes.Close(l.Symbol, d)
		if err != nil {
			return nil, commands.Unavailable(err)
		}
		amount := rule.DailyFee(closePrice, l.Shares, l.AnnualRate)
		if !amount.IsPositive() {
			continue
		}
		out = append(out, events.LendingFeeAccrued{LendNo: l.LendNo, Symbol: l.Symbol, Currency: twd, Day: d, Close: closePrice,
			Shares: l.Shares, AnnualRate: l.AnnualRate, Amount: amount, Postings: events.LendingFeePostings(memberID, twd, amount)})
	}
	return out, nil
}

// decideAccrue accrues a lending's fees through the day through (the fee process).
func decideAccrue(a *commands.Account, lendNo, through string, closes Closes, cal commands.Calendar) ([]events.Payload, error) {
	l := bookPart.Of(a).lendings[lendNo]
	if l == nil {
		return nil, commands.NotFound(commands.KeyOrderNotFound)
	}
	return accrue(a.MemberID, l, through, closes, cal)
}

// decideRecall ends an active lending: the fees of the days before today not paid yet, then the
// recall; the shares are free at once.
func decideRecall(a *commands.Account, lendNo string, now time.Time, closes Closes, cal commands.Calendar) ([]events.Payload, error) {
	l := bookPart.Of(a).lendings[lendNo]
	switch {
	case l == nil:
		return nil, commands.NotFound(commands.KeyOrderNotFound)
	case l.status != StatusLending:
		return nil, commands.Rule(KeyNotActive)
	}
	today := now.In(commands.Taipei)
	out, err := accrue(a.MemberID, l, today.AddDate(0, 0, -1).Format(time.DateOnly), closes, cal)
	if err != nil {
		return nil, err
	}
	fees := l.fees
	for _, p := range out {
		fees = fees.Add(p.(events.LendingFeeAccrued).Amount)
	}
	return append(out, events.StockRecalled{LendNo: lendNo, Symbol: l.Symbol, Shares: l.Shares, Fees: fees,
		Day: today.Format(time.DateOnly)}), nil
}

// decideChannel opens or closes the channel with the default rate; the same setting again
// changes nothing.
func decideChannel(d *desk, open bool, rate decimal.Decimal) []events.Payload {
	if d.open == open && d.defaultRate.Equal(rate) {
		return nil
	}
	return []events.Payload{events.LendingChannelSet{Open: open, DefaultRate: rate}}
}

// decideSymbol sets a symbol's rate and quota; the same setting again changes nothing.
func decideSymbol(d *desk, symbol string, rate decimal.Decimal, quota int64) []events.Payload {
	if r, ok := d.symbols[symbol]; ok && r.rate.Equal(rate) && r.quota == quota {
		return nil
	}
	return []events.Payload{events.LendingSymbolSet{Symbol: symbol, Rate: rate, Quota: quota}}
}

// parseRate reads a rate typed as a fraction ("0.035"); empty is zero when optional.
func parseRate(s string, optional bool) (decimal.Decimal, *commands.Error) {
	s = strings.TrimSpace(s)
	if s == "" && optional {
		return decimal.Zero, nil
	}
	r, err := decimal.NewFromString(s)
	if err != nil || len(s) > 12 || !rule.ValidRate(r) {
		if optional && err == nil && r.IsZero() {
			return decimal.Zero, nil
		}
		return decimal.Zero, commands.Invalid(KeyRateInvalid)
	}
	return r, nil
}

// taipeiDay is the Asia/Taipei date of t.
func taipeiDay(t time.Time) string { return t.In(commands.Taipei).Format(time.DateOnly) }

// sortedSymbols are the keys of m in order.
func sortedSymbols[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
