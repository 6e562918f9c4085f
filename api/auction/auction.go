// Package auction is the IPO auction's HTTP side: members list the auctions, read one with their
// bids, bid and read their bid and win records; ops list an auction and read its bids; auditors
// re-run an award from the log.
package auction

import (
	"context"
	"fmt"
	"time"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/api/httpx"
	"github.com/lotbook/lotbook/api/wire"
	"github.com/lotbook/lotbook/commands"
	cmd "github.com/lotbook/lotbook/commands/auction"
	"github.com/lotbook/lotbook/commands/process/offering"
	"github.com/lotbook/lotbook/events"
	mkt "github.com/lotbook/lotbook/market"
	"github.com/lotbook/lotbook/projections"
	read "github.com/lotbook/lotbook/projections/auction"
)

// Commands are the write side's auction commands the module sends.
type Commands interface {
	List(ctx context.Context, meta commands.Meta, in cmd.List) (cmd.Listed, error)
	Bid(ctx context.Context, meta commands.Meta, in cmd.Bid) (cmd.Placed, error)
}

// Module serves the auction's routes.
type Module struct {
	cmd   Commands
	read  *projections.ReadDB
	feed  *mkt.Service
	store events.Store
	now   func() time.Time
}

// New is the module over the auction's commands, the read models, the market feed (the codes an
// auction may name), the event store (the auditor's re-run) and the clock (auction states).
func New(c Commands, rd *projections.ReadDB, feed *mkt.Service, store events.Store, now func() time.Time) *Module {
	return &Module{cmd: c, read: rd, feed: feed, store: store, now: now}
}

// Routes are the auction's operations of openapi.yaml.
func (m *Module) Routes() []httpx.Route {
	return []httpx.Route{
		httpx.Op(httpx.Member, "GET", "/api/vue/auction/auctions", httpx.IdemNone, m.auctions),
		httpx.Op(httpx.Member, "GET", "/api/vue/auction/auctions/{auctionId}", httpx.IdemNone, m.auction),
		httpx.Op(httpx.Member, "POST", "/api/vue/auction/auctions/{auctionId}/bid", httpx.IdemRequired, m.bid),
		httpx.Op(httpx.Member, "GET", "/api/vue/auction/records", httpx.IdemNone, m.records),
		httpx.Op(httpx.Ops, "GET", "/api/vue/ops/auction/auctions", httpx.IdemNone, m.opsAuctions),
		httpx.Op(httpx.Ops, "POST", "/api/vue/ops/auction/auctions", httpx.IdemRequired, m.list),
		httpx.Op(httpx.Ops, "GET", "/api/vue/ops/auction/auctions/{auctionId}/bids", httpx.IdemNone, m.bids),
		httpx.Op(httpx.Auditor, "GET", "/api/vue/audit/auction/auctions", httpx.IdemNone, m.opsAuctions),
		httpx.Op(httpx.Auditor, "GET", "/api/vue/audit/auction/auctions/{auctionId}/award", httpx.IdemNone, m.check),
	}
}

// lots is shares in lots of lotShares.
func lots(shares, lotShares int64) int64 {
	if lotShares == 0 {
		return 0
	}
	return shares / lotShares
}

func auctionOut(a read.Auction, now time.Time, myLots int64) wire.Auction {
	c := a.Calendar
	return wire.Auction{AuctionId: a.AuctionID, Symbol: a.Symbol, Name: a.Name, Currency: a.Currency, Lots: a.Lots,
		LotShares: a.LotShares, MinPrice: httpx.Money(a.MinPrice), MaxLotsPerBidder: a.MaxLotsPerBidder,
		DepositRate: a.DepositRate.Mul(decimal.NewFromInt(100)).StringFixed(2), OpensAt: c.OpensAt, ClosesAt: c.ClosesAt,
		AwardDate: c.DrawDate, ListingDate: c.ListingDate, State: wire.OfferingState(a.State(now)), Commitment: a.Commitment,
		Algorithm: a.Algorithm, Seed: a.Seed, Awarded: a.Awarded, AwardedLots: lots(a.AwardedShares, a.LotShares), Bids: a.Bids,
		MyLots: myLots}
}

func bidOut(b read.Bid) wire.AuctionBid {
	return wire.AuctionBid{BidNo: b.BidNo, AuctionId: b.AuctionID, Symbol: b.Symbol, Name: b.Name, Price: httpx.Money(b.Price),
		Lots: b.Lots, Amount: httpx.Money(b.Amount), Deposit: httpx.Money(b.Deposit), State: wire.AuctionBidState(b.State),
		AwardedLots: lots(b.Awarded, b.Shares/max(b.Lots, 1)), Cost: httpx.Money(b.Cost), Balance: httpx.Money(b.FromAvailable),
		Released: httpx.Money(b.Released), Delivered: b.Delivered, PlacedAt: b.PlacedAt, AwardDate: b.Calendar.DrawDate,
		ListingDate: b.Calendar.ListingDate}
}

func bidsOut(bs []read.Bid) []wire.AuctionBid {
	out := make([]wire.AuctionBid, len(bs))
	for i, b := range bs {
		out[i] = bidOut(b)
	}
	return out
}

