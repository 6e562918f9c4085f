// Package repair is stock lending's crash-repair sweep, a process manager: a lending takes quota
// on the symbol's stream and then lends on the member's account, two steps; a crash between
// them leaves quota taken by a lending that never happened, and unless the member retries the
// same request nothing would give it back. The sweep folds the takes that have neither a lending
// nor a release and, on start (an occurrence missed while down fires at once) and every minute,
// repairs those older than Grace (commands/lending Repair): the account closes the lending, then
// the quota is given back. The command id derives from the lending, so a restart, a retry or a
// second instance repairs it once.
package repair

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/commands/lending"
	"github.com/lotbook/lotbook/commands/process"
	"github.com/lotbook/lotbook/events"
)

// ProcessName names the checkpoint, metrics and command ids: never rename it.
const ProcessName = "lending-repair"

// Grace is how long a take may wait for its lending before the sweep repairs it: far beyond a
// request's two steps (milliseconds), so a request in flight finishes first; and should one
// still be in flight, the account refuses its lending once the sweep closed it.
const Grace = 5 * time.Minute

// Repairer is the command the process sends (*lending.Commands).
type Repairer interface {
	Repair(ctx context.Context, meta commands.Meta, memberID, symbol, lendNo string) (lending.Result, error)
}

// Config wires the process.
type Config struct {
	Commands   Repairer
	Store      events.Store
	Clock      func() time.Time // time.Now when nil
	Logger     *slog.Logger
	Registerer prometheus.Registerer
}

func init() {
	process.Register(ProcessName, func(d process.Deps) process.Runner {
		return New(Config{Commands: lending.New(d.Commands), Store: d.Store, Clock: d.Clock, Logger: d.Logger, Registerer: d.Registerer})
	})
}

// take is quota taken by a lending not yet lent nor released.
type take struct {
	Member string    `json:"member"`
	Symbol string    `json:"symbol"`
	At     time.Time `json:"at"`
}

// Process is the sweep.
type Process struct {
	cmd Repairer
	log *slog.Logger
	rt  *process.Runtime

	mu      sync.Mutex
	pending map[string]take // lend no -> its take
}

// New prepares the sweep; Run runs it.
func New(cfg Config) *Process {
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	p := &Process{cmd: cfg.Commands, log: cfg.Logger.With("process", ProcessName), pending: map[string]take{}}
	p.rt = process.New(process.Config{Name: ProcessName, Store: cfg.Store, Manager: p, Clock: process.SystemClock(cfg.Clock),
		Logger: cfg.Logger, Registerer: cfg.Registerer,
		Timers: []process.Timer{{Name: "sweep", Next: process.Every(time.Minute), Fire: func(ctx context.Context, at time.Time, _ string) error {
			return p.Sweep(ctx, at)
		}}}})
	return p
}

// Run folds the log and sweeps until ctx ends.
func (p *Process) Run(ctx context.Context) error {
	if err := p.rt.Run(ctx); err != nil {
		return fmt.Errorf("lending repair: %w", err)
	}
	return nil
}

// WaitReady waits until the log at start is folded.
func (p *Process) WaitReady(ctx context.Context) error { return p.rt.WaitReady(ctx) }

// Position is how far the process has folded the log.
func (p *Process) Position() int64 { return p.rt.Position() }

// Wants implements process.Manager.
func (p *Process) Wants(typ string) bool {
	name, _, _ := strings.Cut(typ, ".")
	switch name {
	case "LendingQuotaTaken", "LendingQuotaReleased", "StockLent":
		return true
	}
	return false
}

// Handle implements process.Manager.
func (p *Process) Handle(_ context.Context, r events.RecordedEvent, pl events.Payload) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	switch e := pl.(type) {
	case events.LendingQuotaTaken:
		symbol, ok := strings.CutPrefix(r.Stream, events.LendingStream(""))
		if !ok {
			return fmt.Errorf("quota taken at %d is not on a lending stream", r.Position)
		}
		p.pending[e.LendNo] = take{Member: e.MemberID, Symbol: symbol, At: r.Metadata.ServerTime}
	case events.LendingQuotaReleased:
		delete(p.pending, e.LendNo)
	case events.StockLent:
		delete(p.pending, e.LendNo)
	}
	return nil
}

// Snapshot implements process.Manager.
func (p *Process) Snapshot() ([]byte, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return json.Marshal(p.pending)
}

// Restore implements process.Manager.
func (p *Process) Restore(state []byte) error {
	pending := map[string]take{}
	if len(state) > 0 {
		if err := json.Unmarshal(state, &pending); err != nil {
			return fmt.Errorf("lending repair state: %w", err)
		}
	}
	p.mu.Lock()
	p.pending = pending
	p.mu.Unlock()
	return nil
}

// Sweep repairs every take older than Grace at at.
func (p *Process) Sweep(ctx context.Context, at time.Time) error {
	p.mu.Lock()
	var due []string
	for _, no := range slices.Sorted(maps.Keys(p.pending)) {
		if at.Sub(p.pending[no].At) >= Grace {
			due = append(due, no)
		}
	}
	takes := make([]take, len(due))
	for i, no := range due {
		takes[i] = p.pending[no]
	}
	p.mu.Unlock()
	var errs []error
	for i, no := range due {
		t := takes[i]
		_, err := p.cmd.Repair(ctx, commands.Meta{CommandID: ProcessName + "/" + no, Actor: "system"}, t.Member, t.Symbol, no)
		if err == nil {
			p.log.InfoContext(ctx, "lending quota taken but never lent: given back", "lend", no, "symbol", t.Symbol)
			continue
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if e, ok := commands.AsError(err); ok && e.Kind != commands.KindUnavailable {
			p.log.WarnContext(ctx, "lending repair refused", "lend", no, "err", err)
			continue
		}
		errs = append(errs, fmt.Errorf("repair of lending %s: %w", no, err))
	}
	return errors.Join(errs...)
}
