// Package watch is the price alerts' process manager: it folds every member's active alerts from
// the log and, once a second, checks them against the market feed's quotes; an alert the market
// crossed is fired with a command id derived from the alert, so that a restart, a refold from an
// older checkpoint or a second instance fires it once (the command also refuses a second firing).
package watch

import (
	"context"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/commands/alerts"
	"github.com/lotbook/lotbook/commands/process"
	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/market"
)

// ProcessName names the checkpoint, the metrics and the command ids.
const ProcessName = "price-alerts"

func init() {
	process.Register(ProcessName, func(d process.Deps) process.Runner {
		return New(Config{Commands: alerts.New(d.Commands), Market: d.Market, Store: d.Store, Feed: d.Feed, Clock: d.Clock,
			Logger: d.Logger, Registerer: d.Registerer})
	})
}

// Quotes is what the process reads of the market: the live quote of a symbol.
type Quotes interface {
	Quote(symbol string) (market.Quote, error)
}

// Firer fires alerts (*alerts.Commands).
type Firer interface {
	FireAlert(ctx context.Context, meta commands.Meta, f alerts.Fire) (commands.Result, error)
}

// Config wires a Process.
type Config struct {
	Commands   Firer
	Market     Quotes
	Store      events.Store
	Feed       *process.Feed // the log reader shared by the stack's processes (nil: its own)
	Clock      func() time.Time
	Logger     *slog.Logger
	Registerer prometheus.Registerer
}

// Active is an alert the process watches.
type Active struct {
	Member string          `json:"member"`
	Symbol string          `json:"symbol"`
	Kind   string          `json:"kind"`
	Value  decimal.Decimal `json:"value"`
}

// Process is the price alerts' process manager.
type Process struct {
	*process.Runtime
	process.EventSet
	process.Fold[map[string]Active] // by alert id

	cmd Firer
	mkt Quotes
}

// New prepares the process; Run runs it.
func New(cfg Config) *Process {
	p := &Process{cmd: cfg.Commands, mkt: cfg.Market, EventSet: process.Events("AlertSet", "AlertCancelled", "AlertFired"),
		Fold: process.NewFold(func() map[string]Active { return map[string]Active{} }, nil)}
	p.Runtime = process.New(process.Config{Name: ProcessName, Store: cfg.Store, Feed: cfg.Feed, Manager: p, Clock: process.SystemClock(cfg.Clock),
		Logger: cfg.Logger, Registerer: cfg.Registerer,
		Timers: []process.Timer{{Name: "check", Next: process.Every(time.Second),
			Fire: func(ctx context.Context, _ time.Time, _ string) error { return p.Check(ctx) }}}})
	return p
}

// Handle implements process.Manager.
func (p *Process) Handle(_ context.Context, r events.RecordedEvent, pl events.Payload) error {
	member, ok := strings.CutPrefix(r.Stream, events.MemberStream(""))
	if !ok {
		return fmt.Errorf("event %s at %d is not on a member stream", r.Type, r.Position)
	}
	active := *p.Lock()
	defer p.Unlock()
	switch e := pl.(type) {
	case events.AlertSet:
		active[e.AlertID] = Active{Member: member, Symbol: e.Symbol, Kind: e.Kind, Value: e.Value}
	case events.AlertCancelled:
		delete(active, e.AlertID)
	case events.AlertFired:
		delete(active, e.AlertID)
	}
	return nil
}

// FireCommandID is the command id that fires an alert: one per alert, whoever sends it.
func FireCommandID(alertID string) string { return ProcessName + "/fire/" + alertID }

// Check fires every active alert the market's quotes cross now. A firing that fails is tried
// again at the next check (its id makes it apply once).
func (p *Process) Check(ctx context.Context) error {
	snapshot := maps.Clone(*p.Lock())
	p.Unlock()
	ids := slices.Sorted(maps.Keys(snapshot))
	quotes := map[string]market.Quote{}
	var firstErr error
	for _, id := range ids {
		a := snapshot[id]
		q, seen := quotes[a.Symbol]
		if !seen {
			var err error
			if q, err = p.mkt.Quote(a.Symbol); err != nil {
				p.Logger().WarnContext(ctx, "quote for alert", "symbol", a.Symbol, "err", err)
				continue
			}
			quotes[a.Symbol] = q
		}
		if !q.Traded || !alerts.Crossed(a.Kind, a.Value, q.Price, q.PrevClose) {
			continue
		}
		_, err := p.cmd.FireAlert(ctx, commands.Meta{CommandID: FireCommandID(id), Actor: "system"},
			alerts.Fire{MemberID: a.Member, AlertID: id, Price: q.Price, PrevClose: q.PrevClose, QuoteTime: q.Time})
		if err != nil && firstErr == nil {
			firstErr = fmt.Errorf("fire alert %s: %w", id, err)
		}
	}
	return firstErr
}
