// Package settle is the coupons' process manager: it folds the orders that carry a reserved
// coupon and, when trading's events say such an order is done (its last fill, a cancellation, an
// expiry), sends coupons.Settle for it, which pays the commission discount or gives the use back.
// Command ids derive from the event that ended the order (process.EventCommandID), so an event
// handled again applies once.
package settle

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/commands/coupons"
	"github.com/lotbook/lotbook/commands/process"
	"github.com/lotbook/lotbook/events"
)

// ProcessName names the manager's checkpoint, metrics and command ids.
const ProcessName = "coupon-settle"

// Settler sends the settlement of an order's coupon (*coupons.Commands).
type Settler interface {
	Settle(ctx context.Context, meta commands.Meta, memberID, orderNo string) (coupons.Result, error)
}

// Manager is the process manager.
type Manager struct {
	*process.Runtime
	process.EventSet
	process.Fold[map[string]bool] // "<member id>/<order no>" with a coupon waiting for the order to be done

	cmd Settler
}

// Config wires a Manager.
type Config struct {
	Commands   Settler
	Store      events.Store
	Feed       *process.Feed // the log reader shared by the stack's processes (nil: its own)
	Clock      func() time.Time
	Logger     *slog.Logger
	Registerer prometheus.Registerer
}

func init() {
	process.Register(ProcessName, func(d process.Deps) process.Runner {
		return New(Config{Commands: coupons.New(d.Commands), Store: d.Store, Feed: d.Feed, Clock: d.Clock, Logger: d.Logger, Registerer: d.Registerer})
	})
}

// New prepares the manager; Run runs it.
func New(cfg Config) *Manager {
	m := &Manager{cmd: cfg.Commands,
		EventSet: process.Events("CouponReserved", "CouponRedeemed", "CouponReleased", "OrderFilled", "OrderCancelled", "OrderExpired"),
		Fold:     process.NewFold(func() map[string]bool { return map[string]bool{} }, nil)}
	m.Runtime = process.New(process.Config{Name: ProcessName, Store: cfg.Store, Feed: cfg.Feed, Manager: m, Clock: process.SystemClock(cfg.Clock),
		Logger: cfg.Logger, Registerer: cfg.Registerer})
	return m
}

// Handle implements process.Manager.
func (m *Manager) Handle(ctx context.Context, r events.RecordedEvent, p events.Payload) error {
	member, ok := strings.CutPrefix(r.Stream, events.AccountStream(""))
	if !ok {
		return nil
	}
	var orderNo string
	switch e := p.(type) {
	case events.CouponReserved:
		m.set(member+"/"+e.OrderNo, true)
		return nil
	case events.CouponRedeemed:
		m.set(member+"/"+e.OrderNo, false)
		return nil
	case events.CouponReleased:
		m.set(member+"/"+e.OrderNo, false)
		return nil
	case events.OrderFilled:
		if e.Remaining != 0 {
			return nil
		}
		orderNo = e.OrderNo
	case events.OrderCancelled:
		orderNo = e.OrderNo
	case events.OrderExpired:
		orderNo = e.OrderNo
	default:
		return nil
	}
	waiting := (*m.Lock())[member+"/"+orderNo]
	m.Unlock()
	if !waiting {
		return nil
	}
	id := process.EventCommandID(ProcessName, r, 0)
	if _, err := m.cmd.Settle(ctx, commands.Meta{CommandID: id, Actor: "system", CorrelationID: r.Metadata.CorrelationID}, member, orderNo); err != nil {
		return fmt.Errorf("settle the coupon of order %s: %w", orderNo, err)
	}
	return nil
}

func (m *Manager) set(key string, on bool) {
	reserved := *m.Lock()
	defer m.Unlock()
	if on {
		reserved[key] = true
	} else {
		delete(reserved, key)
	}
}
