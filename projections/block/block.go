// Package block is the block trade capability's read model: the blocks ops listed, and every
// application with its applied and filled lots, for the member who made it and for ops reviewing
// it.
package block

import (
	"context"
	"fmt"
	"time"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/projections"
)

// Application statuses (the spec's pending review, passed, rejected).
const (
	StatusPending  = events.ReviewPending
	StatusApproved = events.ReviewApproved
	StatusRejected = events.ReviewRejected
)

type listingRow struct {
	blockID, symbol, name, reference, premium, price string
	minLots, capLots, hasPassword, opensAt, closesAt int64
	closed, closedAt, seq, totalLots                 int64
}

var listingFields = projections.RowMap[listingRow]{
	projections.Text("block_id", func(r *listingRow) *string { return &r.blockID }),
	projections.Text("symbol", func(r *listingRow) *string { return &r.symbol }),
	projections.Text("name", func(r *listingRow) *string { return &r.name }),
	projections.Text("reference_price", func(r *listingRow) *string { return &r.reference }),
	projections.Text("premium_rate", func(r *listingRow) *string { return &r.premium }),
	projections.Text("price", func(r *listingRow) *string { return &r.price }),
	projections.Integer("min_lots", func(r *listingRow) *int64 { return &r.minLots }),
	projections.Integer("daily_cap_lots", func(r *listingRow) *int64 { return &r.capLots }),
	projections.Integer("has_password", func(r *listingRow) *int64 { return &r.hasPassword }),
	projections.Integer("opens_at", func(r *listingRow) *int64 { return &r.opensAt }),
	projections.Integer("closes_at", func(r *listingRow) *int64 { return &r.closesAt }),
	projections.Integer("closed", func(r *listingRow) *int64 { return &r.closed }),
	projections.Integer("closed_at", func(r *listingRow) *int64 { return &r.closedAt }),
	projections.Integer("seq", func(r *listingRow) *int64 { return &r.seq }),
	projections.Integer("total_lots", func(r *listingRow) *int64 { return &r.totalLots }),
}

var listingsTable = &projections.Table{
	Name:    "block_listings",
	Cols:    listingFields.Columns(),
	Key:     []string{"block_id"},
	Indexes: []string{"seq"},
	Fixed: []string{"symbol", "name", "reference_price", "premium_rate", "price", "min_lots", "daily_cap_lots", "has_password",
		"opens_at", "closes_at", "seq", "total_lots"},
}

type applicationRow struct {
	orderNo, memberID, account, blockID, symbol, name, price, bid, amount string
	status, remark, reviewedBy                                            string
	lots, filledLots, createdAt, updatedAt, seq                           int64
}

var applicationFields = projections.RowMap[applicationRow]{
	projections.Text("order_no", func(r *applicationRow) *string { return &r.orderNo }),
	projections.Text("member_id", func(r *applicationRow) *string { return &r.memberID }),
	projections.Text("account", func(r *applicationRow) *string { return &r.account }),
	projections.Text("block_id", func(r *applicationRow) *string { return &r.blockID }),
	projections.Text("symbol", func(r *applicationRow) *string { return &r.symbol }),
	projections.Text("name", func(r *applicationRow) *string { return &r.name }),
	projections.Text("price", func(r *applicationRow) *string { return &r.price }),
	projections.Text("bid", func(r *applicationRow) *string { return &r.bid }),
	projections.Text("amount", func(r *applicationRow) *string { return &r.amount }),
	projections.Text("status", func(r *applicationRow) *string { return &r.status }),
	projections.Text("remark", func(r *applicationRow) *string { return &r.remark }),
	projections.Text("reviewed_by", func(r *applicationRow) *string { return &r.reviewedBy }),
	projections.Integer("lots", func(r *applicationRow) *int64 { return &r.lots }),
	projections.Integer("filled_lots", func(r *applicationRow) *int64 { return &r.filledLots }),
	projections.Integer("created_at", func(r *applicationRow) *int64 { return &r.createdAt }),
	projections.Integer("updated_at", func(r *applicationRow) *int64 { return &r.updatedAt }),
	projections.Integer("seq", func(r *applicationRow) *int64 { return &r.seq }),
}

var applicationsTable = &projections.Table{
	Name:    "block_applications",
	Cols:    applicationFields.Columns(),
	Key:     []string{"order_no"},
	Indexes: []string{"member_id, seq", "status, seq", "block_id"},
	Fixed:   []string{"member_id", "account", "block_id", "symbol", "name", "price", "bid", "amount", "lots", "created_at", "seq"},
}

// directory names the applicants in ops' queue: login account and verified name.
var directory = projections.NamesDirectory("block")

var (
	listings = &projections.Keyed[listingRow]{Table: listingsTable, Fields: listingFields,
		Key: func(r *listingRow) string { return r.blockID }, What: "block",
		Changes: projections.KeyBy(projections.On(func(e events.BlockClosed) string { return e.BlockID }))}
	applications = &projections.Keyed[applicationRow]{Table: applicationsTable, Fields: applicationFields,
		Key: func(r *applicationRow) string { return r.orderNo }, What: "block application",
		Changes: projections.KeyBy(
			projections.On(func(e events.BlockApplicationApproved) string { return e.OrderNo }),
			projections.On(func(e events.BlockApplicationRejected) string { return e.OrderNo }),
		)}
)

