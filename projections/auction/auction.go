// Package auction is the IPO auction's read model: the auctions with their terms, commitment and
// award, and every member's bids with what became of them.
package auction

import (
	"context"
	"fmt"

	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/projections"
)

// States of a bid.
const (
	Bidding   = "bidding"   // waiting for the award
	Won       = "won"       // awarded shares, not yet paid
	Lost      = "lost"      // awarded nothing: the deposit is released
	Paid      = "paid"      // the bid paid for the shares awarded; they arrive on the listing date
	Forfeited = "forfeited" // a winner without the balance: the deposit kept
	Delivered = "delivered" // the shares are in the member's holding
)

type auctionRow struct {
	auctionID, symbol, name, market, currency  string
	lots, lotShares, maxLots                   int64
	minPrice, depositRate                      string
	opensAt, closesAt                          int64
	awardDate, listingDate                     string
	commitment, algorithm, seed                string
	awarded, awardedShares, listedAt, position int64
}

var auctionFields = projections.RowMap[auctionRow]{
	projections.Text("auction_id", func(r *auctionRow) *string { return &r.auctionID }),
	projections.Text("symbol", func(r *auctionRow) *string { return &r.symbol }),
	projections.Text("name", func(r *auctionRow) *string { return &r.name }),
	projections.Text("market", func(r *auctionRow) *string { return &r.market }),
	projections.Text("currency", func(r *auctionRow) *string { return &r.currency }),
	projections.Integer("lots", func(r *auctionRow) *int64 { return &r.lots }),
	projections.Integer("lot_shares", func(r *auctionRow) *int64 { return &r.lotShares }),
	projections.Integer("max_lots", func(r *auctionRow) *int64 { return &r.maxLots }),
	projections.Text("min_price", func(r *auctionRow) *string { return &r.minPrice }),
	projections.Text("deposit_rate", func(r *auctionRow) *string { return &r.depositRate }),
	projections.Integer("opens_at", func(r *auctionRow) *int64 { return &r.opensAt }),
	projections.Integer("closes_at", func(r *auctionRow) *int64 { return &r.closesAt }),
	projections.Text("award_date", func(r *auctionRow) *string { return &r.awardDate }),
	projections.Text("listing_date", func(r *auctionRow) *string { return &r.listingDate }),
	projections.Text("commitment", func(r *auctionRow) *string { return &r.commitment }),
	projections.Text("algorithm", func(r *auctionRow) *string { return &r.algorithm }),
	projections.Text("seed", func(r *auctionRow) *string { return &r.seed }),
	projections.Integer("awarded", func(r *auctionRow) *int64 { return &r.awarded }),
	projections.Integer("awarded_shares", func(r *auctionRow) *int64 { return &r.awardedShares }),
	projections.Integer("listed_at", func(r *auctionRow) *int64 { return &r.listedAt }),
	projections.Integer("position", func(r *auctionRow) *int64 { return &r.position }),
}

var auctionsTable = &projections.Table{
	Name:    "auction_auctions",
	Cols:    auctionFields.Columns(),
	Key:     []string{"auction_id"},
	Indexes: []string{"opens_at"},
}

type bidRow struct {
	bidNo, auctionID, memberID, symbol, name string
	price                                    string
	lots, shares                             int64
	amount, deposit, state                   string
	awarded                                  int64
	cost, fromAvailable, released            string
	delivered, placedAt, updatedAt, position int64
}

