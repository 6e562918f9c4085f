// Package alerts is price alerts' HTTP side: a member's alerts (set, list, cancel), the in-app
// notifications fired alerts make (list with the unread count, mark read), and the push of a
// fired alert to the member's sockets, followed from the event log.
package alerts

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/api/httpx"
	"github.com/lotbook/lotbook/api/wire"
	"github.com/lotbook/lotbook/commands"
	alertcmd "github.com/lotbook/lotbook/commands/alerts"
	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/market"
	"github.com/lotbook/lotbook/projections"
	readalerts "github.com/lotbook/lotbook/projections/alerts"

	// The price alerts' process manager registers itself (process.Register) when linked in.
	_ "github.com/lotbook/lotbook/commands/alerts/watch"
)

// Commands are the write side's operations this module sends (*alertcmd.Commands).
type Commands interface {
	SetAlert(ctx context.Context, meta commands.Meta, in alertcmd.Input) (alertcmd.Set, error)
	CancelAlert(ctx context.Context, meta commands.Meta, memberID, alertID string) (commands.Result, error)
	ReadNotifications(ctx context.Context, meta commands.Meta, memberID string, through int64) (commands.Result, error)
}

// Instruments is what the module reads of the market: a symbol's canonical code and names.
type Instruments interface {
	Instrument(symbol string) (market.Instrument, error)
}

// Module serves the price alerts' routes and pushes.
type Module struct {
	cmd   Commands
	read  *projections.ReadDB
	mkt   Instruments
	store events.Store
	log   *slog.Logger
}

// New is the price alerts module over its commands, the read models, the market's instruments
// and the event log (which its pushes follow).
func New(cmd Commands, read *projections.ReadDB, mkt Instruments, store events.Store, log *slog.Logger) *Module {
	if log == nil {
		log = slog.Default()
	}
	return &Module{cmd: cmd, read: read, mkt: mkt, store: store, log: log}
}

// Routes are the price alerts' operations of openapi.yaml.
func (m *Module) Routes() []httpx.Route {
	return []httpx.Route{
		httpx.Op(httpx.Member, "GET", "/api/vue/alerts", httpx.IdemNone, m.list),
		httpx.Op(httpx.Member, "POST", "/api/vue/alerts", httpx.IdemRequired, m.set),
		httpx.Op(httpx.Member, "DELETE", "/api/vue/alerts/{alertId}", httpx.IdemRequired, m.cancel),
		httpx.Op(httpx.Member, "GET", "/api/vue/alerts/notifications", httpx.IdemNone, m.notifications),
		httpx.Op(httpx.Member, "POST", "/api/vue/alerts/notifications/read", httpx.IdemRequired, m.markRead),
	}
}

var errNotFound = httpx.Refuse(http.StatusNotFound, wire.MessageKeyAlertNotFound, nil)

func (m *Module) names(symbol string) (string, string) {
	in, err := m.mkt.Instrument(symbol)
	if err != nil {
		return symbol, symbol
	}
	return in.Name, in.NameEN
}

// alertOut maps an alert of the read model.
func (m *Module) alertOut(a readalerts.Alert) wire.PriceAlert {
	name, nameEN := m.names(a.Symbol)
	out := wire.PriceAlert{Id: a.ID, Symbol: a.Symbol, Name: name, NameEn: nameEN, Kind: wire.PriceAlertKind(a.Kind),
		Value: a.Value.String(), Status: wire.PriceAlertStatus(a.Status), CreatedAt: a.CreatedAt.UTC(), Position: a.Position}
	if a.Status == readalerts.StatusTriggered {
		price, prev, at, pos := httpx.Money(a.Price), httpx.Money(a.PrevClose), a.FiredAt.UTC(), a.FiredPosition
		out.Price, out.PrevClose, out.FiredAt, out.FiredPosition = &price, &prev, &at, &pos
	}
	return out
}

func (m *Module) list(c *httpx.Call) (httpx.Reply, error) {
	as, err := readalerts.List(c.Ctx(), m.read.Reader, c.Sess.MemberID)
	if err != nil {
		return httpx.Reply{}, fmt.Errorf("alerts of %s: %w", c.Sess.MemberID, err)
	}
	out := wire.PriceAlertList{Items: make([]wire.PriceAlert, 0, len(as)), MaxActive: alertcmd.MaxActive}
	for _, a := range as {
		if a.Status == readalerts.StatusActive {
			out.Active++
		}
		out.Items = append(out.Items, m.alertOut(a))
	}
	return httpx.OK(out)
}

