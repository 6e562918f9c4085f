// Package interest is the process manager that accrues loan interest: it folds the outstanding
// loans from the log and, at the start of every Asia/Taipei day, sends each one's accrual through
// the day before. The accrual command charges only days not yet charged (commands/credit), and
// its id is derived from the loan and the timer's occurrence (process.TimerCommandID), so a
// restart, a retry or a second instance charges a day once.
package interest

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
	"github.com/lotbook/lotbook/commands/credit"
	"github.com/lotbook/lotbook/commands/process"
	"github.com/lotbook/lotbook/events"
)

// ProcessName names the checkpoint, metrics and command ids.
const ProcessName = "loan-interest"

// Accruer is the command the process sends (*credit.Commands).
type Accruer interface {
	AccrueInterest(ctx context.Context, meta commands.Meta, in credit.Accrue) (credit.Result, error)
}

// Process folds outstanding loans and accrues their interest daily.
type Process struct {
	cmd Accruer
	log *slog.Logger
	rt  *process.Runtime

	mu   sync.Mutex
	open map[string]string // loan order number -> member id
}

// Config wires a Process.
type Config struct {
	Commands   Accruer
	Store      events.Store
	Clock      func() time.Time // time.Now when nil
	Logger     *slog.Logger
	Registerer prometheus.Registerer
}

func init() {
	process.Register(ProcessName, func(d process.Deps) process.Runner {
		return New(Config{Commands: credit.New(d.Commands), Store: d.Store, Clock: d.Clock, Logger: d.Logger, Registerer: d.Registerer})
	})
}

// New prepares the process; Run runs it.
func New(cfg Config) *Process {
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	p := &Process{cmd: cfg.Commands, log: cfg.Logger.With("process", ProcessName), open: map[string]string{}}
	p.rt = process.New(process.Config{Name: ProcessName, Store: cfg.Store, Manager: p, Clock: process.SystemClock(cfg.Clock),
		Logger: cfg.Logger, Registerer: cfg.Registerer,
		Timers: []process.Timer{{Name: "daily", Next: process.Daily(0, 0, commands.Taipei), Fire: p.fire}}})
	return p
}

// Run folds the log and accrues daily until ctx ends.
func (p *Process) Run(ctx context.Context) error {
	if err := p.rt.Run(ctx); err != nil {
		return fmt.Errorf("loan interest: %w", err)
	}
	return nil
}

// WaitReady waits until the log at start is folded.
func (p *Process) WaitReady(ctx context.Context) error { return p.rt.WaitReady(ctx) }

// Wants implements process.Manager.
func (p *Process) Wants(typ string) bool {
	name, _, _ := strings.Cut(typ, ".") // "LoanDisbursed.v1"
	return name == "LoanDisbursed" || name == "LoanRepaid"
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
	case events.LoanDisbursed:
		p.open[e.OrderNo] = member
	case events.LoanRepaid:
		if !e.Outstanding.IsPositive() {
			delete(p.open, e.OrderNo)
		}
	default:
		return fmt.Errorf("event %s at %d is not one the interest process folds", r.Type, r.Position)
	}
	return nil
}

// Snapshot implements process.Manager.
func (p *Process) Snapshot() ([]byte, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return json.Marshal(p.open)
}

// Restore implements process.Manager.
func (p *Process) Restore(state []byte) error {
	open := map[string]string{}
	if len(state) > 0 {
		if err := json.Unmarshal(state, &open); err != nil {
			return fmt.Errorf("loan interest state: %w", err)
		}
	}
	p.mu.Lock()
	p.open = open
	p.mu.Unlock()
	return nil
}

// fire accrues every open loan through the Taipei day before at.
func (p *Process) fire(ctx context.Context, at time.Time, _ string) error {
	return p.AccrueThrough(ctx, at)
}

// AccrueThrough sends each open loan's accrual through the Taipei day before at, with command ids
// derived from at.
func (p *Process) AccrueThrough(ctx context.Context, at time.Time) error {
	through := at.In(commands.Taipei).AddDate(0, 0, -1).Format(time.DateOnly)
	p.mu.Lock()
	open := maps.Clone(p.open)
	p.mu.Unlock()
	var errs []error
	for _, no := range slices.Sorted(maps.Keys(open)) {
		meta := commands.Meta{CommandID: process.TimerCommandID(ProcessName, "daily/"+no, at), Actor: "system"}
		if _, err := p.cmd.AccrueInterest(ctx, meta, credit.Accrue{MemberID: open[no], OrderNo: no, Through: through}); err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			p.log.WarnContext(ctx, "loan interest failed; it runs again", "loan", no, "err", err)
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