var projector = &projections.Projector{
	Name:    "block",
	Version: 2,
	Tables:  append([]*projections.Table{listingsTable, applicationsTable}, directory.Tables()...),
	Wants: directory.Wanting(events.BlockListed{}, events.BlockClosed{}, events.BlockApplied{},
		events.BlockApplicationApproved{}, events.BlockApplicationRejected{}),
	Apply: apply,
}

func init() { projections.Register(projector) }

// page is one page's rows: those it creates and those it changes that earlier pages created,
// and the login accounts of its applicants.
type page struct {
	listings *projections.PageRows[listingRow]
	apps     *projections.PageRows[applicationRow]
	accounts map[string]string
}

func apply(ctx context.Context, w *projections.Wtx, evs []projections.Decoded) error {
	accounts, err := directory.Apply(ctx, w, evs, isApplied)
	if err != nil {
		return err
	}
	pg := page{listings: listings.Page(evs), apps: applications.Page(evs), accounts: accounts}
	return projections.FoldPage(ctx, w, evs, pg.apply, pg.listings, pg.apps)
}

func isApplied(p events.Payload) bool {
	_, ok := p.(events.BlockApplied)
	return ok
}

func (pg *page) apply(d projections.Decoded) error {
	at := projections.Micros(d.Ev.Metadata.ServerTime)
	switch e := d.P.(type) {
	case events.BlockListed:
		pg.listings.Put(&listingRow{blockID: e.BlockID, symbol: e.Symbol, name: e.Name, reference: e.ReferencePrice.String(),
			premium: e.PremiumRate.String(), price: e.Price.String(), minLots: e.MinLots, capLots: e.DailyCapLots,
			hasPassword: projections.BoolInt(e.PasswordHash != ""), opensAt: projections.Micros(e.OpensAt),
			closesAt: projections.Micros(e.ClosesAt), seq: d.Ev.Position, totalLots: e.TotalLots})
	case events.BlockClosed:
		r, err := pg.listings.Changed(d, e.BlockID)
		if err != nil {
			return err
		}
		r.closed, r.closedAt = 1, at
	case events.BlockApplied:
		member, err := projections.MemberOf(d.Ev.Stream)
		if err != nil {
			return d.Fail(err)
		}
		pg.apps.Put(&applicationRow{orderNo: e.OrderNo, memberID: member, account: pg.accounts[member], blockID: e.BlockID,
			symbol: e.Symbol, name: e.Name, price: e.Price.String(), bid: e.Bid.String(), amount: e.Amount.String(),
			status: StatusPending, lots: e.Lots, createdAt: at, updatedAt: at, seq: d.Ev.Position})
	case events.BlockApplicationApproved:
		return pg.decide(d, e.OrderNo, StatusApproved, e.Remark, e.Lots, at)
	case events.BlockApplicationRejected:
		return pg.decide(d, e.OrderNo, StatusRejected, e.Remark, 0, at)
	}
	return nil
}

func (pg *page) decide(d projections.Decoded, orderNo, status, remark string, filled, at int64) error {
	r, err := pg.apps.Changed(d, orderNo)
	if err != nil {
		return err
	}
	r.status, r.remark, r.reviewedBy, r.filledLots, r.updatedAt = status, remark, d.Ev.Metadata.Actor, filled, at
	return nil
}

// Listing is a block as members and ops see it. AppliedLots and FilledLots sum its applications
// that were not rejected and those approved; TotalLots is the block's size (0: none kept).
type Listing struct {
	BlockID, Symbol, Name              string
	ReferencePrice, PremiumRate, Price decimal.Decimal
	MinLots, DailyCapLots, TotalLots   int64
	HasPassword, Closed                bool
	OpensAt, ClosesAt                  time.Time
	AppliedLots, FilledLots            int64
	ClosedAt                           time.Time // zero unless ops closed it
}

// Open tells whether the block takes applications at now.
func (l Listing) Open(now time.Time) bool {
	return !l.Closed && !now.Before(l.OpensAt) && now.Before(l.ClosesAt)
}

const listingQuery = `SELECT l.block_id, l.symbol, l.name, l.reference_price, l.premium_rate, l.price, l.min_lots, l.daily_cap_lots,
	l.has_password, l.opens_at, l.closes_at, l.closed, l.closed_at, l.seq, l.total_lots,
	COALESCE((SELECT SUM(a.lots) FROM block_applications a WHERE a.block_id = l.block_id AND a.status <> 'rejected'), 0),
	COALESCE((SELECT SUM(a.filled_lots) FROM block_applications a WHERE a.block_id = l.block_id), 0)
	FROM block_listings l`

