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

// accountsTable and namesTable name the claimants in ops' list: login account and verified name.
var (
	accountsTable = projections.MemberAccountsTable("chipgrab_accounts")
	namesTable    = projections.MemberNamesTable("chipgrab_names")
)

var projector = &projections.Projector{
	Name:    "chipgrab",
	Version: 2,
	Tables:  []*projections.Table{offeringsTable, claimsTable, accountsTable, namesTable},
	Wants: func(p events.Payload) bool {
		if projections.WantsMemberName(p) {
			return true
		}
		switch p.(type) {
		case events.MemberRegistered:
			return true
		case events.ChipGrabOffered, events.ChipGrabClaimed, events.ChipGrabClaimReleased, events.ChipGrabAllotmentStarted,
			events.ChipGrabFrozen, events.ChipGrabFreezeRefused, events.ChipGrabAllotted:
			return true
		}
		return false
	},
	Apply: apply,
}

func init() { projections.Register(projector) }

// offeringOf and claimOf name the row an event changes ("" for an event that creates its row).
func offeringOf(p events.Payload) string {
	switch e := p.(type) {
	case events.ChipGrabClaimed:
		return e.OfferingID
	case events.ChipGrabClaimReleased:
		return e.OfferingID
	case events.ChipGrabAllotmentStarted:
		return e.OfferingID
	}
	return ""
}

func claimOf(p events.Payload) string {
	switch e := p.(type) {
	case events.ChipGrabFrozen:
		return e.OrderNo
	case events.ChipGrabFreezeRefused:
		return e.OrderNo
	case events.ChipGrabClaimReleased:
		return e.OrderNo
	case events.ChipGrabAllotted:
		return e.OrderNo
	}
	return ""
}

// apply loads the rows the page changes that earlier pages created, folds the page over them and
// writes them back, so that a page and the same events one by one agree.
func apply(ctx context.Context, w *projections.Wtx, evs []projections.Decoded) error {
	offs, claims := map[string]*offeringRow{}, map[string]*claimRow{}
	needOffs, needClaims := map[string]bool{}, map[string]bool{}
	for _, d := range evs {
		if id := offeringOf(d.P); id != "" {
			needOffs[id] = true
		}
		if no := claimOf(d.P); no != "" {
			needClaims[no] = true
		}
	}
	if err := w.SelectIn(ctx, offeringsTable, "offering_id", projections.KeysOf(needOffs), func(rows projections.Rows) error {
		r := &offeringRow{}
		if err := offeringFields.Scan(rows, r); err != nil {
			return err
		}
		offs[r.id] = r
		return nil
	}); err != nil {
		return err
	}
	if err := w.SelectIn(ctx, claimsTable, "order_no", projections.KeysOf(needClaims), func(rows projections.Rows) error {
		r := &claimRow{}
		if err := claimFields.Scan(rows, r); err != nil {
			return err
		}
		claims[r.orderNo] = r
		return nil
	}); err != nil {
		return err
	}
	var accountRows [][]any
	for _, d := range evs {
		if e, ok := d.P.(events.MemberRegistered); ok {
			accountRows = append(accountRows, projections.MemberAccountFields.Args(&projections.MemberAccount{MemberID: e.MemberID, Account: e.Account}))
			continue
		}
		if projections.WantsMemberName(d.P) {
			if err := projections.ApplyMemberName(ctx, w, namesTable, d); err != nil {
				return d.Fail(err)
			}
			continue
		}
		if err := fold(d, offs, claims); err != nil {
			return err
		}
	}
	if err := w.Upsert(ctx, accountsTable, accountRows); err != nil {
		return err
	}
	offRows := make([][]any, 0, len(offs))
	for _, r := range offs {
		offRows = append(offRows, offeringFields.Args(r))
	}
	if err := w.Upsert(ctx, offeringsTable, offRows); err != nil {
		return err
	}
	claimRows := make([][]any, 0, len(claims))
	for _, r := range claims {
		claimRows = append(claimRows, claimFields.Args(r))
	}
	return w.Upsert(ctx, claimsTable, claimRows)
}

func fold(d projections.Decoded, offs map[string]*offeringRow, claims map[string]*claimRow) error {
	at := projections.Micros(d.Ev.Metadata.ServerTime)
	if e, ok := d.P.(events.ChipGrabOffered); ok {
		offs[e.OfferingID] = &offeringRow{id: e.OfferingID, symbol: e.Symbol, name: e.Name, price: e.Price.String(), quota: e.QuotaLots,
			remaining: e.QuotaLots, perMember: e.MaxLotsPerMember, opensAt: projections.Micros(e.OpensAt),
			closesAt: projections.Micros(e.ClosesAt), at: at, seq: d.Ev.Position}
		return nil
	}
	if id := offeringOf(d.P); id != "" {
		o := offs[id]
		if o == nil {
			return d.Fail(fmt.Errorf("chip grab offering %s never offered", id))
		}
		o.at = at
		switch e := d.P.(type) {
		case events.ChipGrabClaimed:
			o.remaining = e.RemainingLots
			claims[e.OrderNo] = &claimRow{orderNo: e.OrderNo, memberID: e.MemberID, offeringID: e.OfferingID, amount: "0",
				status: StatusClaimed, lots: e.Lots, createdAt: at, updatedAt: at, seq: d.Ev.Position}
			return nil
		case events.ChipGrabClaimReleased:
			o.remaining = e.RemainingLots
		case events.ChipGrabAllotmentStarted:
			o.allotting = 1
			return nil
		}
	}
	no := claimOf(d.P)
	c := claims[no]
	if c == nil {
		return d.Fail(fmt.Errorf("chip grab claim %s never made", no))
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

// Offerings lists every offering, newest first.
func Offerings(ctx context.Context, db *projections.Reader) ([]Offering, error) {
	out := []Offering{}
	err := db.Query(ctx, "chip grab offerings", "SELECT "+offeringFields.List()+" FROM chipgrab_offerings ORDER BY seq DESC", nil,
		func(rows projections.Rows) error {
			var r offeringRow
			if err := offeringFields.Scan(rows, &r); err != nil {
				return err
			}
			price, err := decimal.NewFromString(r.price)
			if err != nil {
				return fmt.Errorf("offering %s: %w", r.id, err)
			}
			out = append(out, Offering{OfferingID: r.id, Symbol: r.symbol, Name: r.name, Price: price, QuotaLots: r.quota,
				RemainingLots: r.remaining, MaxLotsPerMember: r.perMember, OpensAt: projections.FromMicros(r.opensAt),
				ClosesAt: projections.FromMicros(r.closesAt), Allotting: r.allotting == 1})
			return nil
		})
	return out, err
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
	var out []Claim
	err := db.Query(ctx, "chip grab claims", q, []any{memberID, size + 1, (page - 1) * size}, func(rows projections.Rows) error {
		var c Claim
		if err := scanClaim(rows, &c); err != nil {
			return err
		}
		out = append(out, c)
		return nil
	})
	if err != nil {
		return nil, false, err
	}
	return projections.TrimPage(out, size+1)
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
	var out []OpsClaim
	err := db.Query(ctx, "chip grab claims of an offering", q, []any{offeringID, size + 1, (page - 1) * size}, func(rows projections.Rows) error {
		var c OpsClaim
		if err := scanClaim(rows, &c.Claim, &c.Account, &c.MemberName); err != nil {
			return err
		}
		out = append(out, c)
		return nil
	})
	if err != nil {
		return nil, false, err
	}
	return projections.TrimPage(out, size+1)
}
