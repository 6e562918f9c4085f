package engine

import (
	"cmp"
	"context"
	"hash/fnv"
	"maps"
	"math"
	"slices"
	"strconv"
	"time"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/commands/rules/ticket"
	"github.com/lotbook/lotbook/commands/trading"
)

// Auction runs the call auction of a session (ticket.OddIntraday every 5 s; ticket.OddAfterHours
// and ticket.FixedPrice once at 14:30, from the sweep, or in the demo on its cadence) for every
// symbol with working orders of it, when the market says it is due. Members' orders meet the
// market's displayed book: the odd-lot sessions trade at the single price that maximises the
// volume (ticket.AuctionPrice), 盤後定價 at the day's close (the demo's last price) against the
// displayed size. Each fill is the FillOrder command with the
// order's next fill id, so an auction retried never fills twice.
func (e *Engine) Auction(ctx context.Context, session string) {
	now := e.now()
	today := TradingDay(now)
	e.mu.Lock()
	m := e.mkt
	bySymbol := map[string][]order{}
	for _, o := range e.orders {
		if o.Session == session && o.Day == today {
			bySymbol[o.Symbol] = append(bySymbol[o.Symbol], *o)
		}
	}
	e.mu.Unlock()
	for _, sym := range slices.Sorted(maps.Keys(bySymbol)) {
		view := View(m, sym, now)
		if view.Symbol == "" || !view.AuctionDue(session) {
			continue
		}
		orders := bySymbol[sym]
		slices.SortFunc(orders, func(a, b order) int { return cmp.Compare(a.Seq, b.Seq) })
		price, alloc := allocation(session, orders, view.Quote)
		for i, o := range orders {
			if alloc[i] <= 0 {
				continue
			}
			seq := o.Fills + 1
			meta := commands.Meta{CommandID: o.OrderNo + "/fill/" + strconv.Itoa(seq), Actor: "system"}
			res, err := e.cmd.FillOrder(ctx, meta, trading.FillOrder{MemberID: o.MemberID, OrderNo: o.OrderNo, Market: view,
				Auction: &trading.AuctionFill{Price: price, Shares: alloc[i]}})
			if err != nil {
				e.refused(ctx, o.OrderNo, "auction fill", err)
				continue
			}
			e.filled(o.OrderNo, seq, res)
		}
	}
}

// allocation is an auction's price and each order's shares (by index of orders).
func allocation(session string, orders []order, q trading.MarketQuote) (decimal.Decimal, []int64) {
	if session == ticket.FixedPrice {
		return q.Last, atClose(orders, q)
	}
	all := make([]ticket.Order, 0, len(orders)+len(q.Bids)+len(q.Asks))
	for _, o := range orders {
		seq := o.Seq
		if session == ticket.OddAfterHours {
			seq = randomTie(o.OrderNo, o.Day) // price priority, random ties (market-rules 1a)
		}
		all = append(all, ticket.Order{Buy: o.Buy, Limit: o.Price, Shares: o.Remaining, Seq: seq})
	}
	// The displayed book rests before any member's order at its price.
	for i, l := range q.Bids {
		all = append(all, ticket.Order{Buy: true, Limit: l.Price, Shares: l.Size, Seq: math.MinInt64 + int64(i)})
	}
	for i, l := range q.Asks {
		all = append(all, ticket.Order{Limit: l.Price, Shares: l.Size, Seq: math.MinInt64 + int64(i)})
	}
	price, volume := ticket.AuctionPrice(all, q.Last)
	if volume == 0 {
		return price, make([]int64, len(orders))
	}
	return price, ticket.Allocate(all, price, volume)[:len(orders)]
}

// atClose shares out 盤後定價's board lots at the close: buys against the displayed asks, sells
// against the displayed bids, in random order (market-rules 1a).
func atClose(orders []order, q trading.MarketQuote) []int64 {
	out := make([]int64, len(orders))
	for _, buy := range []bool{true, false} {
		levels := q.Bids
		if buy {
			levels = q.Asks
		}
		var size int64
		for _, l := range levels {
			size += l.Size
		}
		var side []ticket.Order
		var at []int
		for i, o := range orders {
			if o.Buy == buy {
				side = append(side, ticket.Order{Buy: buy, Limit: q.Last, Shares: o.Remaining, Seq: randomTie(o.OrderNo, o.Day)})
				at = append(at, i)
			}
		}
		for j, n := range ticket.Allocate(side, q.Last, size/trading.BoardLot*trading.BoardLot) {
			out[at[j]] = n / trading.BoardLot * trading.BoardLot
		}
	}
	return out
}

// randomTie is an order's place among equal prices where the exchange draws at random: a hash of
// its number and day, the same on every retry.
func randomTie(orderNo, day string) int64 {
	h := fnv.New64a()
	_, _ = h.Write([]byte(orderNo + "/" + day))
	return int64(h.Sum64() >> 1)
}

// filled records a fill command's answer in the fold.
func (e *Engine) filled(orderNo string, seq int, res trading.TradeResult) {
	if res.Filled == 0 {
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if cur := e.orders[orderNo]; cur != nil {
		cur.Fills, cur.Remaining = max(cur.Fills, seq), min(cur.Remaining, res.Remaining)
		if cur.Remaining == 0 {
			e.done(orderNo)
		}
	}
}

// afterHoursAuctions runs the auctions of the after-hours sessions that take orders (open: the
// demo's auctions on their cadence) or that no longer do (the auction when their entry ends).
func (e *Engine) afterHoursAuctions(ctx context.Context, open bool) {
	now := sessionOf(e.Market().Session())
	for _, session := range []string{ticket.OddAfterHours, ticket.FixedPrice} {
		if now.AcceptsIn(session, true) == open {
			e.Auction(ctx, session)
		}
	}
}

// auctionTimer fires the intraday odd-lot call auction every 5 s.
func (e *Engine) auctionTimer(ctx context.Context, _ time.Time, _ string) error {
	e.Auction(ctx, ticket.OddIntraday)
	return nil
}
