// Package placement is the placement's read model: the placements with their terms, commitment and
// allotment, and every member's applications with what they were allotted.
package placement

import (
	"context"
	"fmt"

	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/projections"
)

// States of an application.
const (
	Applied     = "applied"      // waiting for the allotment
	Allotted    = "allotted"     // allotted shares, paid; they arrive on the listing date
	NotAllotted = "not_allotted" // allotted nothing: the amount is refunded
	Delivered   = "delivered"    // the shares are in the member's holding
)

type placementRow struct {
	id, symbol, name, market, currency, price string
	lots, lotShares, maxLots                  int64
	opensAt, closesAt                         int64
	listingDate, commitment, algorithm, seed  string
	requested, allotted, allottedShares       int64
	listedAt, position                        int64
}

var placementFields = projections.RowMap[placementRow]{
	projections.Text("placement_id", func(r *placementRow) *string { return &r.id }),
	projections.Text("symbol", func(r *placementRow) *string { return &r.symbol }),
	projections.Text("name", func(r *placementRow) *string { return &r.name }),
	projections.Text("market", func(r *placementRow) *string { return &r.market }),
	projections.Text("currency", func(r *placementRow) *string { return &r.currency }),
	projections.Text("price", func(r *placementRow) *string { return &r.price }),
	projections.Integer("lots", func(r *placementRow) *int64 { return &r.lots }),
	projections.Integer("lot_shares", func(r *placementRow) *int64 { return &r.lotShares }),
	projections.Integer("max_lots", func(r *placementRow) *int64 { return &r.maxLots }),
	projections.Integer("opens_at", func(r *placementRow) *int64 { return &r.opensAt }),
	projections.Integer("closes_at", func(r *placementRow) *int64 { return &r.closesAt }),
	projections.Text("listing_date", func(r *placementRow) *string { return &r.listingDate }),
	projections.Text("commitment", func(r *placementRow) *string { return &r.commitment }),
	projections.Text("algorithm", func(r *placementRow) *string { return &r.algorithm }),
	projections.Text("seed", func(r *placementRow) *string { return &r.seed }),
	projections.Integer("requested", func(r *placementRow) *int64 { return &r.requested }),
	projections.Integer("allotted", func(r *placementRow) *int64 { return &r.allotted }),
	projections.Integer("allotted_shares", func(r *placementRow) *int64 { return &r.allottedShares }),
	projections.Integer("listed_at", func(r *placementRow) *int64 { return &r.listedAt }),
	projections.Integer("position", func(r *placementRow) *int64 { return &r.position }),
}

var placementsTable = &projections.Table{
	Name:    "placement_placements",
	Cols:    placementFields.Columns(),
	Key:     []string{"placement_id"},
	Indexes: []string{"opens_at"},
}

type applicationRow struct {
	no, placementID, memberID, symbol, name, price string
	lots, shares                                   int64
	amount, state                                  string
	allotted                                       int64
	cost, refunded                                 string
	delivered, appliedAt, updatedAt, position      int64
}

var applicationFields = projections.RowMap[applicationRow]{
	projections.Text("application_no", func(r *applicationRow) *string { return &r.no }),
	projections.Text("placement_id", func(r *applicationRow) *string { return &r.placementID }),
	projections.Text("member_id", func(r *applicationRow) *string { return &r.memberID }),
	projections.Text("symbol", func(r *applicationRow) *string { return &r.symbol }),
	projections.Text("name", func(r *applicationRow) *string { return &r.name }),
	projections.Text("price", func(r *applicationRow) *string { return &r.price }),
	projections.Integer("lots", func(r *applicationRow) *int64 { return &r.lots }),
	projections.Integer("shares", func(r *applicationRow) *int64 { return &r.shares }),
	projections.Text("amount", func(r *applicationRow) *string { return &r.amount }),
	projections.Text("state", func(r *applicationRow) *string { return &r.state }),
	projections.Integer("allotted", func(r *applicationRow) *int64 { return &r.allotted }),
	projections.Text("cost", func(r *applicationRow) *string { return &r.cost }),
	projections.Text("refunded", func(r *applicationRow) *string { return &r.refunded }),
	projections.Integer("delivered", func(r *applicationRow) *int64 { return &r.delivered }),
	projections.Integer("applied_at", func(r *applicationRow) *int64 { return &r.appliedAt }),
	projections.Integer("updated_at", func(r *applicationRow) *int64 { return &r.updatedAt }),
	projections.Integer("position", func(r *applicationRow) *int64 { return &r.position }),
}

var applicationsTable = &projections.Table{
	Name:    "placement_applications",
	Cols:    applicationFields.Columns(),
	Key:     []string{"application_no"},
	Indexes: []string{"member_id, applied_at", "placement_id, application_no"},
	Fixed:   []string{"placement_id", "member_id", "symbol", "name", "price", "lots", "shares", "amount", "applied_at"},
}

var projector = &projections.Projector{
	Name:    "placement",
	Version: 1,
	Tables:  []*projections.Table{placementsTable, applicationsTable},
	Wants: func(p events.Payload) bool {
		switch p.(type) {
		case events.PlacementOffered, events.PlacementSeedCommitted, events.PlacementApplied, events.PlacementAllotmentRequested,
			events.PlacementAllotted, events.PlacementSettled, events.PlacementDelivered:
			return true
		}
		return false
	},
	Apply: apply,
}