func scanListing(rows projections.Rows) (Listing, error) {
	var r listingRow
	var applied, filled int64
	if err := rows.Scan(&r.blockID, &r.symbol, &r.name, &r.reference, &r.premium, &r.price, &r.minLots, &r.capLots,
		&r.hasPassword, &r.opensAt, &r.closesAt, &r.closed, &r.closedAt, &r.seq, &r.totalLots, &applied, &filled); err != nil {
		return Listing{}, err
	}
	var ds [3]decimal.Decimal
	for i, s := range []string{r.reference, r.premium, r.price} {
		v, err := decimal.NewFromString(s)
		if err != nil {
			return Listing{}, fmt.Errorf("block %s: %w", r.blockID, err)
		}
		ds[i] = v
	}
	l := Listing{BlockID: r.blockID, Symbol: r.symbol, Name: r.name, ReferencePrice: ds[0], PremiumRate: ds[1], Price: ds[2],
		MinLots: r.minLots, DailyCapLots: r.capLots, TotalLots: r.totalLots, HasPassword: r.hasPassword == 1, Closed: r.closed == 1,
		OpensAt: projections.FromMicros(r.opensAt), ClosesAt: projections.FromMicros(r.closesAt), AppliedLots: applied, FilledLots: filled}
	if r.closed == 1 {
		l.ClosedAt = projections.FromMicros(r.closedAt)
	}
	return l, nil
}

// Listings lists blocks newest first; open only keeps those that take applications at now.
func Listings(ctx context.Context, db *projections.Reader, open bool, now time.Time) ([]Listing, error) {
	q, args := listingQuery+" ORDER BY l.seq DESC", []any{}
	if open {
		q = listingQuery + " WHERE l.closed = 0 AND l.opens_at <= ? AND l.closes_at > ? ORDER BY l.seq DESC"
		args = []any{projections.Micros(now), projections.Micros(now)}
	}
	return projections.QueryAll(ctx, db, "block listings", q, args, scanListing)
}

// ListingByID is one block (projections.ErrNotFound when there is none).
func ListingByID(ctx context.Context, db *projections.Reader, blockID string) (Listing, error) {
	return projections.QueryOne(ctx, db, "block listing", listingQuery+" WHERE l.block_id = ?", []any{blockID}, scanListing)
}

// Application is one member's application with its applied and filled lots. MemberName is the
// applicant's verified name, in ops' queue only ("" when not verified).
type Application struct {
	OrderNo, MemberID, Account, BlockID, Symbol, Name string
	MemberName                                        string
	Price, Bid, Amount                                decimal.Decimal
	Lots, FilledLots                                  int64
	Status, Remark, ReviewedBy                        string
	CreatedAt, UpdatedAt                              time.Time
}

func (r *applicationRow) application() (Application, error) {
	var ds [3]decimal.Decimal
	for i, s := range []string{r.price, r.bid, r.amount} {
		v, err := decimal.NewFromString(s)
		if err != nil {
			return Application{}, fmt.Errorf("block application %s: %w", r.orderNo, err)
		}
		ds[i] = v
	}
	return Application{OrderNo: r.orderNo, MemberID: r.memberID, Account: r.account, BlockID: r.blockID, Symbol: r.symbol, Name: r.name,
		Price: ds[0], Bid: ds[1], Amount: ds[2], Lots: r.lots, FilledLots: r.filledLots, Status: r.status, Remark: r.remark,
		ReviewedBy: r.reviewedBy, CreatedAt: projections.FromMicros(r.createdAt), UpdatedAt: projections.FromMicros(r.updatedAt)}, nil
}

// scanApplication reads an application's row.
var scanApplication = projections.Scanner(applicationFields, (*applicationRow).application)

// MemberApplications lists a member's applications, newest first (page from 1).
func MemberApplications(ctx context.Context, db *projections.Reader, memberID string, page, size int) ([]Application, bool, error) {
	q, args, limit := projections.NewestFirst(applicationFields.List(), "block_applications", "member_id", memberID, page, size)
	return projections.QueryPage(ctx, db, "block applications", q, args, limit, scanApplication)
}

// Queue lists applications by status for ops (all when status is empty): pending oldest first.
func Queue(ctx context.Context, db *projections.Reader, status string, page, size int) ([]Application, bool, error) {
	q, args, limit := projections.QueueQuery(applicationFields.List(), "block_applications", status, StatusPending, page, size)
	apps, more, err := projections.QueryPage(ctx, db, "block applications", q, args, limit, scanApplication)
	if err != nil || len(apps) == 0 {
		return apps, more, err
	}
	ids := make([]string, len(apps))
	for i, a := range apps {
		ids[i] = a.MemberID
	}
	names, err := projections.MemberNames(ctx, db, directory.Names.Name, ids)
	for i := range apps {
		apps[i].MemberName = names[apps[i].MemberID]
	}
	return apps, more, err
}

// ApplicationByNo is one application (projections.ErrNotFound when there is none).
func ApplicationByNo(ctx context.Context, db *projections.Reader, orderNo string) (Application, error) {
	q := "SELECT " + applicationFields.List() + " FROM block_applications WHERE order_no = ?"
	return projections.QueryOne(ctx, db, "block application", q, []any{orderNo}, scanApplication)
}
