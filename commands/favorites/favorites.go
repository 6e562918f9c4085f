// Package favorites is the member's watchlist on the write side: named groups of symbols on the
// member stream (a part of the member aggregate, folded by commands/rules/watchlist). The default
// group is the favourites of old: FavoriteAdded and FavoriteRemoved add to and remove from it, so
// the favourite toggle keeps working and old favourites need no migration. Whether a symbol exists
// is the market's business: the API checks it before calling (commands knows no market); here a
// symbol only has to look like a code.
package favorites

import (
	"context"

	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/commands/rules/watchlist"
	"github.com/lotbook/lotbook/events"
)

// Message keys of the watchlist.
const (
	KeyGroupNotFound    = "watchlist_group_not_found"
	KeyGroupLimit       = "watchlist_group_limit"
	KeySymbolLimit      = "watchlist_symbol_limit"
	KeyNameInvalid      = "watchlist_name_invalid"
	KeyNameExists       = "watchlist_name_exists"
	KeyDefaultProtected = "watchlist_default_protected"
	KeySymbolNotInGroup = "watchlist_symbol_not_in_group"
	groupPrefix         = "WG"
)

// book is the member's watchlist groups.
type book struct{ *watchlist.Book }

var bookPart = commands.RegisterMemberPart("favorites", func(string) *book { return &book{watchlist.New()} })

// Apply evolves the member's watchlist.
func (b *book) Apply(_ events.RecordedEvent, p events.Payload) { b.Book.Apply(p) }

// maxSymbolLen bounds a code; TWSE and TPEx codes have 4 to 6 characters.
const maxSymbolLen = 12

// validSymbol: upper-case letters and digits, as the market's canonical codes are.
func validSymbol(sym string) bool {
	if sym == "" || len(sym) > maxSymbolLen {
		return false
	}
	for i := 0; i < len(sym); i++ {
		c := sym[i]
		if !(c >= '0' && c <= '9' || c >= 'A' && c <= 'Z') {
			return false
		}
	}
	return true
}

// decideFavorite adds (on) or removes a favourite; one already in that state changes nothing.
func decideFavorite(m *commands.Member, symbol string, on bool) ([]events.Payload, error) {
	if !m.Registered() {
		return nil, commands.NotFound(commands.KeyAccountNotExist)
	}
	if err := m.RefuseFlags(events.FlagDisabled); err != nil {
		return nil, err
	}
	g := bookPart.Of(m).Group(events.WatchlistDefault)
	if (g.Index(symbol) >= 0) == on {
		return nil, nil
	}
	if on {
		if len(g.Items) >= watchlist.MaxSymbols {
			return nil, commands.Rule(KeySymbolLimit)
		}
		return []events.Payload{events.FavoriteAdded{Symbol: symbol}}, nil
	}
	return []events.Payload{events.FavoriteRemoved{Symbol: symbol}}, nil
}

// Favorite is one symbol on (or off) a member's favourites.
type Favorite struct{ MemberID, Symbol string }

// Commands are the favourites' commands over the kernel k.
type Commands struct{ k *commands.Service }

// New returns the favourites' commands over the kernel k.
func New(k *commands.Service) *Commands { return &Commands{k: k} }

// AddFavorite puts symbol (a canonical code the caller has checked exists) on the member's
// favourites. Result.Position is the event's position, or the stream's when it was there already.
func (s *Commands) AddFavorite(ctx context.Context, meta commands.Meta, in Favorite) (commands.Result, error) {
	return s.favorite(ctx, meta, in.MemberID, in.Symbol, true)
}

// RemoveFavorite takes symbol off the member's favourites.
func (s *Commands) RemoveFavorite(ctx context.Context, meta commands.Meta, in Favorite) (commands.Result, error) {
	return s.favorite(ctx, meta, in.MemberID, in.Symbol, false)
}

func (s *Commands) favorite(ctx context.Context, meta commands.Meta, memberID, symbol string, on bool) (commands.Result, error) {
	c, err := s.k.Begin(meta, map[bool]string{true: "favorite.add", false: "favorite.remove"}[on])
	if err != nil {
		return commands.Result{}, err
	}
	if !validSymbol(symbol) {
		return commands.Result{}, commands.Invalid(commands.KeyInvalidRequest)
	}
	rec, err := s.k.MemberCommand(ctx, c, memberID, func(m *commands.Member) ([]events.Payload, error) {
		return decideFavorite(m, symbol, on)
	})
	if err != nil {
		return commands.Result{}, err
	}
	return commands.Result{Position: rec.Position}, nil
}

// watchBook is the registered, enabled member's watchlist.
func watchBook(m *commands.Member) (*watchlist.Book, error) {
	if !m.Registered() {
		return nil, commands.NotFound(commands.KeyAccountNotExist)
	}
	if err := m.RefuseFlags(events.FlagDisabled); err != nil {
		return nil, err
	}
	return bookPart.Of(m).Book, nil
}

