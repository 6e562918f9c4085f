// Package settle is the coupons' process manager: it folds the orders that carry a reserved
// coupon and, when trading's events say such an order is done (its last fill, a cancellation, an
// expiry), sends coupons.Settle for it, which pays the commission discount or gives the use back.
// Command ids derive from the event that ended the order (process.EventCommandID), so an event
// handled again applies once.
package settle

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"sync"
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
	cmd Settler
	rt  *process.Runtime

	mu       sync.Mutex
	reserved map[string]bool // "<member id>/<order no>" with a coupon waiting for the order to be done
}

// Config wires a Manager.
type Config struct {
	Commands   Settler
	Store      events.Store
	Clock      func() time.Time
	Logger     *slog.Logger
	Registerer prometheus.Registerer
}

func init() {
	process.Register(ProcessName, func(d process.Deps) process.Runner {
		return New(Config{Commands: coupons.New(d.Commands), Store: d.Store, Clock: d.Clock, Logger: d.Logger, Registerer: d.Registerer})
	})
}

// New prepares the manager; Run runs it.
func New(cfg Config) *Manager {
	if cfg.Clock == nil {
		cfg.Clock = time.Now
	}
	m := &Manager{cmd: cfg.Commands, reserved: map[string]bool{}}
	m.rt = process.New(process.Config{Name: ProcessName, Store: cfg.Store, Manager: m, Clock: process.SystemClock(cfg.Clock),
		Logger: cfg.Logger, Registerer: cfg.Registerer})
	return m
}

// Run settles coupons until ctx ends.
func (m *Manager) Run(ctx context.Context) error {
	if err := m.rt.Run(ctx); err != nil {
		return fmt.Errorf("coupon settle: %w", err)
	}
	return nil
}

// WaitReady waits until the log at start is folded.
func (m *Manager) WaitReady(ctx context.Context) error { return m.rt.WaitReady(ctx) }

// Wants implements process.Manager.
func (m *Manager) Wants(typ string) bool {
	name, _, _ := strings.Cut(typ, ".")
	switch name {
	case "CouponReserved", "CouponRedeemed", "CouponReleased", "OrderFilled", "OrderCancelled", "OrderExpired":
		return true
	}
	return false
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
	m.mu.Lock()
	waiting := m.reserved[member+"/"+orderNo]
	m.mu.Unlock()
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
	m.mu.Lock()
	defer m.mu.Unlock()
	if on {
		m.reserved[key] = true
	} else {
		delete(m.reserved, key)
	}
}

// Snapshot implements process.Manager.
func (m *Manager) Snapshot() ([]byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return json.Marshal(m.reserved)
}

// Restore implements process.Manager.
func (m *Manager) Restore(state []byte) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.reserved = map[string]bool{}
	if len(state) == 0 {
		return nil
	}
	return json.Unmarshal(state, &m.reserved)
}
