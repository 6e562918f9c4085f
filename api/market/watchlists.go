package market

import (
	"context"
	"fmt"
	"strings"

	"github.com/lotbook/lotbook/api/httpx"
	"github.com/lotbook/lotbook/api/wire"
	"github.com/lotbook/lotbook/commands"
	favoritecmd "github.com/lotbook/lotbook/commands/favorites"
	"github.com/lotbook/lotbook/commands/rules/watchlist"
	"github.com/lotbook/lotbook/projections/favorites"
)

// WatchlistCommands are the watchlist groups' operations (*favoritecmd.Commands).
type WatchlistCommands interface {
	CreateGroup(ctx context.Context, meta commands.Meta, memberID, name string) (favoritecmd.GroupResult, error)
	RenameGroup(ctx context.Context, meta commands.Meta, memberID, groupID, name string) (favoritecmd.GroupResult, error)
	DeleteGroup(ctx context.Context, meta commands.Meta, memberID, groupID string) (favoritecmd.GroupResult, error)
	AddToGroup(ctx context.Context, meta commands.Meta, in favoritecmd.GroupSymbol) (commands.Result, error)
	RemoveFromGroup(ctx context.Context, meta commands.Meta, in favoritecmd.GroupSymbol) (commands.Result, error)
	MoveInGroup(ctx context.Context, meta commands.Meta, in favoritecmd.GroupSymbol, to int) (commands.Result, error)
	PinInGroup(ctx context.Context, meta commands.Meta, in favoritecmd.GroupSymbol, pinned bool) (commands.Result, error)
}

// watchlistRoutes are the watchlist groups' operations of openapi.yaml.
func (m *Module) watchlistRoutes() []httpx.Route {
	return []httpx.Route{
		httpx.Op(httpx.Member, "GET", "/api/vue/user/watchlists", httpx.IdemNone, m.watchlists),
		httpx.Op(httpx.Member, "POST", "/api/vue/user/watchlists", httpx.IdemRequired, m.createGroup),
		httpx.Op(httpx.Member, "DELETE", "/api/vue/user/watchlists/{groupId}", httpx.IdemRequired, m.deleteGroup),
		httpx.Op(httpx.Member, "POST", "/api/vue/user/watchlists/{groupId}/rename", httpx.IdemRequired, m.renameGroup),
		httpx.Op(httpx.Member, "POST", "/api/vue/user/watchlists/{groupId}/symbols", httpx.IdemRequired, m.addToGroup),
		httpx.Op(httpx.Member, "DELETE", "/api/vue/user/watchlists/{groupId}/symbols/{symbol}", httpx.IdemRequired, m.removeFromGroup),
		httpx.Op(httpx.Member, "POST", "/api/vue/user/watchlists/{groupId}/symbols/{symbol}/move", httpx.IdemRequired, m.moveInGroup),
		httpx.Op(httpx.Member, "POST", "/api/vue/user/watchlists/{groupId}/symbols/{symbol}/pin", httpx.IdemRequired, m.pinInGroup),
	}
}

func (m *Module) watchlists(c *httpx.Call) (httpx.Reply, error) {
	b, err := favorites.Watchlist(c.Ctx(), m.read.Reader, c.Sess.MemberID)
	if err != nil {
		return httpx.Reply{}, fmt.Errorf("watchlist of %s: %w", c.Sess.MemberID, err)
	}
	out := wire.WatchlistGroups{Groups: make([]wire.WatchlistGroup, 0, len(b.Groups)), MaxGroups: watchlist.MaxGroups, MaxSymbols: watchlist.MaxSymbols}
	for _, g := range b.Groups {
		wg := wire.WatchlistGroup{Id: g.ID, Name: g.Name, IsDefault: g.ID == b.Groups[0].ID, Symbols: make([]wire.WatchlistItem, 0, len(g.Items))}
		for _, it := range g.Items {
			name, nameEN := it.Symbol, it.Symbol
			if in, err := m.feed.Instrument(it.Symbol); err == nil {
				name, nameEN = in.Name, in.NameEN
			}
			wg.Symbols = append(wg.Symbols, wire.WatchlistItem{Symbol: it.Symbol, Name: name, NameEn: nameEN, Pinned: it.Pinned})
		}
		out.Groups = append(out.Groups, wg)
	}
	return httpx.OK(out)
}