func (m *Module) set(c *httpx.Call) (httpx.Reply, error) {
	var req wire.PriceAlertRequest
	if err := c.Decode("PriceAlertRequest", &req); err != nil {
		return httpx.Reply{}, err
	}
	if !alertcmd.ValidKind(req.Kind) {
		return httpx.Reply{}, httpx.Refuse(http.StatusBadRequest, wire.MessageKeyAlertKindInvalid, nil)
	}
	value, err := decimal.NewFromString(strings.TrimSpace(req.Value))
	if err != nil || len(req.Value) > 20 {
		return httpx.Reply{}, httpx.Refuse(http.StatusBadRequest, wire.MessageKeyAlertValueInvalid, err)
	}
	in, err := m.mkt.Instrument(strings.ToUpper(strings.TrimSpace(req.Symbol)))
	if err != nil || in.Type == "index" {
		return httpx.Reply{}, httpx.Refuse(http.StatusNotFound, wire.MessageKeyNotFound, err)
	}
	res, err := m.cmd.SetAlert(c.Ctx(), c.Meta(), alertcmd.Input{MemberID: c.Sess.MemberID, Symbol: in.Symbol, Kind: req.Kind, Value: value})
	if err != nil {
		return httpx.Reply{}, err
	}
	id := res.AlertID
	return httpx.Reply{Key: wire.MessageKeyAlertSet, Data: wire.PriceAlertResult{AlertId: &id, Position: res.Position}}, nil
}

func (m *Module) cancel(c *httpx.Call) (httpx.Reply, error) {
	id := c.Var("alertId")
	// The member's own alert only: another's is not found (the member part knows only theirs).
	res, err := m.cmd.CancelAlert(c.Ctx(), c.Meta(), c.Sess.MemberID, id)
	if err != nil {
		return httpx.Reply{}, err
	}
	return httpx.Reply{Key: wire.MessageKeyAlertCancelled, Data: wire.PriceAlertResult{AlertId: &id, Position: res.Position}}, nil
}

func (m *Module) notifications(c *httpx.Call) (httpx.Reply, error) {
	items, through, unread, err := readalerts.Notifications(c.Ctx(), m.read.Reader, c.Sess.MemberID)
	if err != nil {
		return httpx.Reply{}, fmt.Errorf("notifications of %s: %w", c.Sess.MemberID, err)
	}
	out := wire.AlertNotifications{Items: make([]wire.PriceAlert, 0, len(items)), Unread: int(unread), Through: through}
	for _, a := range items {
		out.Items = append(out.Items, m.alertOut(a))
	}
	return httpx.OK(out)
}

func (m *Module) markRead(c *httpx.Call) (httpx.Reply, error) {
	var req wire.AlertReadRequest
	if err := c.Decode("AlertReadRequest", &req); err != nil {
		return httpx.Reply{}, err
	}
	head, err := m.store.Head(c.Ctx())
	if err != nil {
		return httpx.Reply{}, fmt.Errorf("store head: %w", err)
	}
	if req.Through < 0 || req.Through > head {
		return httpx.Reply{}, httpx.InvalidRequest(fmt.Errorf("through %d beyond the head %d", req.Through, head))
	}
	res, err := m.cmd.ReadNotifications(c.Ctx(), c.Meta(), c.Sess.MemberID, req.Through)
	if err != nil {
		return httpx.Reply{}, err
	}
	return httpx.OK(wire.PriceAlertResult{Position: res.Position})
}

// Push follows the event log and pushes every fired alert to its member's sockets
// (httpx.Pusher): a member online sees it at once, wherever the alert was fired.
func (m *Module) Push(ctx context.Context, s httpx.Sockets) error {
	return httpx.FollowLog(ctx, m.store, m.log, "alert push", func(ctx context.Context, r events.RecordedEvent) { m.push(ctx, s, r) })
}

func (m *Module) push(ctx context.Context, s httpx.Sockets, r events.RecordedEvent) {
	memberID, ok := strings.CutPrefix(r.Stream, events.MemberStream(""))
	if !ok || !strings.HasPrefix(r.Type, "AlertFired.") {
		return
	}
	p, err := events.DecodeRecorded(r)
	if err != nil {
		m.log.ErrorContext(ctx, "alert push: decode", "position", r.Position, "err", err)
		return
	}
	e, ok := p.(events.AlertFired)
	if !ok {
		return
	}
	pos := r.Position
	a := readalerts.Alert{ID: e.AlertID, MemberID: memberID, Symbol: e.Symbol, Kind: e.Kind, Status: readalerts.StatusTriggered,
		Value: e.Value, Price: e.Price, PrevClose: e.PrevClose, CreatedAt: r.Metadata.ServerTime, FiredAt: r.Metadata.ServerTime,
		Position: pos, FiredPosition: pos}
	s.ToMember(memberID, wire.WsAlertFrame{Type: wire.WsAlertFrameTypeAlert, Alert: m.alertOut(a), Position: &pos})
}
