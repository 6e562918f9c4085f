package lending

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/commands"
	rule "github.com/lotbook/lotbook/commands/rules/lending"
	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/market"
)

// Commands are stock lending's commands over the kernel k.
type Commands struct{ k *commands.Service }

// New returns stock lending's commands over the kernel k.
func New(k *commands.Service) *Commands { return &Commands{k: k} }

// Result answers a lending command: the lending, its status and the global position of the
// command's last event.
type Result struct {
	LendNo, Status string
	Position       int64
}

// Lend is a member's lending of shares of a symbol (Name is the market's name of it).
type Lend struct {
	Symbol, Name string
	Shares       int64
}

// Accrue pays a lending's fees through a Taipei day (YYYY-MM-DD); the fee process sends it daily.
type Accrue struct{ MemberID, LendNo, Through string }

// step is a later step of a request: a command whose id the request's own id determines.
func step(c commands.Cmd, name string) commands.Meta {
	return commands.Meta{CommandID: c.CommandID + "/" + name, Actor: c.Actor, CorrelationID: c.CommandID, Request: c.Request}
}

// config is the desk's published rules now.
func (s *Commands) config(ctx context.Context) (*desk, error) {
	return commands.View(ctx, s.k, events.ConfigStream, func(cfg *commands.Config, _ *commands.Entry) *desk {
		d := deskPart.Of(cfg)
		return &desk{open: d.open, defaultRate: d.defaultRate, symbols: cloneMap(d.symbols)}
	})
}

