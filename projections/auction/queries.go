package auction

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/commands/rules/ipo"
	"github.com/lotbook/lotbook/projections"
)

// Auction is an auction as members and ops read it.
type Auction struct {
	AuctionID, Symbol, Name, Market, Currency string
	Lots, LotShares, MaxLotsPerBidder         int64
	MinPrice, DepositRate                     decimal.Decimal
	Calendar                                  ipo.Calendar // the window, the award date (as DrawDate) and the listing date
	Commitment, Algorithm, Seed               string       // Seed empty until the award
	Awarded                                   bool
	AwardedShares, Bids                       int64
	ListedAt                                  time.Time
}

// State is the auction's state at now, from its calendar: upcoming, open, closed (the award
// and settlement under way), listed.
func (a Auction) State(now time.Time) string {
	return map[string]string{ipo.NotStarted: "upcoming", ipo.ToSubscribe: "open", ipo.Subscribing: "closed", ipo.Ended: "listed"}[a.Calendar.State(now)]
}

// calendar is an auction's window and dates as the lottery's calendar holds them.
func calendar(opens, closes int64, award, listing string) ipo.Calendar {
	return ipo.Calendar{OpensAt: projections.FromMicros(opens), ClosesAt: projections.FromMicros(closes), DrawDate: award,
		DeductionDate: award, RefundDate: award, ListingDate: listing}
}

func parse(what string, ss ...string) ([]decimal.Decimal, error) {
	out := make([]decimal.Decimal, len(ss))
	for i, s := range ss {
		d, err := decimal.NewFromString(s)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", what, err)
		}
		out[i] = d
	}
	return out, nil
}

// prefixed is cols of a RowMap's List with a table alias.
func prefixed(list, alias string) string {
	cols := strings.Split(list, ", ")
	for i, c := range cols {
		cols[i] = alias + "." + c
	}
	return strings.Join(cols, ", ")
}

// counted scans a row's columns and then one more integer.
type counted struct {
	projections.Rows
	n *int64
}

func (c counted) Scan(dest ...any) error { return c.Rows.Scan(append(dest, c.n)...) }

func auctions(ctx context.Context, db *projections.Reader, what, where string, args []any) ([]Auction, error) {
	q := "SELECT " + prefixed(auctionFields.List(), "x") + ", (SELECT COUNT(*) FROM auction_bids b WHERE b.auction_id = x.auction_id)" +
		" FROM auction_auctions x " + where
	var out []Auction
	err := db.Query(ctx, what, q, args, func(rows projections.Rows) error {
		var r auctionRow
		var n int64
		if err := auctionFields.Scan(counted{rows, &n}, &r); err != nil {
			return err
		}
		ds, err := parse("auction "+r.auctionID, r.minPrice, r.depositRate)
		if err != nil {
			return err
		}
		out = append(out, Auction{AuctionID: r.auctionID, Symbol: r.symbol, Name: r.name, Market: r.market, Currency: r.currency,
			Lots: r.lots, LotShares: r.lotShares, MaxLotsPerBidder: r.maxLots, MinPrice: ds[0], DepositRate: ds[1],
			Calendar: calendar(r.opensAt, r.closesAt, r.awardDate, r.listingDate), Commitment: r.commitment, Algorithm: r.algorithm,
			Seed: r.seed, Awarded: r.awarded != 0, AwardedShares: r.awardedShares, Bids: n, ListedAt: projections.FromMicros(r.listedAt)})
		return nil
	})
	return out, err
}

// Auctions lists every auction, the latest window first.
func Auctions(ctx context.Context, db *projections.Reader) ([]Auction, error) {
	return auctions(ctx, db, "auctions", "ORDER BY x.opens_at DESC, x.auction_id", nil)
}

// ByID is one auction; found is false when there is none.
func ByID(ctx context.Context, db *projections.Reader, id string) (Auction, bool, error) {
	as, err := auctions(ctx, db, "auction", "WHERE x.auction_id = ?", []any{id})
	if err != nil || len(as) == 0 {
		return Auction{}, false, err
	}
	return as[0], true, nil
}

// Bid is one member's bid with its auction's calendar.
type Bid struct {
	BidNo, AuctionID, MemberID, Symbol, Name string
	Price, Amount, Deposit                   decimal.Decimal
	Lots, Shares                             int64
	State                                    string
	Awarded, Delivered                       int64 // shares
	Cost, FromAvailable, Released            decimal.Decimal
	PlacedAt, UpdatedAt                      time.Time
	Calendar                                 ipo.Calendar
}

// withDates scans a bid's columns and then its auction's window and dates.
type withDates struct {
	projections.Rows
	opens, closes  *int64
	award, listing *string
}

func (w withDates) Scan(dest ...any) error {
	return w.Rows.Scan(append(dest, w.opens, w.closes, w.award, w.listing)...)
}

func bids(ctx context.Context, db *projections.Reader, what, where string, args []any) ([]Bid, error) {
	q := "SELECT " + prefixed(bidFields.List(), "b") + ", x.opens_at, x.closes_at, x.award_date, x.listing_date" +
		" FROM auction_bids b JOIN auction_auctions x ON x.auction_id = b.auction_id " + where
	var out []Bid
	err := db.Query(ctx, what, q, args, func(rows projections.Rows) error {
		var r bidRow
		var opens, closes int64
		var award, listing string
		if err := bidFields.Scan(withDates{rows, &opens, &closes, &award, &listing}, &r); err != nil {
			return err
		}
		ds, err := parse("bid "+r.bidNo, r.price, r.amount, r.deposit, r.cost, r.fromAvailable, r.released)
		if err != nil {
			return err
		}
		out = append(out, Bid{BidNo: r.bidNo, AuctionID: r.auctionID, MemberID: r.memberID, Symbol: r.symbol, Name: r.name,
			Price: ds[0], Amount: ds[1], Deposit: ds[2], Lots: r.lots, Shares: r.shares, State: r.state, Awarded: r.awarded,
			Delivered: r.delivered, Cost: ds[3], FromAvailable: ds[4], Released: ds[5], PlacedAt: projections.FromMicros(r.placedAt),
			UpdatedAt: projections.FromMicros(r.updatedAt), Calendar: calendar(opens, closes, award, listing)})
		return nil
	})
	return out, err
}

// MemberBids lists a member's bids, the newest first.
func MemberBids(ctx context.Context, db *projections.Reader, memberID string) ([]Bid, error) {
	return bids(ctx, db, "member's bids", "WHERE b.member_id = ? ORDER BY b.placed_at DESC, b.bid_no", []any{memberID})
}

// AuctionBids lists an auction's bids by number (the order the award lists them in).
func AuctionBids(ctx context.Context, db *projections.Reader, id string) ([]Bid, error) {
	return bids(ctx, db, "auction's bids", "WHERE b.auction_id = ? ORDER BY b.bid_no", []any{id})
}
