// Package alerts is price alerts on the write side: the member part "alerts" holds the member's
// alerts (active, cancelled, fired) and how far they have read the notifications fired alerts
// made. A member sets and cancels alerts; the alerts process manager (commands/alerts/watch)
// fires one, once, when the market crosses it. See events/alert_events.go and Crossed.
package alerts

import (
	"context"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/events"
)

// Message keys of price alerts.
const (
	KeyAlertNotFound     = "alert_not_found"
	KeyAlertNotActive    = "alert_not_active"
	KeyAlertLimitReached = "alert_limit_reached"
	KeyAlertValueInvalid = "alert_value_invalid"
	KeyAlertKindInvalid  = "alert_kind_invalid"
)

// MaxActive is how many active alerts a member may have at once.
const MaxActive = 50

// Alert states.
const (
	StatusActive    = "active"
	StatusFired     = "triggered"
	StatusCancelled = "cancelled"
)

const alertPrefix = "AL"

type alert struct {
	symbol, kind, status string
	value                decimal.Decimal
}

// book is the member's alerts.
type book struct {
	alerts map[string]*alert
	active int
	read   int64 // notifications read through this global position
}

var bookPart = commands.RegisterMemberPart("alerts", func(string) *book { return &book{alerts: map[string]*alert{}} })

// Apply evolves the member's alerts.
func (b *book) Apply(_ events.RecordedEvent, p events.Payload) {
	switch e := p.(type) {
	case events.AlertSet:
		b.alerts[e.AlertID] = &alert{symbol: e.Symbol, kind: e.Kind, value: e.Value, status: StatusActive}
		b.active++
	case events.AlertCancelled:
		b.end(e.AlertID, StatusCancelled)
	case events.AlertFired:
		b.end(e.AlertID, StatusFired)
	case events.AlertNotificationsRead:
		b.read = max(b.read, e.Through)
	}
}

func (b *book) end(id, status string) {
	if a := b.alerts[id]; a != nil && a.status == StatusActive {
		a.status = status
		b.active--
	}
}

// validSymbol: upper-case letters and digits, as the market's canonical codes are.
func validSymbol(sym string) bool {
	return sym != "" && len(sym) <= 12 && strings.Trim(sym, "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ") == ""
}

// Input is a new alert: a symbol the caller has checked exists, a kind and its value.
type Input struct {
	MemberID, Symbol, Kind string
	Value                  decimal.Decimal
}

// decideSet sets an alert under id, within the member's limit.
func decideSet(m *commands.Member, id string, in Input) ([]events.Payload, error) {
	if !m.Registered() {
		return nil, commands.NotFound(commands.KeyAccountNotExist)
	}
	if err := m.RefuseFlags(events.FlagDisabled); err != nil {
		return nil, err
	}
	b := bookPart.Of(m)
	if b.alerts[id] != nil {
		return nil, nil
	}
	if b.active >= MaxActive {
		return nil, commands.Rule(KeyAlertLimitReached)
	}
	return []events.Payload{events.AlertSet{AlertID: id, Symbol: in.Symbol, Kind: in.Kind, Value: in.Value}}, nil
}

// decideCancel cancels the member's active alert; another member's id is not found.
func decideCancel(m *commands.Member, id string) ([]events.Payload, error) {
	if !m.Registered() {
		return nil, commands.NotFound(commands.KeyAccountNotExist)
	}
	a := bookPart.Of(m).alerts[id]
	switch {
	case a == nil:
		return nil, commands.NotFound(KeyAlertNotFound)
	case a.status != StatusActive:
		return nil, commands.Rule(KeyAlertNotActive)
	}
	return []events.Payload{events.AlertCancelled{AlertID: id}}, nil
}

// Fire is a quote that crossed an alert.
type Fire struct {
	MemberID, AlertID string
	Price, PrevClose  decimal.Decimal
	QuoteTime         time.Time
}