var bidFields = projections.RowMap[bidRow]{
	projections.Text("bid_no", func(r *bidRow) *string { return &r.bidNo }),
	projections.Text("auction_id", func(r *bidRow) *string { return &r.auctionID }),
	projections.Text("member_id", func(r *bidRow) *string { return &r.memberID }),
	projections.Text("symbol", func(r *bidRow) *string { return &r.symbol }),
	projections.Text("name", func(r *bidRow) *string { return &r.name }),
	projections.Text("price", func(r *bidRow) *string { return &r.price }),
	projections.Integer("lots", func(r *bidRow) *int64 { return &r.lots }),
	projections.Integer("shares", func(r *bidRow) *int64 { return &r.shares }),
	projections.Text("amount", func(r *bidRow) *string { return &r.amount }),
	projections.Text("deposit", func(r *bidRow) *string { return &r.deposit }),
	projections.Text("state", func(r *bidRow) *string { return &r.state }),
	projections.Integer("awarded", func(r *bidRow) *int64 { return &r.awarded }), // shares awarded
	projections.Text("cost", func(r *bidRow) *string { return &r.cost }),
	projections.Text("from_available", func(r *bidRow) *string { return &r.fromAvailable }),
	projections.Text("released", func(r *bidRow) *string { return &r.released }),
	projections.Integer("delivered", func(r *bidRow) *int64 { return &r.delivered }), // shares delivered
	projections.Integer("placed_at", func(r *bidRow) *int64 { return &r.placedAt }),
	projections.Integer("updated_at", func(r *bidRow) *int64 { return &r.updatedAt }),
	projections.Integer("position", func(r *bidRow) *int64 { return &r.position }),
}

var bidsTable = &projections.Table{
	Name:    "auction_bids",
	Cols:    bidFields.Columns(),
	Key:     []string{"bid_no"},
	Indexes: []string{"member_id, placed_at", "auction_id, bid_no"},
	Fixed:   []string{"auction_id", "member_id", "symbol", "name", "price", "lots", "shares", "amount", "deposit", "placed_at"},
}

var projector = &projections.Projector{
	Name:    "auction",
	Version: 1,
	Tables:  []*projections.Table{auctionsTable, bidsTable},
	Wants: func(p events.Payload) bool {
		switch p.(type) {
		case events.AuctionListed, events.AuctionSeedCommitted, events.AuctionBidPlaced, events.AuctionAwarded,
			events.AuctionSettled, events.AuctionForfeited, events.AuctionDelivered:
			return true
		}
		return false
	},
	Apply: apply,
}

func init() { projections.Register(projector) }

// page is one page's fold: the auctions and bids it touches, loaded first.
type page struct {
	auctions map[string]*auctionRow
	bids     map[string]*bidRow
}

func apply(ctx context.Context, w *projections.Wtx, evs []projections.Decoded) error {
	pg := &page{auctions: map[string]*auctionRow{}, bids: map[string]*bidRow{}}
	if err := pg.load(ctx, w, evs); err != nil {
		return err
	}
	for _, d := range evs {
		if err := pg.apply(d); err != nil {
			return err
		}
	}
	as := make([][]any, 0, len(pg.auctions))
	for _, r := range pg.auctions {
		as = append(as, auctionFields.Args(r))
	}
	bs := make([][]any, 0, len(pg.bids))
	for _, r := range pg.bids {
		bs = append(bs, bidFields.Args(r))
	}
	if err := w.Upsert(ctx, auctionsTable, as); err != nil {
		return err
	}
	return w.Upsert(ctx, bidsTable, bs)
}

// load reads the auctions and bids the page changes.
func (pg *page) load(ctx context.Context, w *projections.Wtx, evs []projections.Decoded) error {
	auctions, bids := map[string]struct{}{}, map[string]struct{}{}
	for _, d := range evs {
		switch e := d.P.(type) {
		case events.AuctionSeedCommitted:
			auctions[e.OfferingID] = struct{}{}
		case events.AuctionAwarded:
			auctions[e.AuctionID] = struct{}{}
			for _, b := range e.Bids {
				bids[b.No] = struct{}{}
			}
		case events.AuctionSettled:
			bids[e.No] = struct{}{}
		case events.AuctionForfeited:
			bids[e.BidNo] = struct{}{}
		case events.AuctionDelivered:
			bids[e.No] = struct{}{}
		}
	}
	if err := w.SelectIn(ctx, auctionsTable, "auction_id", projections.KeysOf(auctions), func(rows projections.Rows) error {
		r := &auctionRow{}
		if err := auctionFields.Scan(rows, r); err != nil {
			return err
		}
		pg.auctions[r.auctionID] = r
		return nil
	}); err != nil {
		return err
	}
	return w.SelectIn(ctx, bidsTable, "bid_no", projections.KeysOf(bids), func(rows projections.Rows) error {
		r := &bidRow{}
		if err := bidFields.Scan(rows, r); err != nil {
			return err
		}
		pg.bids[r.bidNo] = r
		return nil
	})
}