func (m *Module) createGroup(c *httpx.Call) (httpx.Reply, error) {
	var req wire.WatchlistGroupRequest
	if err := c.Decode("WatchlistGroupRequest", &req); err != nil {
		return httpx.Reply{}, err
	}
	res, err := m.cmd.CreateGroup(c.Ctx(), c.Meta(), c.Sess.MemberID, req.Name)
	if err != nil {
		return httpx.Reply{}, err
	}
	return httpx.OK(wire.WatchlistGroupResult{GroupId: res.GroupID, Position: res.Position})
}

func (m *Module) renameGroup(c *httpx.Call) (httpx.Reply, error) {
	var req wire.WatchlistGroupRequest
	if err := c.Decode("WatchlistGroupRequest", &req); err != nil {
		return httpx.Reply{}, err
	}
	res, err := m.cmd.RenameGroup(c.Ctx(), c.Meta(), c.Sess.MemberID, c.Var("groupId"), req.Name)
	if err != nil {
		return httpx.Reply{}, err
	}
	return httpx.OK(wire.WatchlistGroupResult{GroupId: res.GroupID, Position: res.Position})
}

func (m *Module) deleteGroup(c *httpx.Call) (httpx.Reply, error) {
	res, err := m.cmd.DeleteGroup(c.Ctx(), c.Meta(), c.Sess.MemberID, c.Var("groupId"))
	if err != nil {
		return httpx.Reply{}, err
	}
	return httpx.OK(wire.WatchlistGroupResult{GroupId: res.GroupID, Position: res.Position})
}

// groupSymbol is the group and symbol the call names: a stock or ETF the market knows.
func (m *Module) groupSymbol(c *httpx.Call, symbol string) (favoritecmd.GroupSymbol, error) {
	sym, err := m.favoriteSymbol(strings.ToUpper(strings.TrimSpace(symbol)))
	if err != nil {
		return favoritecmd.GroupSymbol{}, err
	}
	return favoritecmd.GroupSymbol{MemberID: c.Sess.MemberID, GroupID: c.Var("groupId"), Symbol: sym}, nil
}

func symbolOut(in favoritecmd.GroupSymbol, res commands.Result) (httpx.Reply, error) {
	return httpx.OK(wire.WatchlistSymbolResult{GroupId: in.GroupID, Symbol: in.Symbol, Position: res.Position})
}

func (m *Module) addToGroup(c *httpx.Call) (httpx.Reply, error) {
	var req wire.FavoriteRequest
	if err := c.Decode("FavoriteRequest", &req); err != nil {
		return httpx.Reply{}, err
	}
	in, err := m.groupSymbol(c, req.Symbol)
	if err != nil {
		return httpx.Reply{}, err
	}
	res, err := m.cmd.AddToGroup(c.Ctx(), c.Meta(), in)
	if err != nil {
		return httpx.Reply{}, err
	}
	return symbolOut(in, res)
}

func (m *Module) removeFromGroup(c *httpx.Call) (httpx.Reply, error) {
	in, err := m.groupSymbol(c, c.Var("symbol"))
	if err != nil {
		return httpx.Reply{}, err
	}
	res, err := m.cmd.RemoveFromGroup(c.Ctx(), c.Meta(), in)
	if err != nil {
		return httpx.Reply{}, err
	}
	return symbolOut(in, res)
}

func (m *Module) moveInGroup(c *httpx.Call) (httpx.Reply, error) {
	var req wire.WatchlistMoveRequest
	if err := c.Decode("WatchlistMoveRequest", &req); err != nil {
		return httpx.Reply{}, err
	}
	in, err := m.groupSymbol(c, c.Var("symbol"))
	if err != nil {
		return httpx.Reply{}, err
	}
	res, err := m.cmd.MoveInGroup(c.Ctx(), c.Meta(), in, req.To)
	if err != nil {
		return httpx.Reply{}, err
	}
	return symbolOut(in, res)
}

func (m *Module) pinInGroup(c *httpx.Call) (httpx.Reply, error) {
	var req wire.WatchlistPinRequest
	if err := c.Decode("WatchlistPinRequest", &req); err != nil {
		return httpx.Reply{}, err
	}
	in, err := m.groupSymbol(c, c.Var("symbol"))
	if err != nil {
		return httpx.Reply{}, err
	}
	res, err := m.cmd.PinInGroup(c.Ctx(), c.Meta(), in, req.Pinned)
	if err != nil {
		return httpx.Reply{}, err
	}
	return symbolOut(in, res)
}
