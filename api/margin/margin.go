// Package margin is the HTTP side of additional credit margin (追繳保證金): a member puts
// available cash into one of its margin positions, typically under a margin call.
package margin

import (
	"context"

	"github.com/lotbook/lotbook/api/httpx"
	"github.com/lotbook/lotbook/api/wire"
	"github.com/lotbook/lotbook/commands"
	tradingcmd "github.com/lotbook/lotbook/commands/trading"
)

// Commands are the write side's operations this module sends (*trading.Commands).
type Commands interface {
	TopUpMargin(ctx context.Context, meta commands.Meta, in tradingcmd.TopUpMargin) (tradingcmd.TopUpResult, error)
}

// Module serves the margin top-up route.
type Module struct{ cmd Commands }

// New is the margin module over its commands.
func New(cmd Commands) *Module { return &Module{cmd: cmd} }

// Routes are the margin operations of openapi.yaml.
func (m *Module) Routes() []httpx.Route {
	return []httpx.Route{
		httpx.Op(httpx.Member, "POST", "/api/vue/trade/positions/{id}/topUp", httpx.IdemRequired, m.topUp),
	}
}

// topUp decides on the member's own account stream: another member's position is not found there.
func (m *Module) topUp(c *httpx.Call) (httpx.Reply, error) {
	var req wire.MarginTopUpRequest
	if err := c.Decode("MarginTopUpRequest", &req); err != nil {
		return httpx.Reply{}, err
	}
	id := c.Var("id")
	res, err := m.cmd.TopUpMargin(c.Ctx(), c.Meta(), tradingcmd.TopUpMargin{MemberID: c.Sess.MemberID, PositionID: id, Amount: req.Amount})
	if err != nil {
		return httpx.Reply{}, err
	}
	return httpx.Reply{Key: wire.MessageKeyMarginToppedUp, Data: wire.MarginTopUpResult{TopUpNo: res.TopUpNo, PositionId: id,
		Loan: httpx.Money(res.Loan), Margin: httpx.Money(res.Margin), Position: res.Position}}, nil
}