func (pg *page) apply(d projections.Decoded) error {
	at, pos := projections.Micros(d.Ev.Metadata.ServerTime), d.Ev.Position
	auction := func(id string) (*auctionRow, error) {
		r := pg.auctions[id]
		if r == nil {
			return nil, d.Fail(fmt.Errorf("auction %s unknown", id))
		}
		r.position = pos
		return r, nil
	}
	bid := func(no string) (*bidRow, error) {
		r := pg.bids[no]
		if r == nil {
			return nil, d.Fail(fmt.Errorf("bid %s unknown", no))
		}
		r.updatedAt, r.position = at, pos
		return r, nil
	}
	switch e := d.P.(type) {
	case events.AuctionListed:
		if pg.auctions[e.OfferingID] != nil {
			return d.Fail(fmt.Errorf("auction %s listed twice", e.OfferingID))
		}
		pg.auctions[e.OfferingID] = &auctionRow{auctionID: e.OfferingID, symbol: e.Symbol, name: e.Name, market: e.Market,
			currency: e.Currency, lots: e.Lots, lotShares: e.LotShares, maxLots: e.MaxLotsPerBidder, minPrice: e.MinPrice.String(),
			depositRate: e.DepositRate.String(), opensAt: projections.Micros(e.OpensAt), closesAt: projections.Micros(e.ClosesAt),
			awardDate: e.AwardDate, listingDate: e.ListingDate, listedAt: at, position: pos}
	case events.AuctionSeedCommitted:
		r, err := auction(e.OfferingID)
		if err != nil {
			return err
		}
		r.commitment, r.algorithm = e.Commitment, e.Algorithm
	case events.AuctionAwarded:
		r, err := auction(e.AuctionID)
		if err != nil {
			return err
		}
		r.seed, r.algorithm, r.awarded = e.Seed, e.Algorithm, 1
		granted := map[string]int64{}
		for _, g := range e.Grants {
			granted[g.No] = g.Shares
			r.awardedShares += g.Shares
		}
		for _, x := range e.Bids {
			b, err := bid(x.No)
			if err != nil {
				return err
			}
			b.awarded, b.state = granted[x.No], Lost
			if b.awarded > 0 {
				b.state = Won
			}
		}
	case events.AuctionBidPlaced:
		member, err := projections.MemberOf(d.Ev.Stream)
		if err != nil {
			return d.Fail(err)
		}
		if pg.bids[e.BidNo] != nil {
			return d.Fail(fmt.Errorf("bid %s recorded twice", e.BidNo))
		}
		pg.bids[e.BidNo] = &bidRow{bidNo: e.BidNo, auctionID: e.AuctionID, memberID: member, symbol: e.Symbol, name: e.Name,
			price: e.Price.String(), lots: e.Lots, shares: e.Shares, amount: e.Amount.String(), deposit: e.Deposit.String(),
			state: Bidding, cost: "0", fromAvailable: "0", released: "0", placedAt: at, updatedAt: at, position: pos}
	case events.AuctionSettled:
		b, err := bid(e.No)
		if err != nil {
			return err
		}
		b.awarded, b.cost, b.fromAvailable, b.released = e.Shares, e.Cost.String(), e.FromAvailable.String(), e.Released.String()
		b.state = Lost
		if e.Shares > 0 {
			b.state = Paid
		}
	case events.AuctionForfeited:
		b, err := bid(e.BidNo)
		if err != nil {
			return err
		}
		b.state = Forfeited
	case events.AuctionDelivered:
		b, err := bid(e.No)
		if err != nil {
			return err
		}
		b.state, b.delivered = Delivered, e.Shares
	}
	return nil
}
