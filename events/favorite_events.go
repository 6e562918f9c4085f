package events

// FavoriteAdded puts a stock or ETF on the member's favourites list (stream member-<id>); the
// list keeps the order in which symbols were added.
type FavoriteAdded struct {
	Symbol string `json:"symbol"` // canonical code, e.g. "2330", "00679B"
}

// FavoriteRemoved takes a symbol off the member's favourites list.
type FavoriteRemoved struct {
	Symbol string `json:"symbol"`
}

func (FavoriteAdded) EventName() string   { return "FavoriteAdded" }
func (FavoriteRemoved) EventName() string { return "FavoriteRemoved" }

func init() {
	register(FavoriteAdded{}, 1, nil)
	register(FavoriteRemoved{}, 1, nil)
}
