package commands

import (
	"context"
	"slices"

	"github.com/lotbook/lotbook/events"
)

// Favourites are the member's watch list: FavoriteAdded and FavoriteRemoved on the member stream,
// in the order added. Whether a symbol exists is the market's business: the API checks it before
// calling (commands knows no market); here a symbol only has to look like a code.

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

// applyFavorite evolves the member's favourites list.
func (m *memberState) applyFavorite(p events.Payload) {
	switch e := p.(type) {
	case events.FavoriteAdded:
		if !slices.Contains(m.favorites, e.Symbol) {
			m.favorites = append(m.favorites, e.Symbol)
		}
	case events.FavoriteRemoved:
		if i := slices.Index(m.favorites, e.Symbol); i >= 0 {
			m.favorites = slices.Delete(m.favorites, i, i+1)
		}
	}
}

// decideFavorite adds (on) or removes a favourite; one already in that state changes nothing.
func decideFavorite(m *memberState, symbol string, on bool) ([]events.Payload, error) {
	if !m.registered {
		return nil, notFound(KeyAccountNotExist)
	}
	if err := m.refuseFlags(events.FlagDisabled); err != nil {
		return nil, err
	}
	if slices.Contains(m.favorites, symbol) == on {
		return nil, nil
	}
	if on {
		return []events.Payload{events.FavoriteAdded{Symbol: symbol}}, nil
	}
	return []events.Payload{events.FavoriteRemoved{Symbol: symbol}}, nil
}

// Favorite is one symbol on (or off) a member's favourites.
type Favorite struct{ MemberID, Symbol string }

// AddFavorite puts symbol (a canonical code the caller has checked exists) on the member's
// favourites. Result.Position is the event's position, or the stream's when it was there already.
func (s *Service) AddFavorite(ctx context.Context, meta Meta, in Favorite) (Result, error) {
	return s.favorite(ctx, meta, in.MemberID, in.Symbol, true)
}

// RemoveFavorite takes symbol off the member's favourites.
func (s *Service) RemoveFavorite(ctx context.Context, meta Meta, in Favorite) (Result, error) {
	return s.favorite(ctx, meta, in.MemberID, in.Symbol, false)
}

func (s *Service) favorite(ctx context.Context, meta Meta, memberID, symbol string, on bool) (Result, error) {
	c, err := s.begin(meta, map[bool]string{true: "favorite.add", false: "favorite.remove"}[on])
	if err != nil {
		return Result{}, err
	}
	if !validSymbol(symbol) {
		return Result{}, invalid(KeyInvalidRequest)
	}
	rec, err := s.memberCommand(ctx, c, memberID, func(m *memberState) ([]events.Payload, error) {
		return decideFavorite(m, symbol, on)
	})
	if err != nil {
		return Result{}, err
	}
	return Result{Position: rec.position}, nil
}