// group is the member's group id; another member's (or none) is not found.
func group(b *watchlist.Book, id string) (*watchlist.Group, error) {
	g := b.Group(id)
	if g == nil {
		return nil, commands.NotFound(KeyGroupNotFound)
	}
	return g, nil
}

// decideCreate creates a group named name under id.
func decideCreate(m *commands.Member, id, name string) ([]events.Payload, error) {
	b, err := watchBook(m)
	if err != nil {
		return nil, err
	}
	if b.Group(id) != nil {
		return nil, nil // this command's group, already created
	}
	switch {
	case len(b.Groups) >= watchlist.MaxGroups:
		return nil, commands.Rule(KeyGroupLimit)
	case b.NameTaken(name, id):
		return nil, commands.Rule(KeyNameExists)
	}
	return []events.Payload{events.WatchlistGroupCreated{GroupID: id, Name: name}}, nil
}

// decideRename renames the member's group.
func decideRename(m *commands.Member, id, name string) ([]events.Payload, error) {
	b, err := watchBook(m)
	if err != nil {
		return nil, err
	}
	g, err := group(b, id)
	if err != nil {
		return nil, err
	}
	switch {
	case g.Name == name:
		return nil, nil
	case b.NameTaken(name, id):
		return nil, commands.Rule(KeyNameExists)
	}
	return []events.Payload{events.WatchlistGroupRenamed{GroupID: id, Name: name}}, nil
}

// decideDelete deletes the member's group; the default group stays.
func decideDelete(m *commands.Member, id string) ([]events.Payload, error) {
	b, err := watchBook(m)
	if err != nil {
		return nil, err
	}
	if id == events.WatchlistDefault {
		return nil, commands.Rule(KeyDefaultProtected)
	}
	if _, err := group(b, id); err != nil {
		return nil, err
	}
	return []events.Payload{events.WatchlistGroupDeleted{GroupID: id}}, nil
}

// decideSymbol adds (on) a symbol to the member's group or removes it; the default group's
// changes are the favourites' events.
func decideSymbol(m *commands.Member, id, symbol string, on bool) ([]events.Payload, error) {
	if id == events.WatchlistDefault {
		return decideFavorite(m, symbol, on)
	}
	b, err := watchBook(m)
	if err != nil {
		return nil, err
	}
	g, err := group(b, id)
	if err != nil {
		return nil, err
	}
	switch {
	case (g.Index(symbol) >= 0) == on:
		return nil, nil
	case on && len(g.Items) >= watchlist.MaxSymbols:
		return nil, commands.Rule(KeySymbolLimit)
	case on:
		return []events.Payload{events.WatchlistSymbolAdded{GroupID: id, Symbol: symbol}}, nil
	}
	return []events.Payload{events.WatchlistSymbolRemoved{GroupID: id, Symbol: symbol}}, nil
}

// decideMove moves a symbol of the member's group to index to (clamped: pinned symbols stay on
// top); one already there changes nothing.
func decideMove(m *commands.Member, id, symbol string, to int) ([]events.Payload, error) {
	g, i, err := symbolIn(m, id, symbol)
	if err != nil {
		return nil, err
	}
	to = g.Clamp(i, to)
	if to == i {
		return nil, nil
	}
	return []events.Payload{events.WatchlistSymbolMoved{GroupID: id, Symbol: symbol, To: to}}, nil
}

// decidePin pins (or unpins) a symbol of the member's group.
func decidePin(m *commands.Member, id, symbol string, pinned bool) ([]events.Payload, error) {
	g, i, err := symbolIn(m, id, symbol)
	if err != nil {
		return nil, err
	}
	if g.Items[i].Pinned == pinned && (!pinned || i == 0) {
		return nil, nil
	}
	return []events.Payload{events.WatchlistSymbolPinned{GroupID: id, Symbol: symbol, Pinned: pinned}}, nil
}

func symbolIn(m *commands.Member, id, symbol string) (*watchlist.Group, int, error) {
	b, err := watchBook(m)
	if err != nil {
		return nil, 0, err
	}
	g, err := group(b, id)
	if err != nil {
		return nil, 0, err
	}
	i := g.Index(symbol)
	if i < 0 {
		return nil, 0, commands.NotFound(KeySymbolNotInGroup)
	}
	return g, i, nil
}

// GroupResult is a group a command created or changed, with the event's position (the stream's
// when nothing changed).
type GroupResult struct {
	GroupID  string
	Position int64
}

