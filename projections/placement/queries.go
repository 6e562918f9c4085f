package placement

import (
	"context"
	"fmt"
	"time"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/commands/rules/ipo"
	"github.com/lotbook/lotbook/projections"
)

// Placement is a placement as members and ops read it.
type Placement struct {
	PlacementID, Symbol, Name, Market, Currency string
	Price                                       decimal.Decimal
	Lots, LotShares, MaxLotsPerMember           int64
	OpensAt, ClosesAt                           time.Time
	ListingDate, Commitment, Algorithm, Seed    string // Seed empty until the allotment
	Requested, Allotted                         bool
	AllottedShares, Applications                int64
}

// State is the placement's state at now: upcoming, open, closed (the allotment and settlement
// under way), listed.
func (p Placement) State(now time.Time) string {
	listing, err := time.ParseInLocation(time.DateOnly, p.ListingDate, ipo.Taipei)
	switch {
	case now.Before(p.OpensAt):
		return "upcoming"
	case now.Before(p.ClosesAt):
		return "open"
	case err != nil || now.Before(listing):
		return "closed"
	}
	return "listed"
}

func placements(ctx context.Context, db *projections.Reader, what, where string, args []any) ([]Placement, error) {
	q := "SELECT " + placementFields.List() + ", (SELECT COUNT(*) FROM placement_applications a WHERE a.placement_id = placement_placements.placement_id)" +
		" FROM placement_placements " + where
	var out []Placement
	err := db.Query(ctx, what, q, args, func(rows projections.Rows) error {
		var r placementRow
		var n int64
		if err := placementFields.Scan(appended{rows, []any{&n}}, &r); err != nil {
			return err
		}
		price, err := decimal.NewFromString(r.price)
		if err != nil {
			return fmt.Errorf("placement %s: %w", r.id, err)
		}
		out = append(out, Placement{PlacementID: r.id, Symbol: r.symbol, Name: r.name, Market: r.market, Currency: r.currency, Price: price,
			Lots: r.lots, LotShares: r.lotShares, MaxLotsPerMember: r.maxLots, OpensAt: projections.FromMicros(r.opensAt),
			ClosesAt: projections.FromMicros(r.closesAt), ListingDate: r.listingDate, Commitment: r.commitment, Algorithm: r.algorithm,
			Seed: r.seed, Requested: r.requested != 0, Allotted: r.allotted != 0, AllottedShares: r.allottedShares, Applications: n})
		return nil
	})
	return out, err
}

// appended scans a row's columns and then more.
type appended struct {
	projections.Rows
	more []any
}

func (a appended) Scan(dest ...any) error { return a.Rows.Scan(append(dest, a.more...)...) }

// Placements lists every placement, the latest window first.
func Placements(ctx context.Context, db *projections.Reader) ([]Placement, error) {
	return placements(ctx, db, "placements", "ORDER BY opens_at DESC, placement_id", nil)
}

// ByID is one placement; found is false when there is none.
func ByID(ctx context.Context, db *projections.Reader, id string) (Placement, bool, error) {
	ps, err := placements(ctx, db, "placement", "WHERE placement_id = ?", []any{id})
	if err != nil || len(ps) == 0 {
		return Placement{}, false, err
	}
	return ps[0], true, nil
}

// Application is one member's application with what it was allotted.
type Application struct {
	ApplicationNo, PlacementID, MemberID, Symbol, Name string
	Price, Amount, Cost, Refunded                      decimal.Decimal
	Lots, Shares, Allotted, Delivered                  int64
	State                                              string
	AppliedAt                                          time.Time
	ListingDate                                        string
}

func applications(ctx context.Context, db *projections.Reader, what, where string, args []any) ([]Application, error) {
	q := "SELECT " + applicationFields.List() + ", (SELECT p.listing_date FROM placement_placements p WHERE p.placement_id = placement_applications.placement_id)" +
		" FROM placement_applications " + where
	var out []Application
	err := db.Query(ctx, what, q, args, func(rows projections.Rows) error {
		var r applicationRow
		var listing string
		if err := applicationFields.Scan(appended{rows, []any{&listing}}, &r); err != nil {
			return err
		}
		ds := make([]decimal.Decimal, 4)
		for i, s := range []string{r.price, r.amount, r.cost, r.refunded} {
			v, err := decimal.NewFromString(s)
			if err != nil {
				return fmt.Errorf("application %s: %w", r.no, err)
			}
			ds[i] = v
		}
		out = append(out, Application{ApplicationNo: r.no, PlacementID: r.placementID, MemberID: r.memberID, Symbol: r.symbol, Name: r.name,
			Price: ds[0], Amount: ds[1], Cost: ds[2], Refunded: ds[3], Lots: r.lots, Shares: r.shares, Allotted: r.allotted,
			Delivered: r.delivered, State: r.state, AppliedAt: projections.FromMicros(r.appliedAt), ListingDate: listing})
		return nil
	})
	return out, err
}

// MemberApplications lists a member's applications, the newest first.
func MemberApplications(ctx context.Context, db *projections.Reader, memberID string) ([]Application, error) {
	return applications(ctx, db, "member's placements", "WHERE member_id = ? ORDER BY applied_at DESC, application_no", []any{memberID})
}

// PlacementApplications lists a placement's applications by number (the allotment's order).
func PlacementApplications(ctx context.Context, db *projections.Reader, id string) ([]Application, error) {
	return applications(ctx, db, "placement's applications", "WHERE placement_id = ? ORDER BY application_no", []any{id})
}
