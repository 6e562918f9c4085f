package process

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
	"github.com/lotbook/lotbook/events"
)

// DailyStepsConfig configures a DailySteps manager.
type DailyStepsConfig struct {
	Name string // checkpoint, metrics and command-id prefix
	// Types are the event names (without version) Item folds.
	Types []string
	// Item names the item an event is about and whether it is open after it.
	Item func(events.Payload) (no string, open bool)
	// Send sends one open item's step through the Taipei day through (YYYY-MM-DD), under meta.
	Send       func(ctx context.Context, meta commands.Meta, member, no, through string) error
	Store      events.Store
	Feed       *Feed            // the log reader shared by the stack's processes (nil: its own)
	Clock      func() time.Time // time.Now when nil
	Logger     *slog.Logger
	Registerer prometheus.Registerer
}

// DailySteps is a process manager for items of account streams that accrue by the day (a loan's
// interest, a lending's fee): it folds the open items from the log and, at the start of every
// Asia/Taipei day, sends each one's step through the day before. Command ids derive from the item
// and the timer's occurrence (TimerCommandID), so a restart, a retry or a second instance sends a
// day once; the commands themselves act only on days not yet done, so after downtime the next
// occurrence catches up.
type DailySteps struct {
	*Runtime
	EventSet
	Fold[map[string]string] // item no -> member id

	cfg DailyStepsConfig
}

// NewDailySteps prepares a DailySteps manager; Run runs it.
func NewDailySteps(cfg DailyStepsConfig) *DailySteps {
	d := &DailySteps{cfg: cfg, EventSet: Events(cfg.Types...),
		Fold: NewFold(func() map[string]string { return map[string]string{} }, nil)}
	d.Runtime = New(Config{Name: cfg.Name, Store: cfg.Store, Feed: cfg.Feed, Manager: d, Clock: SystemClock(cfg.Clock), Logger: cfg.Logger,
		Registerer: cfg.Registerer,
		Timers:     []Timer{{Name: "daily", Next: Daily(0, 0, commands.Taipei), Fire: func(ctx context.Context, at time.Time, _ string) error { return d.SendThrough(ctx, at) }}}})
	return d
}

// Handle implements Manager.
func (d *DailySteps) Handle(_ context.Context, r events.RecordedEvent, pl events.Payload) error {
	member, ok := strings.CutPrefix(r.Stream, events.AccountStream(""))
	if !ok {
		return fmt.Errorf("event %s at %d is not on an account stream", r.Type, r.Position)
	}
	no, isOpen := d.cfg.Item(pl)
	if no == "" {
		return fmt.Errorf("event %s at %d is not one the %s process folds", r.Type, r.Position, d.cfg.Name)
	}
	open := *d.Lock()
	defer d.Unlock()
	if isOpen {
		open[no] = member
	} else {
		delete(open, no)
	}
	return nil
}

// SendThrough sends each open item's step through the Taipei day before at, with command ids
// derived from at; a failed item is logged and the others still go.
func (d *DailySteps) SendThrough(ctx context.Context, at time.Time) error {
	through := at.In(commands.Taipei).AddDate(0, 0, -1).Format(time.DateOnly)
	open := maps.Clone(*d.Lock())
	d.Unlock()
	var errs []error
	for _, no := range slices.Sorted(maps.Keys(open)) {
		meta := commands.Meta{CommandID: TimerCommandID(d.cfg.Name, "daily/"+no, at), Actor: "system"}
		if err := d.cfg.Send(ctx, meta, open[no], no, through); err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			d.Logger().WarnContext(ctx, "daily step failed; it runs again", "item", no, "err", err)
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
