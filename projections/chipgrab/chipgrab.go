// Package chipgrab is chip grabbing's read model: the offerings with the quota left, and every
// claim with its outcome (frozen, given back, allotted), for the member who made it.
package chipgrab

import (
	"context"
	"fmt"
	"time"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/projections"
)

// Claim statuses as members see them.
const (
	StatusClaimed  = "claimed"  // lots taken, the freeze not yet recorded
	StatusFrozen   = "frozen"   // paid for, waiting for the allotment
	StatusReleased = "released" // could not be paid: the lots went back to the quota
	StatusAllotted = events.StatusAllotted
)

type offeringRow struct {
	id, symbol, name, price                            string
	quota, remaining, perMember, opensAt, closesAt, at int64
	allotting, seq                                     int64
}

var offeringFields = projections.RowMap[offeringRow]{
	projections.Text("offering_id", func(r *offeringRow) *string { return &r.id }),
	projections.Text("symbol", func(r *offeringRow) *string { return &r.symbol }),
	projections.Text("name", func(r *offeringRow) *string { return &r.name }),
	projections.Text("price", func(r *offeringRow) *string { return &r.price }),
	projections.Integer("quota_lots", func(r *offeringRow) *int64 { return &r.quota }),
	projections.Integer("remaining_lots", func(r *offeringRow) *int64 { return &r.remaining }),
	projections.Integer("max_lots_per_member", func(r *offeringRow) *int64 { return &r.perMember }),
	projections.Integer("opens_at", func(r *offeringRow) *int64 { return &r.opensAt }),
	projections.Integer("closes_at", func(r *offeringRow) *int64 { return &r.closesAt }),
	projections.Integer("updated_at", func(r *offeringRow) *int64 { return &r.at }),
	projections.Integer("allotting", func(r *offeringRow) *int64 { return &r.allotting }),
	projections.Integer("seq", func(r *offeringRow) *int64 { return &r.seq }),
}

var offeringsTable = &projections.Table{
	Name:    "chipgrab_offerings",
	Cols:    offeringFields.Columns(),
	Key:     []string{"offering_id"},
	Indexes: []string{"seq"},
	Fixed:   []string{"symbol", "name", "price", "quota_lots", "max_lots_per_member", "opens_at", "closes_at", "seq"},
}

type claimRow struct {
	orderNo, memberID, offeringID, amount, status, reason string
	lots, createdAt, updatedAt, seq                       int64
}

var claimFields = projections.RowMap[claimRow]{
	projections.Text("order_no", func(r *claimRow) *string { return &r.orderNo }),
	projections.Text("member_id", func(r *claimRow) *string { return &r.memberID }),
	projections.Text("offering_id", func(r *claimRow) *string { return &r.offeringID }),
	projections.Text("amount", func(r *claimRow) *string { return &r.amount }),
	projections.Text("status", func(r *claimRow) *string { return &r.status }),
	projections.Text("reason", func(r *claimRow) *string { return &r.reason }),
	projections.Integer("lots", func(r *claimRow) *int64 { return &r.lots }),
	projections.Integer("created_at", func(r *claimRow) *int64 { return &r.createdAt }),
	projections.Integer("updated_at", func(r *claimRow) *int64 { return &r.updatedAt }),
	projections.Integer("seq", func(r *claimRow) *int64 { return &r.seq }),
}

var claimsTable = &projections.Table{
	Name:    "chipgrab_claims",
	Cols:    claimFields.Columns(),
	Key:     []string{"order_no"},
	Indexes: []string{"member_id, seq", "offering_id"},
	Fixed:   []string{"member_id", "offering_id", "lots", "created_at", "seq"},
}

// directory names the claimants in ops' list: login account and verified name.
var directory = projections.NamesDirectory("chipgrab")

