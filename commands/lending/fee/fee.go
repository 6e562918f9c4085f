// Package fee is the process manager that pays stock lending fees: it folds the active lendings
// from the log and, at the start of every Asia/Taipei day, sends each one's accrual through the
// day before, at each trading day's close. The accrual command pays only days not yet paid
// (commands/lending), and its id is derived from the lending and the timer's occurrence
// (process.TimerCommandID), so a restart, a retry or a second instance pays a day once; after
// downtime the next occurrence pays every day missed.
package fee

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

// ProcessName names the checkpoint, metrics and command ids.
const ProcessName = "lending-fee"

// Accruer is the command the process sends (*lending.Commands).
type Accruer interface {
	AccrueFees(ctx context.Context, meta commands.Meta, in lending.Accrue, closes lending.Closes) (lending.Result, error)
}

// Process folds active lendings and pays their fees daily.
type Process struct {
	cmd    Accruer
	closes lending.Closes
	log    *slog.Logger
	rt     *process.Runtime

	mu     sync.Mutex
	active map[string]string // lend no -> member id
}

// Config wires a Process.
type Config struct {
	Commands   Accruer
	Closes     lending.Closes
	Store      events.Store
	Clock      func() time.Time // time.Now when nil
	Logger     *slog.Logger
	Registerer prometheus.Registerer
}

func init() {
	process.Register(ProcessName, func(d process.Deps) process.Runner {
		return New(Config{Commands: lending.New(d.Commands), Closes: lending.MarketCloses{M: d.Market}, Store: d.Store, Clock: d.Clock,
			Logger: d.Logger, Registerer: d.Registerer})
	})
}

// New prepares the process; Run runs it.
func New(cfg Config) *Process {
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	p := &Process{cmd: cfg.Commands, closes: cfg.Closes, log: cfg.Logger.With("process", ProcessName), active: map[string]string{}}
	p.rt = process.New(process.Config{Name: ProcessName, Store: cfg.Store, Manager: p, Clock: process.SystemClock(cfg.Clock),
		Logger: cfg.Logger, Registerer: cfg.Registerer,
		Timers: []process.Timer{{Name: "daily", Next: process.Daily(0, 0, commands.Taipei), Fire: p.fire}}})
	return p
}

// Run folds the log and pays fees daily until ctx ends.
func (p *Process) Run(ctx context.Context) error {
	if err := p.rt.Run(ctx); err != nil {
		return fmt.Errorf("lending fee: %w", err)
	}
	return nil
}

// WaitReady waits until the log at start is folded.
func (p *Process) WaitReady(ctx context.Context) error { return p.rt.WaitReady(ctx) }

// Wants implements process.Manager.
func (p *Process) Wants(typ string) bool {
	name, _, _ := strings.Cut(typ, ".") // "StockLent.v1"
	return name == "StockLent" || name == "StockRecalled"
}

// Handle implements process.Manager.
func (p *Process) Handle(_ context.Context, r events.RecordedEvent, pl events.Payload) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	member, ok := strings.CutPrefix(r.Stream, events.AccountStream(""))
	if !ok {
		return fmt.Errorf("event %s at %d is not on an account stream", r.Type, r.Position)
	}
	switch e := pl.(type) {
	case events.StockLent:
		p.active[e.LendNo] = member
	case events.StockRecalled:
		delete(p.active, e.LendNo)
	default:
		return fmt.Errorf("event %s at %d is not one the lending fee process folds", r.Type, r.Position)
	}
	return nil
}

// Snapshot implements process.Manager.
func (p *Process) Snapshot() ([]byte, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return json.Marshal(p.active)
}

// Restore implements process.Manager.
func (p *Process) Restore(state []byte) error {
	active := map[string]string{}
	if len(state) > 0 {
		if err := json.Unmarshal(state, &active); err != nil {
			return fmt.Errorf("lending fee state: %w", err)
		}
	}
	p.mu.Lock()
	p.active = active
	p.mu.Unlock()
	return nil
}

func (p *Process) fire(ctx context.Context, at time.Time, _ string) error {
	return p.AccrueThrough(ctx, at)
}

// AccrueThrough sends each active lending's accrual through the Taipei day before at, with
// command ids derived from at.
func (p *Process) AccrueThrough(ctx context.Context, at time.Time) error {
	through := at.In(commands.Taipei).AddDate(0, 0, -1).Format(time.DateOnly)
	p.mu.Lock()
	active := maps.Clone(p.active)
	p.mu.Unlock()
	var errs []error
	for _, no := range slices.Sorted(maps.Keys(active)) {
		meta := commands.Meta{CommandID: process.TimerCommandID(ProcessName, "daily/"+no, at), Actor: "system"}
		if _, err := p.cmd.AccrueFees(ctx, meta, lending.Accrue{MemberID: active[no], LendNo: no, Through: through}, p.closes); err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			p.log.WarnContext(ctx, "lending fee failed; it runs again", "lending", no, "err", err)
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
