// Package favorites is the member's watch list on the write side: FavoriteAdded and
// FavoriteRemoved on the member stream (a part of the member aggregate), in the order added.
// Whether a symbol exists is the market's business: the API checks it before calling (commands
// knows no market); here a symbol only has to look like a code.
package favorites

import (
	"context"
	"slices"

	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/events"
)

// list is the member's favourites, symbols in the order added.
type list struct{ symbols []string }

var listPart = commands.RegisterMemberPart("favorites", func(string) *list { return &list{} })

// Apply evolves the member's favourites list.
func (l *list) Apply(_ events.RecordedEvent, p events.Payload) {
	switch e := p.(type) {
	case events.FavoriteAdded:
		if !slices.Contains(l.symbols, e.Symbol) {
			l.symbols = append(l.symbols, e.Symbol)
		}
	case events.FavoriteRemoved:
		if i := slices.Index(l.symbols, e.Symbol); i >= 0 {
			l.symbols = slices.Delete(l.symbols, i, i+1)
		}
	}
}

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
	if slices.Contains(listPart.Of(m).symbols, symbol) == on {
		return nil, nil
	}
	if on {
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