var (
	offerings = &projections.Keyed[offeringRow]{Table: offeringsTable, Fields: offeringFields,
		Key: func(r *offeringRow) string { return r.id }, What: "chip grab offering",
		Changes: projections.KeyBy(
			projections.On(func(e events.ChipGrabClaimed) string { return e.OfferingID }),
			projections.On(func(e events.ChipGrabClaimReleased) string { return e.OfferingID }),
			projections.On(func(e events.ChipGrabAllotmentStarted) string { return e.OfferingID }))}
	claims = &projections.Keyed[claimRow]{Table: claimsTable, Fields: claimFields,
		Key: func(r *claimRow) string { return r.orderNo }, What: "chip grab claim",
		Changes: projections.KeyBy(
			projections.On(func(e events.ChipGrabFrozen) string { return e.OrderNo }),
			projections.On(func(e events.ChipGrabFreezeRefused) string { return e.OrderNo }),
			projections.On(func(e events.ChipGrabClaimReleased) string { return e.OrderNo }),
			projections.On(func(e events.ChipGrabAllotted) string { return e.OrderNo }))}
)

var projector = &projections.Projector{
	Name:    "chipgrab",
	Version: 2,
	Tables:  append([]*projections.Table{offeringsTable, claimsTable}, directory.Tables()...),
	Wants: directory.Wanting(events.ChipGrabOffered{}, events.ChipGrabClaimed{}, events.ChipGrabClaimReleased{},
		events.ChipGrabAllotmentStarted{}, events.ChipGrabFrozen{}, events.ChipGrabFreezeRefused{}, events.ChipGrabAllotted{}),
	Apply: apply,
}

func init() { projections.Register(projector) }

// page is the offerings and claims one page of events writes.
type page struct {
	offs   *projections.PageRows[offeringRow]
	claims *projections.PageRows[claimRow]
}

func apply(ctx context.Context, w *projections.Wtx, evs []projections.Decoded) error {
	pg := page{offs: offerings.Page(evs), claims: claims.Page(evs)}
	if _, err := directory.Apply(ctx, w, evs, nil); err != nil {
		return err
	}
	return projections.FoldPage(ctx, w, evs, pg.fold, pg.offs, pg.claims)
}

func (pg *page) fold(d projections.Decoded) error {
	if directory.Owns(d.P) {
		return nil
	}
	at := projections.Micros(d.Ev.Metadata.ServerTime)
	if e, ok := d.P.(events.ChipGrabOffered); ok {
		pg.offs.Put(&offeringRow{id: e.OfferingID, symbol: e.Symbol, name: e.Name, price: e.Price.String(), quota: e.QuotaLots,
			remaining: e.QuotaLots, perMember: e.MaxLotsPerMember, opensAt: projections.Micros(e.OpensAt),
			closesAt: projections.Micros(e.ClosesAt), at: at, seq: d.Ev.Position})
		return nil
	}
	if id := offerings.Changes(d); id != "" {
		o, err := pg.offs.Changed(d, id)
		if err != nil {
			return err
		}
		o.at = at
		switch e := d.P.(type) {
		case events.ChipGrabClaimed:
			o.remaining = e.RemainingLots
			pg.claims.Put(&claimRow{orderNo: e.OrderNo, memberID: e.MemberID, offeringID: e.OfferingID, amount: "0",
				status: StatusClaimed, lots: e.Lots, createdAt: at, updatedAt: at, seq: d.Ev.Position})
			return nil
		case events.ChipGrabClaimReleased:
			o.remaining = e.RemainingLots
		case events.ChipGrabAllotmentStarted:
			o.allotting = 1
			return nil
		}
	}
	c, err := pg.claims.Changed(d, claims.Changes(d))
	if err != nil {
		return err
	}
	c.updatedAt = at
	switch e := d.P.(type) {
	case events.ChipGrabFrozen:
		c.status, c.amount = StatusFrozen, e.Amount.String()
	case events.ChipGrabFreezeRefused:
		c.reason = e.Reason
	case events.ChipGrabClaimReleased:
		c.status, c.reason = StatusReleased, e.Reason
	case events.ChipGrabAllotted:
		c.status = StatusAllotted
	}
	return nil
}

// Offering is an offering with the quota left.
type Offering struct {
	OfferingID, Symbol, Name                   string
	Price                                      decimal.Decimal
	QuotaLots, RemainingLots, MaxLotsPerMember int64
	OpensAt, ClosesAt                          time.Time
	Allotting                                  bool
}

