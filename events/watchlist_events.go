package events

// Watchlist groups, on the member's stream (member-<id>): named groups of symbols, each in the
// member's order, pinned symbols first. The default group (WatchlistDefault) always exists and is
// the old favourites list: FavoriteAdded and FavoriteRemoved add to and remove from it.

// WatchlistDefault is the id of the default group; it cannot be renamed away or deleted.
const WatchlistDefault = "default"

// WatchlistGroupCreated is a new named group.
type WatchlistGroupCreated struct {
	GroupID string `json:"groupId"`
	Name    string `json:"name"`
}

// WatchlistGroupRenamed renames a group.
type WatchlistGroupRenamed struct {
	GroupID string `json:"groupId"`
	Name    string `json:"name"`
}

// WatchlistGroupDeleted deletes a group and its symbols.
type WatchlistGroupDeleted struct {
	GroupID string `json:"groupId"`
}

// WatchlistSymbolAdded appends a symbol to a group.
type WatchlistSymbolAdded struct {
	GroupID string `json:"groupId"`
	Symbol  string `json:"symbol"`
}

// WatchlistSymbolRemoved takes a symbol off a group.
type WatchlistSymbolRemoved struct {
	GroupID string `json:"groupId"`
	Symbol  string `json:"symbol"`
}

// WatchlistSymbolMoved moves a symbol to index To (from 0) of its group's order.
type WatchlistSymbolMoved struct {
	GroupID string `json:"groupId"`
	Symbol  string `json:"symbol"`
	To      int    `json:"to"`
}

// WatchlistSymbolPinned pins a symbol to the top of its group (Pinned false unpins it); the
// pinned symbols come first, the latest pinned on top.
type WatchlistSymbolPinned struct {
	GroupID string `json:"groupId"`
	Symbol  string `json:"symbol"`
	Pinned  bool   `json:"pinned"`
}

func (WatchlistGroupCreated) EventName() string  { return "WatchlistGroupCreated" }
func (WatchlistGroupRenamed) EventName() string  { return "WatchlistGroupRenamed" }
func (WatchlistGroupDeleted) EventName() string  { return "WatchlistGroupDeleted" }
func (WatchlistSymbolAdded) EventName() string   { return "WatchlistSymbolAdded" }
func (WatchlistSymbolRemoved) EventName() string { return "WatchlistSymbolRemoved" }
func (WatchlistSymbolMoved) EventName() string   { return "WatchlistSymbolMoved" }
func (WatchlistSymbolPinned) EventName() string  { return "WatchlistSymbolPinned" }

func init() {
	register(WatchlistGroupCreated{}, 1, nil)
	register(WatchlistGroupRenamed{}, 1, nil)
	register(WatchlistGroupDeleted{}, 1, nil)
	register(WatchlistSymbolAdded{}, 1, nil)
	register(WatchlistSymbolRemoved{}, 1, nil)
	register(WatchlistSymbolMoved{}, 1, nil)
	register(WatchlistSymbolPinned{}, 1, nil)
}
