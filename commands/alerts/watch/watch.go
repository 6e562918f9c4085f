// Package watch is the price alerts' process manager: it folds every member's active alerts from
// the log and, once a second, checks them against the market feed's quotes; an alert the market
// crossed is fired with a command id derived from the alert, so that a restart, a refold from an
// older checkpoint or a second instance fires it once (the command also refuses a second firing).
package watch

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"sort"
	"strings"
	"sync"
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
		return New(Config{Commands: alerts.New(d.Commands), Market: d.Market, Store: d.Store, Clock: d.Clock,
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
	cmd Firer
	mkt Quotes
	log *slog.Logger
	rt  *process.Runtime

	mu     sync.Mutex
	active map[string]Active // by alert id
}

// New prepares the process; Run runs it.
func New(cfg Config) *Process {
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	p := &Process{cmd: cfg.Commands, mkt: cfg.Market, log: cfg.Logger.With("process", ProcessName), active: map[string]Active{}}
	p.rt = process.New(process.Config{Name: ProcessName, Store: cfg.Store, Manager: p, Clock: process.SystemClock(cfg.Clock),
		Logger: cfg.Logger, Registerer: cfg.Registerer,
		Timers: []process.Timer{{Name: "check", Next: process.Every(time.Second),
			Fire: func(ctx context.Context, _ time.Time, _ string) error { return p.Check(ctx) }}}})
	return p
}

// Run folds the log and checks the alerts until ctx ends.
func (p *Process) Run(ctx context.Context) error {
	if err := p.rt.Run(ctx); err != nil {
		return fmt.Errorf("price alerts: %w", err)
	}
	return nil
}

// WaitReady waits until the log at start is folded.
func (p *Process) WaitReady(ctx context.Context) error { return p.rt.WaitReady(ctx) }

// Wants implements process.Manager.
func (p *Process) Wants(typ string) bool {
	name, _, _ := strings.Cut(typ, ".")
	return name == "AlertSet" || name == "AlertCancelled" || name == "AlertFired"
}

// Handle implements process.Manager.
func (p *Process) Handle(_ context.Context, r events.RecordedEvent, pl events.Payload) error {
	member, ok := strings.CutPrefix(r.Stream, events.MemberStream(""))
	if !ok {
		return fmt.Errorf("event %s at %d is not on a member stream", r.Type, r.Position)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	switch e := pl.(type) {
	case events.AlertSet:
		p.active[e.AlertID] = Active{Member: member, Symbol: e.Symbol, Kind: e.Kind, Value: e.Value}
	case events.AlertCancelled:
		delete(p.active, e.AlertID)
	case events.AlertFired:
		delete(p.active, e.AlertID)
	}
	return nil
}

// FireCommandID is the command id that fires an alert: one per alert, whoever sends it.
func FireCommandID(alertID string) string { return ProcessName + "/fire/" + alertID }

// Check fires every active alert the market's quotes cross now. A firing that fails is tried
// again at the next check (its id makes it apply once).
func (p *Process) Check(ctx context.Context) error {
	p.mu.Lock()
	ids := make([]string, 0, len(p.active))
	for id := range p.active {
		ids = append(ids, id)
	}
	snapshot := make(map[string]Active, len(ids))
	for _, id := range ids {
		snapshot[id] = p.active[id]
	}
	p.mu.Unlock()
	sort.Strings(ids)
	quotes := map[string]market.Quote{}
	var firstErr error
	for _, id := range ids {
		a := snapshot[id]
		q, seen := quotes[a.Symbol]
		if !seen {
			var err error
			if q, err = p.mkt.Quote(a.Symbol); err != nil {
				p.log.WarnContext(ctx, "quote for alert", "symbol", a.Symbol, "err", err)
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

// Snapshot implements process.Manager.
func (p *Process) Snapshot() ([]byte, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return json.Marshal(p.active)
}

// Restore implements process.Manager.
func (p *Process) Restore(state []byte) error {
	active := map[string]Active{}
	if len(state) > 0 {
		if err := json.Unmarshal(state, &active); err != nil {
			return fmt.Errorf("price alerts state: %w", err)
		}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.active = active
	return nil
}
