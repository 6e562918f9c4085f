// Package interest is the process manager that accrues loan interest: it folds the outstanding
// loans from the log and, at the start of every Asia/Taipei day, sends each one's accrual through
// the day before. The accrual command charges only days not yet charged (commands/credit), and
// its id is derived from the loan and the timer's occurrence (process.TimerCommandID), so a
// restart, a retry or a second instance charges a day once.
package interest

import (
	"context"
	"log/slog"
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

// Config wires the process.
type Config struct {
	Commands   Accruer
	Store      events.Store
	Feed       *process.Feed    // the log reader shared by the stack's processes (nil: its own)
	Clock      func() time.Time // time.Now when nil
	Logger     *slog.Logger
	Registerer prometheus.Registerer
}

func init() {
	process.Register(ProcessName, func(d process.Deps) process.Runner {
		return New(Config{Commands: credit.New(d.Commands), Store: d.Store, Feed: d.Feed, Clock: d.Clock, Logger: d.Logger, Registerer: d.Registerer})
	})
}

// New prepares the process: it folds outstanding loans and accrues their interest daily.
func New(cfg Config) *process.DailySteps {
	return process.NewDailySteps(process.DailyStepsConfig{Name: ProcessName, Types: []string{"LoanDisbursed", "LoanRepaid"},
		Item: func(pl events.Payload) (string, bool) {
			switch e := pl.(type) {
			case events.LoanDisbursed:
				return e.OrderNo, true
			case events.LoanRepaid:
				return e.OrderNo, e.Outstanding.IsPositive()
			}
			return "", false
		},
		Send: func(ctx context.Context, meta commands.Meta, member, no, through string) error {
			_, err := cfg.Commands.AccrueInterest(ctx, meta, credit.Accrue{MemberID: member, OrderNo: no, Through: through})
			return err
		},
		Store: cfg.Store, Feed: cfg.Feed, Clock: cfg.Clock, Logger: cfg.Logger, Registerer: cfg.Registerer})
}