func (r *offeringRow) offering() (Offering, error) {
	price, err := decimal.NewFromString(r.price)
	if err != nil {
		return Offering{}, fmt.Errorf("offering %s: %w", r.id, err)
	}
	return Offering{OfferingID: r.id, Symbol: r.symbol, Name: r.name, Price: price, QuotaLots: r.quota,
		RemainingLots: r.remaining, MaxLotsPerMember: r.perMember, OpensAt: projections.FromMicros(r.opensAt),
		ClosesAt: projections.FromMicros(r.closesAt), Allotting: r.allotting == 1}, nil
}

// Offerings lists every offering, newest first.
func Offerings(ctx context.Context, db *projections.Reader) ([]Offering, error) {
	return projections.QueryAll(ctx, db, "chip grab offerings", "SELECT "+offeringFields.List()+" FROM chipgrab_offerings ORDER BY seq DESC", nil,
		projections.Scanner(offeringFields, (*offeringRow).offering))
}

// Claim is one of a member's claims with its offering's security and price.
type Claim struct {
	OrderNo, OfferingID, Symbol, Name, Status, Reason string
	Price, Amount                                     decimal.Decimal
	Lots                                              int64
	CreatedAt, UpdatedAt                              time.Time
}

// claimColumns are the columns scanClaim reads, from chipgrab_claims c joined with its offering o.
const claimColumns = `c.order_no, c.offering_id, o.symbol, o.name, c.status, c.reason, o.price, c.amount, c.lots, c.created_at, c.updated_at`

// scanClaim reads claimColumns into c, then the further columns into more.
func scanClaim(rows projections.Rows, c *Claim, more ...any) error {
	var price, amount string
	var created, updated int64
	if err := rows.Scan(append([]any{&c.OrderNo, &c.OfferingID, &c.Symbol, &c.Name, &c.Status, &c.Reason, &price, &amount, &c.Lots,
		&created, &updated}, more...)...); err != nil {
		return err
	}
	var err error
	if c.Price, err = decimal.NewFromString(price); err != nil {
		return fmt.Errorf("claim %s: %w", c.OrderNo, err)
	}
	if c.Amount, err = decimal.NewFromString(amount); err != nil {
		return fmt.Errorf("claim %s: %w", c.OrderNo, err)
	}
	c.CreatedAt, c.UpdatedAt = projections.FromMicros(created), projections.FromMicros(updated)
	return nil
}

// MemberClaims lists a member's claims, newest first (page from 1).
func MemberClaims(ctx context.Context, db *projections.Reader, memberID string, page, size int) ([]Claim, bool, error) {
	q := `SELECT ` + claimColumns + ` FROM chipgrab_claims c JOIN chipgrab_offerings o ON o.offering_id = c.offering_id
		WHERE c.member_id = ? ORDER BY c.seq DESC LIMIT ? OFFSET ?`
	limit, offset := projections.PageArgs(page, size)
	return projections.QueryPage(ctx, db, "chip grab claims", q, []any{memberID, limit, offset}, limit,
		func(rows projections.Rows) (Claim, error) {
			var c Claim
			err := scanClaim(rows, &c)
			return c, err
		})
}

// OpsClaim is a claim in ops' list: the claim with its claimant's login account and verified
// name ("" when not verified).
type OpsClaim struct {
	Claim
	Account, MemberName string
}

// OfferingClaims lists an offering's claims in claim order, with their claimants (page from 1).
func OfferingClaims(ctx context.Context, db *projections.Reader, offeringID string, page, size int) ([]OpsClaim, bool, error) {
	q := `SELECT ` + claimColumns + `, COALESCE(a.account, ''), COALESCE(n.name, '')
		FROM chipgrab_claims c JOIN chipgrab_offerings o ON o.offering_id = c.offering_id
		LEFT JOIN chipgrab_accounts a ON a.member_id = c.member_id LEFT JOIN chipgrab_names n ON n.member_id = c.member_id
		WHERE c.offering_id = ? ORDER BY c.seq LIMIT ? OFFSET ?`
	limit, offset := projections.PageArgs(page, size)
	return projections.QueryPage(ctx, db, "chip grab claims of an offering", q, []any{offeringID, limit, offset}, limit,
		func(rows projections.Rows) (OpsClaim, error) {
			var c OpsClaim
			err := scanClaim(rows, &c.Claim, &c.Account, &c.MemberName)
			return c, err
		})
}
