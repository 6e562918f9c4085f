// Package fee is the process manager that pays stock lending fees: it folds the active lendings
// from the log and, at the start of every Asia/Taipei day, sends each one's accrual through the
// day before, at each trading day's close. The accrual command pays only days not yet paid
// (commands/lending), and its id is derived from the lending and the timer's occurrence
// (process.TimerCommandID), so a restart, a retry or a second instance pays a day once; after
// downtime the next occurrence pays every day missed.
package fee

import (
	"context"
	"log/slog"
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

// Config wires the process.
type Config struct {
	Commands   Accruer
	Closes     lending.Closes
	Store      events.Store
	Feed       *process.Feed    // the log reader shared by the stack's processes (nil: its own)
	Clock      func() time.Time // time.Now when nil
	Logger     *slog.Logger
	Registerer prometheus.Registerer
}

func init() {
	process.Register(ProcessName, func(d process.Deps) process.Runner {
		return New(Config{Commands: lending.New(d.Commands), Closes: lending.MarketCloses{M: d.Market}, Store: d.Store, Feed: d.Feed, Clock: d.Clock,
			Logger: d.Logger, Registerer: d.Registerer})
	})
}

// New prepares the process: it folds active lendings and pays their fees daily.
func New(cfg Config) *process.DailySteps {
	return process.NewDailySteps(process.DailyStepsConfig{Name: ProcessName, Types: []string{"StockLent", "StockRecalled"},
		Item: func(pl events.Payload) (string, bool) {
			switch e := pl.(type) {
			case events.StockLent:
				return e.LendNo, true
			case events.StockRecalled:
				return e.LendNo, false
			}
			return "", false
		},
		Send: func(ctx context.Context, meta commands.Meta, member, no, through string) error {
			_, err := cfg.Commands.AccrueFees(ctx, meta, lending.Accrue{MemberID: member, LendNo: no, Through: through}, cfg.Closes)
			return err
		},
		Store: cfg.Store, Feed: cfg.Feed, Clock: cfg.Clock, Logger: cfg.Logger, Registerer: cfg.Registerer})
}