// run runs one watchlist command on the member's stream.
func (s *Commands) run(ctx context.Context, meta commands.Meta, name, memberID string, decide func(c commands.Cmd, m *commands.Member) ([]events.Payload, error)) (int64, error) {
	c, err := s.k.Begin(meta, name)
	if err != nil {
		return 0, err
	}
	rec, err := s.k.MemberCommand(ctx, c, memberID, func(m *commands.Member) ([]events.Payload, error) { return decide(c, m) })
	if err != nil {
		return 0, err
	}
	return rec.Position, nil
}

// CreateGroup creates a named group; its id derives from the command id, so a retried request
// creates one group.
func (s *Commands) CreateGroup(ctx context.Context, meta commands.Meta, memberID, name string) (GroupResult, error) {
	name, ok := watchlist.CleanName(name)
	if !ok {
		return GroupResult{}, commands.Invalid(KeyNameInvalid)
	}
	var id string
	pos, err := s.run(ctx, meta, "watchlist.create", memberID, func(c commands.Cmd, m *commands.Member) ([]events.Payload, error) {
		id = c.OrderNumbers(groupPrefix, memberID)(0)
		return decideCreate(m, id, name)
	})
	return GroupResult{GroupID: id, Position: pos}, err
}

// RenameGroup renames the member's group.
func (s *Commands) RenameGroup(ctx context.Context, meta commands.Meta, memberID, groupID, name string) (GroupResult, error) {
	name, ok := watchlist.CleanName(name)
	if !ok {
		return GroupResult{}, commands.Invalid(KeyNameInvalid)
	}
	pos, err := s.run(ctx, meta, "watchlist.rename", memberID, func(_ commands.Cmd, m *commands.Member) ([]events.Payload, error) {
		return decideRename(m, groupID, name)
	})
	return GroupResult{GroupID: groupID, Position: pos}, err
}

// DeleteGroup deletes the member's group (not the default one).
func (s *Commands) DeleteGroup(ctx context.Context, meta commands.Meta, memberID, groupID string) (GroupResult, error) {
	pos, err := s.run(ctx, meta, "watchlist.delete", memberID, func(_ commands.Cmd, m *commands.Member) ([]events.Payload, error) {
		return decideDelete(m, groupID)
	})
	return GroupResult{GroupID: groupID, Position: pos}, err
}

// GroupSymbol is a symbol of one of a member's groups.
type GroupSymbol struct{ MemberID, GroupID, Symbol string }

// AddToGroup adds a symbol (a canonical code the caller has checked exists) to the member's group.
func (s *Commands) AddToGroup(ctx context.Context, meta commands.Meta, in GroupSymbol) (commands.Result, error) {
	return s.groupSymbol(ctx, meta, "watchlist.add", in, func(m *commands.Member) ([]events.Payload, error) {
		return decideSymbol(m, in.GroupID, in.Symbol, true)
	})
}

// RemoveFromGroup takes a symbol off the member's group.
func (s *Commands) RemoveFromGroup(ctx context.Context, meta commands.Meta, in GroupSymbol) (commands.Result, error) {
	return s.groupSymbol(ctx, meta, "watchlist.remove", in, func(m *commands.Member) ([]events.Payload, error) {
		return decideSymbol(m, in.GroupID, in.Symbol, false)
	})
}

// MoveInGroup moves a symbol of the member's group to index to.
func (s *Commands) MoveInGroup(ctx context.Context, meta commands.Meta, in GroupSymbol, to int) (commands.Result, error) {
	if to < 0 || to >= watchlist.MaxSymbols {
		return commands.Result{}, commands.Invalid(commands.KeyInvalidRequest)
	}
	return s.groupSymbol(ctx, meta, "watchlist.move", in, func(m *commands.Member) ([]events.Payload, error) {
		return decideMove(m, in.GroupID, in.Symbol, to)
	})
}

// PinInGroup pins (or unpins) a symbol of the member's group.
func (s *Commands) PinInGroup(ctx context.Context, meta commands.Meta, in GroupSymbol, pinned bool) (commands.Result, error) {
	return s.groupSymbol(ctx, meta, "watchlist.pin", in, func(m *commands.Member) ([]events.Payload, error) {
		return decidePin(m, in.GroupID, in.Symbol, pinned)
	})
}

func (s *Commands) groupSymbol(ctx context.Context, meta commands.Meta, name string, in GroupSymbol,
	decide func(m *commands.Member) ([]events.Payload, error)) (commands.Result, error) {
	if !validSymbol(in.Symbol) || in.GroupID == "" || len(in.GroupID) > 64 {
		return commands.Result{}, commands.Invalid(commands.KeyInvalidRequest)
	}
	pos, err := s.run(ctx, meta, name, in.MemberID, func(_ commands.Cmd, m *commands.Member) ([]events.Payload, error) { return decide(m) })
	return commands.Result{Position: pos}, err
}