// decideFire fires an active alert once; one no longer active (fired, cancelled) stays as it is.
func decideFire(m *commands.Member, f Fire) ([]events.Payload, error) {
	a := bookPart.Of(m).alerts[f.AlertID]
	if a == nil || a.status != StatusActive {
		return nil, nil
	}
	return []events.Payload{events.AlertFired{AlertID: f.AlertID, Symbol: a.symbol, Kind: a.kind, Value: a.value,
		Price: f.Price, PrevClose: f.PrevClose, QuoteTime: f.QuoteTime.UTC()}}, nil
}

// Commands are price alerts' commands over the kernel k.
type Commands struct{ k *commands.Service }

// New returns price alerts' commands over the kernel k.
func New(k *commands.Service) *Commands { return &Commands{k: k} }

// Set is a set alert: its id and the event's position.
type Set struct {
	AlertID  string
	Position int64
}

// SetAlert sets a price alert for the member. The id derives from the command id, so a retried
// request sets one alert.
func (s *Commands) SetAlert(ctx context.Context, meta commands.Meta, in Input) (Set, error) {
	c, err := s.k.Begin(meta, "alert.set")
	if err != nil {
		return Set{}, err
	}
	if !validSymbol(in.Symbol) {
		return Set{}, commands.Invalid(commands.KeyInvalidRequest)
	}
	if !ValidKind(in.Kind) {
		return Set{}, commands.Invalid(KeyAlertKindInvalid)
	}
	if !ValidValue(in.Kind, in.Value) {
		return Set{}, commands.Invalid(KeyAlertValueInvalid)
	}
	in.Value = in.Value.Truncate(2)
	id := c.OrderNumbers(alertPrefix, in.MemberID)(0)
	rec, err := s.k.MemberCommand(ctx, c, in.MemberID, func(m *commands.Member) ([]events.Payload, error) { return decideSet(m, id, in) })
	if err != nil {
		return Set{}, err
	}
	return Set{AlertID: id, Position: rec.Position}, nil
}

// CancelAlert cancels the member's active alert.
func (s *Commands) CancelAlert(ctx context.Context, meta commands.Meta, memberID, alertID string) (commands.Result, error) {
	c, err := s.k.Begin(meta, "alert.cancel")
	if err != nil {
		return commands.Result{}, err
	}
	rec, err := s.k.MemberCommand(ctx, c, memberID, func(m *commands.Member) ([]events.Payload, error) { return decideCancel(m, alertID) })
	if err != nil {
		return commands.Result{}, err
	}
	return commands.Result{Position: rec.Position}, nil
}

// FireAlert fires the alert at the quote that crossed it; the alerts process calls it with a
// command id derived from the alert, so the alert fires once however often it is sent.
func (s *Commands) FireAlert(ctx context.Context, meta commands.Meta, f Fire) (commands.Result, error) {
	c, err := s.k.Begin(meta, "alert.fire")
	if err != nil {
		return commands.Result{}, err
	}
	rec, err := s.k.MemberCommand(ctx, c, f.MemberID, func(m *commands.Member) ([]events.Payload, error) { return decideFire(m, f) })
	if err != nil {
		return commands.Result{}, err
	}
	return commands.Result{Position: rec.Position}, nil
}

// ReadNotifications marks the member's notifications read through a global position (one
// already read through changes nothing).
func (s *Commands) ReadNotifications(ctx context.Context, meta commands.Meta, memberID string, through int64) (commands.Result, error) {
	c, err := s.k.Begin(meta, "alert.read")
	if err != nil {
		return commands.Result{}, err
	}
	if through < 0 {
		return commands.Result{}, commands.Invalid(commands.KeyInvalidRequest)
	}
	rec, err := s.k.MemberCommand(ctx, c, memberID, func(m *commands.Member) ([]events.Payload, error) {
		if !m.Registered() {
			return nil, commands.NotFound(commands.KeyAccountNotExist)
		}
		if through <= bookPart.Of(m).read {
			return nil, nil
		}
		return []events.Payload{events.AlertNotificationsRead{Through: through}}, nil
	})
	if err != nil {
		return commands.Result{}, err
	}
	return commands.Result{Position: rec.Position}, nil
}

// ValidKind reports whether kind is an alert kind.
func ValidKind(kind string) bool {
	for _, k := range Kinds {
		if k == kind {
			return true
		}
	}
	return false
}
