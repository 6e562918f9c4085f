// Package watchlist is the pure fold of a member's watchlist groups, shared by the write side
// (commands/favorites decides on it) and the read model (projections/favorites keeps it): named
// groups in the order created, the default group first; in each group its symbols in the member's
// order, the pinned ones on top (the latest pinned first). FavoriteAdded and FavoriteRemoved are
// the default group's additions and removals, so the favourites of old are its content.
package watchlist

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/lotbook/lotbook/events"
)

// Limits of a member's watchlist.
const (
	MaxGroups  = 20  // groups, the default one included
	MaxSymbols = 200 // symbols in one group
	MaxName    = 20  // characters of a group's name
)

// Item is a symbol of a group.
type Item struct {
	Symbol string `json:"s"`
	Pinned bool   `json:"p,omitempty"`
}

// Group is one watchlist group.
type Group struct {
	ID    string `json:"id"`
	Name  string `json:"name,omitempty"` // empty for the default group until renamed
	Items []Item `json:"items"`
}

// Book is a member's groups.
type Book struct {
	Groups []*Group `json:"groups"`
}

// New is the watchlist of a member with nothing in it: the empty default group.
func New() *Book { return &Book{Groups: []*Group{{ID: events.WatchlistDefault, Items: []Item{}}}} }

// Group is the group with id, nil when there is none.
func (b *Book) Group(id string) *Group {
	for _, g := range b.Groups {
		if g.ID == id {
			return g
		}
	}
	return nil
}

// NameTaken reports whether another group than id has name (compared case-insensitively).
func (b *Book) NameTaken(name, id string) bool {
	for _, g := range b.Groups {
		if g.ID != id && strings.EqualFold(g.Name, name) {
			return true
		}
	}
	return false
}

// Index is where symbol is in the group, -1 when it is not.
func (g *Group) Index(symbol string) int {
	return slices.IndexFunc(g.Items, func(it Item) bool { return it.Symbol == symbol })
}

// Pinned counts the group's pinned symbols (they are its first ones).
func (g *Group) Pinned() int {
	n := 0
	for _, it := range g.Items {
		if it.Pinned {
			n++
		}
	}
	return n
}

// Clamp is the index a symbol at i can move to when asked for to: pinned symbols stay among the
// pinned, the others below them.
func (g *Group) Clamp(i, to int) int {
	lo, hi := 0, g.Pinned()-1
	if !g.Items[i].Pinned {
		lo, hi = g.Pinned(), len(g.Items)-1
	}
	return max(lo, min(hi, to))
}

func (g *Group) moveTo(i, to int) {
	it := g.Items[i]
	g.Items = slices.Delete(g.Items, i, i+1)
	g.Items = slices.Insert(g.Items, max(0, min(len(g.Items), to)), it)
}

func (g *Group) add(symbol string) {
	if g.Index(symbol) < 0 {
		g.Items = append(g.Items, Item{Symbol: symbol})
	}
}

func (g *Group) remove(symbol string) {
	if i := g.Index(symbol); i >= 0 {
		g.Items = slices.Delete(g.Items, i, i+1)
	}
}

// Apply evolves the book with one event of the member's stream.
func (b *Book) Apply(p events.Payload) {
	switch e := p.(type) {
	case events.FavoriteAdded:
		b.Group(events.WatchlistDefault).add(e.Symbol)
	case events.FavoriteRemoved:
		b.Group(events.WatchlistDefault).remove(e.Symbol)
	case events.WatchlistGroupCreated:
		if b.Group(e.GroupID) == nil {
			b.Groups = append(b.Groups, &Group{ID: e.GroupID, Name: e.Name, Items: []Item{}})
		}
	case events.WatchlistGroupRenamed:
		if g := b.Group(e.GroupID); g != nil {
			g.Name = e.Name
		}
	case events.WatchlistGroupDeleted:
		if e.GroupID != events.WatchlistDefault {
			b.Groups = slices.DeleteFunc(b.Groups, func(g *Group) bool { return g.ID == e.GroupID })
		}
	case events.WatchlistSymbolAdded:
		if g := b.Group(e.GroupID); g != nil {
			g.add(e.Symbol)
		}
	case events.WatchlistSymbolRemoved:
		if g := b.Group(e.GroupID); g != nil {
			g.remove(e.Symbol)
		}
	case events.WatchlistSymbolMoved:
		if g := b.Group(e.GroupID); g != nil {
			if i := g.Index(e.Symbol); i >= 0 {
				g.moveTo(i, g.Clamp(i, e.To))
			}
		}
	case events.WatchlistSymbolPinned:
		if g := b.Group(e.GroupID); g != nil {
			if i := g.Index(e.Symbol); i >= 0 && g.Items[i].Pinned != e.Pinned {
				g.Items[i].Pinned = e.Pinned
				if e.Pinned {
					g.moveTo(i, 0)
				} else {
					g.moveTo(i, g.Pinned())
				}
			}
		}
	}
}

// Wants reports whether p is an event the book folds.
func Wants(p events.Payload) bool {
	switch p.(type) {
	case events.FavoriteAdded, events.FavoriteRemoved, events.WatchlistGroupCreated, events.WatchlistGroupRenamed,
		events.WatchlistGroupDeleted, events.WatchlistSymbolAdded, events.WatchlistSymbolRemoved, events.WatchlistSymbolMoved,
		events.WatchlistSymbolPinned:
		return true
	}
	return false
}

// CleanName is a group's name as typed, trimmed; ok is false unless it has 1 to MaxName
// characters and no control characters.
func CleanName(name string) (string, bool) {
	name = strings.TrimSpace(name)
	n := utf8.RuneCountInString(name)
	if n == 0 || n > MaxName || !utf8.ValidString(name) {
		return "", false
	}
	for _, r := range name {
		if unicode.IsControl(r) {
			return "", false
		}
	}
	return name, true
}
