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
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"strings"
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
	Feed       *process.Feed    // the log reader shared by the stack's processes (nil: its own)
	Clock      func() time.Time // time.Now when nil
	Logger     *slog.Logger
	Registerer prometheus.Registerer
}

func init() {
	process.Register(ProcessName, func(d process.Deps) process.Runner {
		return New(Config{Commands: lending.New(d.Commands), Store: d.Store, Feed: d.Feed, Clock: d.Clock, Logger: d.Logger, Registerer: d.Registerer})
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
	*process.Runtime
	process.EventSet
	process.Fold[map[string]take] // lend no -> its take

	cmd Repairer
}

// New prepares the sweep; Run runs it.
func New(cfg Config) *Process {
	p := &Process{cmd: cfg.Commands, EventSet: process.Events("LendingQuotaTaken", "LendingQuotaReleased", "StockLent"),
		Fold: process.NewFold(func() map[string]take { return map[string]take{} }, nil)}
	p.Runtime = process.New(process.Config{Name: ProcessName, Store: cfg.Store, Feed: cfg.Feed, Manager: p, Clock: process.SystemClock(cfg.Clock),
		Logger: cfg.Logger, Registerer: cfg.Registerer,
		Timers: []process.Timer{{Name: "sweep", Next: process.Every(time.Minute), Fire: func(ctx context.Context, at time.Time, _ string) error {
			return p.Sweep(ctx, at)
		}}}})
	return p
}

// Handle implements process.Manager.
func (p *Process) Handle(_ context.Context, r events.RecordedEvent, pl events.Payload) error {
	pending := *p.Lock()
	defer p.Unlock()
	switch e := pl.(type) {
	case events.LendingQuotaTaken:
		symbol, ok := strings.CutPrefix(r.Stream, events.LendingStream(""))
		if !ok {
			return fmt.Errorf("quota taken at %d is not on a lending stream", r.Position)
		}
		pending[e.LendNo] = take{Member: e.MemberID, Symbol: symbol, At: r.Metadata.ServerTime}
	case events.LendingQuotaReleased:
		delete(pending, e.LendNo)
	case events.StockLent:
		delete(pending, e.LendNo)
	}
	return nil
}

// Sweep repairs every take older than Grace at at.
func (p *Process) Sweep(ctx context.Context, at time.Time) error {
	pending := *p.Lock()
	var due []string
	for _, no := range slices.Sorted(maps.Keys(pending)) {
		if at.Sub(pending[no].At) >= Grace {
			due = append(due, no)
		}
	}
	takes := make([]take, len(due))
	for i, no := range due {
		takes[i] = pending[no]
	}
	p.Unlock()
	var errs []error
	for i, no := range due {
		t := takes[i]
		_, err := p.cmd.Repair(ctx, commands.Meta{CommandID: ProcessName + "/" + no, Actor: "system"}, t.Member, t.Symbol, no)
		if err == nil {
			p.Logger().InfoContext(ctx, "lending quota taken but never lent: given back", "lend", no, "symbol", t.Symbol)
			continue
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if e, ok := commands.AsError(err); ok && e.Kind != commands.KindUnavailable {
			p.Logger().WarnContext(ctx, "lending repair refused", "lend", no, "err", err)
			continue
		}
		errs = append(errs, fmt.Errorf("repair of lending %s: %w", no, err))
	}
	return errors.Join(errs...)
}