// mine is the member's bids.
func (m *Module) mine(c *httpx.Call) ([]read.Bid, error) {
	bs, err := read.MemberBids(c.Ctx(), m.read.Reader, c.Sess.MemberID)
	if err != nil {
		return nil, fmt.Errorf("bids of %s: %w", c.Sess.MemberID, err)
	}
	return bs, nil
}

func (m *Module) list(c *httpx.Call) (httpx.Reply, error) {
	return httpx.Send(c, "AuctionRequest", wire.MessageKeyOk, func(req wire.AuctionRequest) (cmd.Listed, error) {
		in, err := httpx.Listed(m.feed, req.Symbol, req.Name)
		if err != nil {
			return cmd.Listed{}, err
		}
		return m.cmd.List(c.Ctx(), c.Meta(), cmd.List{Terms: offering.Terms{Symbol: in.Symbol, Name: in.Name, Market: events.MarketTW,
			OpensAt: req.OpensAt, ClosesAt: req.ClosesAt, ListingDate: req.ListingDate}, Lots: req.Lots, MaxLotsPerBidder: req.MaxLotsPerBidder,
			MinPrice: req.MinPrice, DepositRate: req.DepositRate, AwardDate: req.AwardDate})
	}, func(res cmd.Listed) wire.OfferingListedResult {
		return wire.OfferingListedResult{Id: res.AuctionID, Commitment: res.Commitment, Algorithm: res.Algorithm, Position: res.Position}
	})
}

func (m *Module) listAuctions(c *httpx.Call, mine []read.Bid) (httpx.Reply, error) {
	as, err := read.Auctions(c.Ctx(), m.read.Reader)
	if err != nil {
		return httpx.Reply{}, err
	}
	bid := map[string]int64{}
	for _, b := range mine {
		bid[b.AuctionID] += b.Lots
	}
	now := m.now()
	out := make([]wire.Auction, len(as))
	for i, a := range as {
		out[i] = auctionOut(a, now, bid[a.AuctionID])
	}
	return httpx.OK(out)
}

func (m *Module) auctions(c *httpx.Call) (httpx.Reply, error) {
	mine, err := m.mine(c)
	if err != nil {
		return httpx.Reply{}, err
	}
	return m.listAuctions(c, mine)
}

// opsAuctions lists every auction for ops and auditors (no bids of their own).
func (m *Module) opsAuctions(c *httpx.Call) (httpx.Reply, error) { return m.listAuctions(c, nil) }

// found is the auction named in the path, or 404 not_found.
func (m *Module) found(c *httpx.Call) (read.Auction, error) {
	return httpx.Found(c, m.read.Reader, "auctionId", read.ByID)
}

func (m *Module) auction(c *httpx.Call) (httpx.Reply, error) {
	a, err := m.found(c)
	if err != nil {
		return httpx.Reply{}, err
	}
	mine, err := m.mine(c)
	if err != nil {
		return httpx.Reply{}, err
	}
	var own []read.Bid
	var myLots int64
	for _, b := range mine {
		if b.AuctionID == a.AuctionID {
			own, myLots = append(own, b), myLots+b.Lots
		}
	}
	return httpx.OK(wire.AuctionDetail{Auction: auctionOut(a, m.now(), myLots), Bids: bidsOut(own)})
}

func (m *Module) bid(c *httpx.Call) (httpx.Reply, error) {
	return httpx.Send(c, "AuctionBidRequest", wire.MessageKeyOk, func(req wire.AuctionBidRequest) (cmd.Placed, error) {
		return m.cmd.Bid(c.Ctx(), c.Meta(), cmd.Bid{MemberID: c.Sess.MemberID, AuctionID: c.Var("auctionId"), Price: req.Price, Lots: req.Lots})
	}, func(res cmd.Placed) wire.AuctionBidResult {
		return wire.AuctionBidResult{BidNo: res.BidNo, Deposit: httpx.Money(res.Deposit), Position: res.Position,
			Available: httpx.Money(res.Cash.Available), Frozen: httpx.Money(res.Cash.Frozen)}
	})
}

func (m *Module) records(c *httpx.Call) (httpx.Reply, error) {
	bs, err := m.mine(c)
	if err != nil {
		return httpx.Reply{}, err
	}
	return httpx.OK(bidsOut(bs))
}

func (m *Module) bids(c *httpx.Call) (httpx.Reply, error) {
	a, err := m.found(c)
	if err != nil {
		return httpx.Reply{}, err
	}
	bs, err := read.AuctionBids(c.Ctx(), m.read.Reader, a.AuctionID)
	if err != nil {
		return httpx.Reply{}, err
	}
	return httpx.WithEntrants(c, m.read.Reader, bidsOut(bs), func(i int) string { return bs[i].MemberID },
		func(e *wire.AuctionBid, who *wire.OfferingEntrant) { e.Member = who })
}

func (m *Module) check(c *httpx.Call) (httpx.Reply, error) {
	return httpx.Audit(cmd.Verify(c.Ctx(), m.store, c.Var("auctionId"))) // its JSON is OfferingCheck
}
