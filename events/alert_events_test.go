package events

import "github.com/shopspring/decimal"

// Samples of the price alert and watchlist group events (catalogue_test.go's samples).
func init() {
	d := decimal.RequireFromString
	samples = append(samples,
		AlertSet{AlertID: "AL202611240000000000000001", Symbol: "2330", Kind: AlertPriceAbove, Value: d("1100")},
		AlertCancelled{AlertID: "AL202611240000000000000001"},
		AlertFired{AlertID: "AL202611240000000000000002", Symbol: "2330", Kind: AlertRisePct, Value: d("2.5"), Price: d("1105"),
			PrevClose: d("1075"), QuoteTime: mustTime("2026-11-24T02:03:04Z")},
		AlertNotificationsRead{Through: 4711},
		WatchlistGroupCreated{GroupID: "WG202611240000000000000001", Name: "半導體"},
		WatchlistGroupRenamed{GroupID: "WG202611240000000000000001", Name: "AI"},
		WatchlistGroupDeleted{GroupID: "WG202611240000000000000001"},
		WatchlistSymbolAdded{GroupID: WatchlistDefault, Symbol: "2330"},
		WatchlistSymbolRemoved{GroupID: WatchlistDefault, Symbol: "2330"},
		WatchlistSymbolMoved{GroupID: WatchlistDefault, Symbol: "2330", To: 2},
		WatchlistSymbolPinned{GroupID: WatchlistDefault, Symbol: "2330", Pinned: true},
	)
}