func init() { projections.Register(projector) }

// fold is one page's rows, loaded first and written back after.
type fold struct {
	placements map[string]*placementRow
	apps       map[string]*applicationRow
}

func apply(ctx context.Context, w *projections.Wtx, evs []projections.Decoded) error {
	f := &fold{placements: map[string]*placementRow{}, apps: map[string]*applicationRow{}}
	ids, nos := map[string]struct{}{}, map[string]struct{}{}
	for _, d := range evs {
		switch e := d.P.(type) {
		case events.PlacementSeedCommitted:
			ids[e.OfferingID] = struct{}{}
		case events.PlacementAllotmentRequested:
			ids[e.PlacementID] = struct{}{}
		case events.PlacementAllotted:
			ids[e.PlacementID] = struct{}{}
		case events.PlacementSettled:
			nos[e.No] = struct{}{}
		case events.PlacementDelivered:
			nos[e.No] = struct{}{}
		}
	}
	if err := w.SelectIn(ctx, placementsTable, "placement_id", projections.KeysOf(ids), func(rows projections.Rows) error {
		r := &placementRow{}
		err := placementFields.Scan(rows, r)
		f.placements[r.id] = r
		return err
	}); err != nil {
		return err
	}
	if err := w.SelectIn(ctx, applicationsTable, "application_no", projections.KeysOf(nos), func(rows projections.Rows) error {
		r := &applicationRow{}
		err := applicationFields.Scan(rows, r)
		f.apps[r.no] = r
		return err
	}); err != nil {
		return err
	}
	for _, d := range evs {
		if err := f.apply(d); err != nil {
			return err
		}
	}
	ps := make([][]any, 0, len(f.placements))
	for _, r := range f.placements {
		ps = append(ps, placementFields.Args(r))
	}
	as := make([][]any, 0, len(f.apps))
	for _, r := range f.apps {
		as = append(as, applicationFields.Args(r))
	}
	if err := w.Upsert(ctx, placementsTable, ps); err != nil {
		return err
	}
	return w.Upsert(ctx, applicationsTable, as)
}

func (f *fold) apply(d projections.Decoded) error {
	at, pos := projections.Micros(d.Ev.Metadata.ServerTime), d.Ev.Position
	placement := func(id string) (*placementRow, error) {
		if r := f.placements[id]; r != nil {
			r.position = pos
			return r, nil
		}
		return nil, d.Fail(fmt.Errorf("placement %s unknown", id))
	}
	app := func(no string) (*applicationRow, error) {
		if r := f.apps[no]; r != nil {
			r.updatedAt, r.position = at, pos
			return r, nil
		}
		return nil, d.Fail(fmt.Errorf("application %s unknown", no))
	}
	switch e := d.P.(type) {
	case events.PlacementOffered:
		if f.placements[e.OfferingID] != nil {
			return d.Fail(fmt.Errorf("placement %s offered twice", e.OfferingID))
		}
		f.placements[e.OfferingID] = &placementRow{id: e.OfferingID, symbol: e.Symbol, name: e.Name, market: e.Market, currency: e.Currency,
			price: e.Price.String(), lots: e.Lots, lotShares: e.LotShares, maxLots: e.MaxLotsPerMember, opensAt: projections.Micros(e.OpensAt),
			closesAt: projections.Micros(e.ClosesAt), listingDate: e.ListingDate, listedAt: at, position: pos}
	case events.PlacementSeedCommitted:
		r, err := placement(e.OfferingID)
		if err != nil {
			return err
		}
		r.commitment, r.algorithm = e.Commitment, e.Algorithm
	case events.PlacementAllotmentRequested:
		r, err := placement(e.PlacementID)
		if err != nil {
			return err
		}
		r.requested = 1
	case events.PlacementAllotted:
		r, err := placement(e.PlacementID)
		if err != nil {
			return err
		}
		r.seed, r.algorithm, r.allotted = e.Seed, e.Algorithm, 1
		for _, g := range e.Grants {
			r.allottedShares += g.Shares
		}
	case events.PlacementApplied:
		member, err := projections.MemberOf(d.Ev.Stream)
		if err != nil {
			return d.Fail(err)
		}
		if f.apps[e.ApplicationNo] != nil {
			return d.Fail(fmt.Errorf("application %s recorded twice", e.ApplicationNo))
		}
		f.apps[e.ApplicationNo] = &applicationRow{no: e.ApplicationNo, placementID: e.PlacementID, memberID: member, symbol: e.Symbol, name: e.Name,
			price: e.Price.String(), lots: e.Lots, shares: e.Shares, amount: e.Amount.String(), state: Applied, cost: "0", refunded: "0",
			appliedAt: at, updatedAt: at, position: pos}
	case events.PlacementSettled:
		a, err := app(e.No)
		if err != nil {
			return err
		}
		a.allotted, a.cost, a.refunded, a.state = e.Shares, e.Cost.String(), e.Released.String(), NotAllotted
		if e.Shares > 0 {
			a.state = Allotted
		}
	case events.PlacementDelivered:
		a, err := app(e.No)
		if err != nil {
			return err
		}
		a.state, a.delivered = Delivered, e.Shares
	}
	return nil
}