func cloneMap[V any](m map[string]V) map[string]V {
	out := make(map[string]V, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// Lend lends whole shares of a symbol the member holds, at the published rate: it takes the
// shares of the symbol's quota, then lends them on the member's account, where a sale of the same
// shares is decided before or after it, never with it; when the account refuses, the quota is
// given back.
func (s *Commands) Lend(ctx context.Context, meta commands.Meta, memberID string, in Lend) (Result, error) {
	c, err := s.k.Begin(meta, "lending.lend")
	if err != nil {
		return Result{}, err
	}
	switch {
	case !validSymbol(in.Symbol):
		return Result{}, commands.Invalid(commands.KeySymbolRequired)
	case in.Shares < 1 || in.Shares > rule.MaxShares:
		return Result{}, commands.Invalid(commands.KeyQuantityInvalid)
	case !commands.ValidMemberID(memberID):
		return Result{}, commands.NotFound(commands.KeyAccountNotExist)
	}
	refusal, err := s.k.TradingRefusal(ctx, memberID)
	if err != nil {
		return Result{}, err
	}
	if refusal != nil {
		return Result{}, refusal
	}
	// Refuse before taking any quota what the account would refuse now (the lending step checks
	// again: a sale may come in between, and then the quota is given back).
	free, err := commands.View(ctx, s.k, events.AccountStream(memberID), func(a *commands.Account, _ *commands.Entry) int64 {
		return lendable(a, in.Symbol)
	})
	if err != nil {
		return Result{}, err
	}
	d, err := s.config(ctx)
	if err != nil {
		return Result{}, err
	}
	if e := d.refuse(in.Symbol); e != nil {
		return Result{}, e
	}
	if free < in.Shares {
		return Result{}, commands.Rule(KeyInsufficientShares)
	}
	lendNo := c.OrderNumbers(lendPrefix, memberID)(0)
	rec, err := commands.Execute(ctx, s.k, c, events.LendingStream(in.Symbol), func(q *quota) ([]events.Payload, error) {
		return decideTake(d, q, in.Symbol, memberID, lendNo, in.Shares)
	})
	if err != nil {
		return Result{}, err
	}
	var taken *events.LendingQuotaTaken
	for _, p := range rec.Payloads {
		if e, ok := p.(events.LendingQuotaTaken); ok && e.MemberID == memberID {
			taken = &e
		}
	}
	if taken == nil {
		return Result{}, commands.KeyReused()
	}
	released, err := commands.View(ctx, s.k, events.LendingStream(in.Symbol), func(q *quota, _ *commands.Entry) bool {
		return q.released[taken.LendNo]
	})
	if err != nil {
		return Result{}, err
	}
	lc, err := s.k.Begin(step(c, "lend"), "lending.lend.account")
	if err != nil {
		return Result{}, err
	}
	lrec, lerr := commands.Execute(ctx, s.k, lc, events.AccountStream(memberID), func(a *commands.Account) ([]events.Payload, error) {
		if released && bookPart.Of(a).lendings[taken.LendNo] == nil {
			// A first run of this request was refused and gave its quota back: refuse again.
			return nil, commands.Rule(KeyInsufficientShares)
		}
		return decideLend(a, d, *taken, in.Symbol, in.Name, c.Now)
	})
	if lerr != nil {
		var e *commands.Error
		if errors.As(lerr, &e) && e.Key == KeyInsufficientShares {
			if err := s.release(ctx, c, in.Symbol, taken.LendNo, KeyInsufficientShares); err != nil {
				return Result{}, err
			}
		}
		return Result{}, lerr
	}
	return Result{LendNo: taken.LendNo, Status: StatusLending, Position: lrec.Position}, nil
}

// Repair gives back the quota lending lendNo of memberID took of symbol when the lending was
// never recorded on the account (a crash between the two steps of Lend; the repair sweep sends
// it once the request is long over). The account closes the lending first, so a late step of the
// request refuses instead of lending beyond the quota; a lending that was recorded keeps its quota.
func (s *Commands) Repair(ctx context.Context, meta commands.Meta, memberID, symbol, lendNo string) (Result, error) {
	c, err := s.k.Begin(meta, "lending.repair")
	if err != nil {
		return Result{}, err
	}
	if !commands.ValidMemberID(memberID) || !validSymbol(symbol) || lendNo == "" {
		return Result{}, commands.NotFound(commands.KeyOrderNotFound)
	}
	abandoned := false
	rec, err := commands.Execute(ctx, s.k, c, events.AccountStream(memberID), func(a *commands.Account) ([]events.Payload, error) {
		out, ok := decideAbandon(a, lendNo, symbol)
		abandoned = ok
		return out, nil
	})
	if err != nil {
		return Result{}, err
	}
	for _, p := range rec.Payloads {
		if _, ok := p.(events.LendingAbandoned); ok {
			abandoned = true // a retry reads its first run's record
		}
	}
	if !abandoned {
		return Result{LendNo: lendNo, Status: StatusLending, Position: rec.Position}, nil
	}
	if err := s.release(ctx, c, symbol, lendNo, releasedAbandoned); err != nil {
		return Result{}, err
	}
	return Result{LendNo: lendNo, Status: StatusCompleted, Position: rec.Position}, nil
}

// release gives a lending's quota back, as the step "release" of request c.
func (s *Commands) release(ctx context.Context, c commands.Cmd, symbol, lendNo, reason string) error {
	rc, err := s.k.Begin(step(c, "release"), "lending.release")
	if err != nil {
		return err
	}
	if _, err := commands.Execute(ctx, s.k, rc, events.LendingStream(symbol), func(q *quota) ([]events.Payload, error) {
		return decideRelease(q, lendNo, reason), nil
	}); err != nil {
		return fmt.Errorf("lending %s: release quota: %w", lendNo, err)
	}
	return nil
}

// Recall ends a member's lending: the fees of the days before today that are not paid yet are
// paid, the shares are free to sell at once, and the quota is given back. Another member's
// lending is not found.
func (s *Commands) Recall(ctx context.Context, meta commands.Meta, memberID, lendNo string, closes Closes) (Result, error) {
	c, err := s.k.Begin(meta, "lending.recall")
	if err != nil {
		return Result{}, err
	}
	if !commands.ValidMemberID(memberID) || lendNo == "" || len(lendNo) > 64 {
		return Result{}, commands.NotFound(commands.KeyOrderNotFound)
	}
	rec, err := commands.Execute(ctx, s.k, c, events.AccountStream(memberID), func(a *commands.Account) ([]events.Payload, error) {
		return decideRecall(a, lendNo, c.Now, closes, s.k.Calendar())
	})
	if err != nil {
		return Result{}, err
	}
	var recalled *events.StockRecalled
	for _, p := range rec.Payloads {
		if e, ok := p.(events.StockRecalled); ok && e.LendNo == lendNo {
			recalled = &e
		}
	}
	if recalled == nil {
		return Result{}, commands.KeyReused()
	}
	if err := s.release(ctx, c, recalled.Symbol, lendNo, releasedRecalled); err != nil {
		return Result{}, err
	}
	return Result{LendNo: lendNo, Status: StatusCompleted, Position: rec.Position}, nil
}

// AccrueFees pays a lending's daily fees through in.Through (the fee process). Days paid already
// are not paid again.
func (s *Commands) AccrueFees(ctx context.Context, meta commands.Meta, in Accrue, closes Closes) (Result, error) {
	c, err := s.k.Begin(meta, "lending.accrue")
	if err != nil {
		return Result{}, err
	}
	if !commands.ValidMemberID(in.MemberID) {
		return Result{}, commands.NotFound(commands.KeyAccountNotExist)
	}
	rec, err := commands.Execute(ctx, s.k, c, events.AccountStream(in.MemberID), func(a *commands.Account) ([]events.Payload, error) {
		return decideAccrue(a, in.LendNo, in.Through, closes, s.k.Calendar())
	})
	if err != nil {
		return Result{}, err
	}
	return Result{LendNo: in.LendNo, Position: rec.Position}, nil
}

// SetChannel opens or closes the lending channel and sets the default annual rate (ops; the
// event names the actor).
func (s *Commands) SetChannel(ctx context.Context, meta commands.Meta, open bool, defaultRate string) (commands.Result, error) {
	c, err := s.k.Begin(meta, "lending.channel")
	if err != nil {
		return commands.Result{}, err
	}
	rate, e := parseRate(defaultRate, false)
	if e != nil {
		return commands.Result{}, e
	}
	rec, err := commands.Execute(ctx, s.k, c, events.ConfigStream, func(cfg *commands.Config) ([]events.Payload, error) {
		return decideChannel(deskPart.Of(cfg), open, rate), nil
	})
	if err != nil {
		return commands.Result{}, err
	}
	return commands.Result{Position: rec.Position}, nil
}

// SetSymbol sets a symbol's rate ("" or "0": the default rate) and its total quota of shares
// (ops).
func (s *Commands) SetSymbol(ctx context.Context, meta commands.Meta, symbol, rate string, quota int64) (commands.Result, error) {
	c, err := s.k.Begin(meta, "lending.symbol")
	if err != nil {
		return commands.Result{}, err
	}
	if !validSymbol(symbol) {
		return commands.Result{}, commands.Invalid(commands.KeySymbolRequired)
	}
	r, e := parseRate(rate, true)
	if e != nil {
		return commands.Result{}, e
	}
	if quota < 0 || quota > rule.MaxShares {
		return commands.Result{}, commands.Invalid(KeyQuotaInvalid)
	}
	rec, err := commands.Execute(ctx, s.k, c, events.ConfigStream, func(cfg *commands.Config) ([]events.Payload, error) {
		return decideSymbol(deskPart.Of(cfg), symbol, r, quota), nil
	})
	if err != nil {
		return commands.Result{}, err
	}
	return commands.Result{Position: rec.Position}, nil
}

// SymbolRule is one symbol's published rule and how much of its quota is used.
type SymbolRule struct {
	Symbol      string
	Rate        decimal.Decimal // its own rate, zero when it lends at the default
	Effective   decimal.Decimal // the rate it lends at
	Quota, Used int64
}

// Desk is the published lending rules.
type Desk struct {
	Open        bool
	DefaultRate decimal.Decimal
	MaxRate     decimal.Decimal
	Symbols     []SymbolRule
}

// Desk reads the published rules and the quota used of every symbol.
func (s *Commands) Desk(ctx context.Context) (Desk, error) {
	d, err := s.config(ctx)
	if err != nil {
		return Desk{}, err
	}
	out := Desk{Open: d.open, DefaultRate: d.defaultRate, MaxRate: rule.MaxRate}
	for _, sym := range sortedSymbols(d.symbols) {
		used, err := commands.View(ctx, s.k, events.LendingStream(sym), func(q *quota, _ *commands.Entry) int64 { return q.used })
		if err != nil {
			return Desk{}, err
		}
		r := d.symbols[sym]
		out.Symbols = append(out.Symbols, SymbolRule{Symbol: sym, Rate: r.rate, Effective: d.rateOf(sym), Quota: r.quota, Used: used})
	}
	return out, nil
}

// Holding is a symbol of the member's: the free shares (held, unfinanced, not being sold), those
// lent, and what may be lent now.
type Holding struct {
	Symbol               string
	Free, Lent, Lendable int64
}

// Holdings are the member's holdings as lending sees them, by symbol, from the account as the
// next lending would be decided on it.
func (s *Commands) Holdings(ctx context.Context, memberID string) ([]Holding, error) {
	if !commands.ValidMemberID(memberID) {
		return nil, commands.NotFound(commands.KeyAccountNotExist)
	}
	return commands.View(ctx, s.k, events.AccountStream(memberID), func(a *commands.Account, _ *commands.Entry) []Holding {
		var out []Holding
		for _, sym := range sortedSymbols(bookPart.Of(a).symbols) {
			h := Holding{Symbol: sym, Free: a.FreeShares(sym), Lent: a.HeldShares(sym), Lendable: lendable(a, sym)}
			if h.Free > 0 || h.Lent > 0 {
				out = append(out, h)
			}
		}
		return out
	})
}

// MarketCloses reads closing prices from the market's daily candles.
type MarketCloses struct{ M *market.Service }

// Close is symbol's last daily close on or before day (Taipei).
func (m MarketCloses) Close(symbol, day string) (decimal.Decimal, error) {
	d, err := time.ParseInLocation(time.DateOnly, day, commands.Taipei)
	if err != nil {
		return decimal.Zero, fmt.Errorf("close of %s: day %q: %w", symbol, day, err)
	}
	cs, err := m.M.Candles(symbol, "1d", d.AddDate(0, 0, 1), 1)
	if err != nil {
		return decimal.Zero, fmt.Errorf("close of %s on %s: %w", symbol, day, err)
	}
	if len(cs) == 0 || !cs[len(cs)-1].Close.IsPositive() {
		return decimal.Zero, fmt.Errorf("close of %s on %s: no daily candle", symbol, day)
	}
	return cs[len(cs)-1].Close, nil
}
