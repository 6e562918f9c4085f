package projections

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/events"
)

// Session is the member behind a signed-in request. The api answers it from the member aggregate
// (commands.SessionOf), not from a read model; requests carry it with the member's profile fields.
type Session struct {
	MemberID, Account, Role string
	ExpiresAt               time.Time
	Flags                   []string // the member's on flags, as Member.Flags: every request checks them
}

// Member is a member's (or staff user's) profile.
type Member struct {
	MemberID, Account, Role, InviteCode, RealNameStatus string
	InviterID                                           string
	FundPasswordSet                                     bool
	Flags                                               []string // on flags, in events.AllFlags order
	Avatar                                              string   // the avatar's file id; "" for none
	CreatedAt                                           time.Time
}

// HasFlag reports whether flag is on.
func (m Member) HasFlag(flag string) bool {
	return slices.Contains(m.Flags, flag)
}

// Balance is a member's cash in one currency.
type Balance struct {
	Available, Frozen decimal.Decimal
}

// Cash is the balance's whole cash: available and frozen.
func (b Balance) Cash() decimal.Decimal { return b.Available.Add(b.Frozen) }

// Channel is a deposit channel.
type Channel struct {
	ID, Name, Currency string
	Min, Max           decimal.Decimal
	Window             events.TimeWindow
	Enabled            bool
	UpdatedAt          time.Time
}

// Reader runs the read-model queries, either on the pool (each query sees the read models as
// they are when it runs) or inside one snapshot (ReadDB.Snapshot: every query sees one moment).
type Reader struct {
	d     dialect
	r     *sql.DB
	stmts *stmtCache // SQLite's prepared statements of r; nil on PostgreSQL
	tx    *sql.Tx    // the snapshot's transaction; nil on the pool
}

// stmt is q's prepared statement for this reader, or nil when q runs as text.
func (db *Reader) stmt(ctx context.Context, q string) *sql.Stmt {
	st := db.stmts.get(ctx, q)
	if st == nil || db.tx == nil {
		return st
	}
	return db.tx.StmtContext(ctx, st)
}

func (db *Reader) QueryRow(ctx context.Context, q string, args ...any) *sql.Row {
	if st := db.stmt(ctx, q); st != nil {
		return st.QueryRowContext(ctx, args...)
	}
	if db.tx != nil {
		return db.tx.QueryRowContext(ctx, db.d.rebind(q), args...)
	}
	return db.r.QueryRowContext(ctx, db.d.rebind(q), args...)
}

func (db *Reader) Query(ctx context.Context, what, q string, args []any, scan func(Rows) error) error {
	var rows *sql.Rows
	var err error
	switch st := db.stmt(ctx, q); {
	case st != nil:
		rows, err = st.QueryContext(ctx, args...)
	case db.tx != nil:
		rows, err = db.tx.QueryContext(ctx, db.d.rebind(q), args...)
	default:
		rows, err = db.r.QueryContext(ctx, db.d.rebind(q), args...)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	defer rows.Close()
	for rows.Next() {
		if err := scan(rows); err != nil {
			return fmt.Errorf("%s: %w", what, err)
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	return nil
}

// snapshot runs read in one read-only transaction over a snapshot of the read models (SQLite's
// WAL snapshot; PostgreSQL's REPEATABLE READ), so that a response built from several queries
// reflects one moment. It returns the account unit's checkpoint in that snapshot: its projectors
// commit every page together, so their tables equal the replay of the log up to it (the lowest
// of their checkpoints while one that was reset catches up). read must not wait for the
// projections: it would wait on its own snapshot.
func (db *ReadDB) snapshot(ctx context.Context, read func(*Reader) error) (int64, error) {
	opts := &sql.TxOptions{ReadOnly: true}
	if db.d.postgres {
		opts.Isolation = sql.LevelRepeatableRead
	} else {
		opts = nil // the read pool is query_only; SQLite's snapshot starts with the first read
	}
	tx, err := db.r.BeginTx(ctx, opts)
	if err != nil {
		return 0, fmt.Errorf("begin read snapshot: %w", err)
	}
	defer tx.Rollback() // after Commit a no-op; on an error there is nothing to keep
	rd := &Reader{d: db.d, r: db.r, stmts: db.rstmts, tx: tx}
	pos, err := rd.unitPosition(ctx, AccountUnit)
	if err != nil {
		return 0, err
	}
	if err := read(rd); err != nil {
		return 0, err
	}
	if err := tx.Commit(); err != nil {
		return 0, fmt.Errorf("end read snapshot: %w", err)
	}
	return pos, nil
}

// unitPosition is the lowest checkpoint of the unit's projectors as this reader sees them.
func (db *Reader) unitPosition(ctx context.Context, name string) (int64, error) {
	u, err := unitNamed(name)
	if err != nil {
		return 0, err
	}
	cps := map[string]int64{}
	err = db.Query(ctx, "read checkpoints", "SELECT name, position FROM projection_checkpoints", nil, func(rows Rows) error {
		var n string
		var pos int64
		if err := rows.Scan(&n, &pos); err != nil {
			return err
		}
		cps[n] = pos
		return nil
	})
	if err != nil {
		return 0, err
	}
	return u.from(wholePositions(cps)), nil
}

func (r *memberRow) member() Member {
	m := Member{MemberID: r.memberID, Account: r.account, Role: r.role, InviteCode: r.inviteCode, InviterID: r.inviterID,
		RealNameStatus: r.realNameStatus, FundPasswordSet: r.fundPasswordSet != 0, Flags: []string{}, Avatar: r.avatar, CreatedAt: FromMicros(r.createdAt)}
	if r.flags != "" {
		m.Flags = strings.Split(r.flags, ",")
	}
	return m
}

func (db *Reader) member(ctx context.Context, col, val string) (Member, error) {
	var r memberRow
	row := db.QueryRow(ctx, "SELECT "+memberFields.List()+" FROM members WHERE "+col+" = ?", val)
	if err := RowErr(memberFields.Scan(row, &r), "member by "+col); err != nil {
		return Member{}, err
	}
	return r.member(), nil
}

// MemberByAccount returns the member who logs in as account, or ErrNotFound.
func (db *Reader) MemberByAccount(ctx context.Context, account string) (Member, error) {
	return db.member(ctx, "account", account)
}

// MemberByID returns the member with id, or ErrNotFound.
func (db *Reader) MemberByID(ctx context.Context, id string) (Member, error) {
	return db.member(ctx, "member_id", id)
}

// maxPageSize bounds the rows one list query returns.
const maxPageSize = 200

// MaxOffset bounds the rows a list query skips before its page. Skipping costs the database about
// as much as reading, and an offset computed from an unbounded page number overflowed (page 1 on
// SQLite, an error on PostgreSQL).
const MaxOffset = 100_000

// pageSize is the rows of a page of size: default 20, at most maxPageSize.
func pageSize(size int) int {
	if size < 1 {
		return 20
	}
	return min(size, maxPageSize)
}

// MaxPage is the deepest page of size rows a list serves; the api refuses deeper ones.
func MaxPage(size int) int { return MaxOffset/pageSize(size) + 1 }

// PageArgs turns a 1-based page and size into LIMIT (one more row, to tell hasMore) and OFFSET.
// The page is held within 1..MaxPage, so the offset never passes MaxOffset nor overflows.
func PageArgs(page, size int) (limit, offset int) {
	size = pageSize(size)
	page = min(max(page, 1), MaxPage(size))
	return size + 1, (page - 1) * size
}

// Members lists members whose account contains q (all when q is empty), and the members named
// by also (found by another read model, e.g. by verified real name), newest first.
func (db *Reader) Members(ctx context.Context, q string, page, size int, also ...string) ([]Member, bool, error) {
	limit, offset := PageArgs(page, size)
	where, args := "", []any{}
	if q != "" {
		where, args = `WHERE account LIKE ? ESCAPE '\'`, append(args, likePattern(q))
		if len(also) > 0 {
			where += " OR member_id IN (" + Placeholders(len(also)) + ")"
			for _, id := range also {
				args = append(args, id)
			}
		}
	}
	var out []Member
	err := db.Query(ctx, "members", "SELECT "+memberFields.List()+" FROM members "+where+" ORDER BY seq DESC LIMIT ? OFFSET ?",
		append(args, limit, offset), Collect(&out, memberFields, func(r *memberRow) (Member, error) { return r.member(), nil }))
	if err != nil {
		return nil, false, err
	}
	return TrimPage(out, limit)
}

// QueueQuery is the query of one page of a review queue: the rows of table with status (all when
// empty), pending ones oldest first (the order to review them in), decided ones newest first.
func QueueQuery(cols, table, status, pending string, page, size int) (q string, args []any, limit int) {
	limit, offset := PageArgs(page, size)
	where, order := "", "DESC"
	if status != "" {
		where, args = "WHERE status = ? ", append(args, status)
	}
	if status == pending {
		order = "ASC"
	}
	return "SELECT " + cols + " FROM " + table + " " + where + "ORDER BY seq " + order + " LIMIT ? OFFSET ?", append(args, limit, offset), limit
}

// NewestFirst is the query of one page of the rows of table whose column col is val, newest
// first (the members' own lists).
func NewestFirst(cols, table, col string, val any, page, size int) (q string, args []any, limit int) {
	limit, offset := PageArgs(page, size)
	return "SELECT " + cols + " FROM " + table + " WHERE " + col + " = ? ORDER BY seq DESC LIMIT ? OFFSET ?", []any{val, limit, offset}, limit
}

// RowErr is the error of a one-row lookup: ErrNotFound when there was no row, any other error
// wrapped as what, nil when the row was read.
func RowErr(err error, what string) error {
	if errors.Is(err, sql.ErrNoRows) {
		return ErrNotFound
	}
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	return nil
}

// TrimPage cuts the extra row a page query asks for (limit is one more than the page size) and
// reports whether there are more.
func TrimPage[T any](items []T, limit int) ([]T, bool, error) {
	if len(items) == limit {
		return items[:limit-1], true, nil
	}
	if items == nil {
		items = []T{}
	}
	return items, false, nil
}

// Balances returns a member's cash per currency (an empty map when nothing was ever credited).
func (db *Reader) Balances(ctx context.Context, memberID string) (map[string]Balance, error) {
	accounts, err := db.MemberBalances(ctx, memberID)
	if err != nil {
		return nil, err
	}
	out := map[string]Balance{}
	for cur, v := range accounts[events.MemberAvailable(memberID)] {
		b := out[cur]
		b.Available = v
		out[cur] = b
	}
	for cur, v := range accounts[events.MemberFrozen(memberID)] {
		b := out[cur]
		b.Frozen = v
		out[cur] = b
	}
	return out, nil
}

// MemberBalances returns the total of every account of the member per asset: ledger account
// name -> asset (currency or security code) -> amount, whatever kinds capabilities declared.
func (db *Reader) MemberBalances(ctx context.Context, memberID string) (map[string]map[string]decimal.Decimal, error) {
	return db.assetSums(ctx, "balances of "+memberID, "SELECT kind, asset, amount FROM balances WHERE member_id = ?",
		[]any{memberID}, func(kind string) (string, error) {
			a, err := events.ParseAccount("member:" + memberID + ":" + kind)
			return a.String(), err
		})
}

// HouseBalances returns the total of every house account per asset.
func (db *Reader) HouseBalances(ctx context.Context) (map[string]map[string]decimal.Decimal, error) {
	return db.assetSums(ctx, "house balances", "SELECT account, asset, amount FROM house_balances", nil,
		func(account string) (string, error) { return account, nil })
}

// assetSums reads (account part, asset, amount) rows into account -> asset -> amount.
func (db *Reader) assetSums(ctx context.Context, what, q string, args []any, account func(string) (string, error)) (map[string]map[string]decimal.Decimal, error) {
	out := map[string]map[string]decimal.Decimal{}
	err := db.Query(ctx, what, q, args, func(rows Rows) error {
		var part, asset, a string
		if err := rows.Scan(&part, &asset, &a); err != nil {
			return err
		}
		acct, err := account(part)
		if err != nil {
			return err
		}
		v, err := decimal.NewFromString(a)
		if err != nil {
			return err
		}
		if out[acct] == nil {
			out[acct] = map[string]decimal.Decimal{}
		}
		out[acct][asset] = v
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// FileSharer tells whether a capability's read model shows memberID the file fileID that
// someone else uploaded (an image ops sent in the member's chat, say). Capabilities register
// theirs in init (RegisterFileSharer).
type FileSharer func(ctx context.Context, rd *Reader, fileID, memberID string) (bool, error)

var fileSharers []FileSharer

// RegisterFileSharer adds a capability's FileSharer; call it from init.
func RegisterFileSharer(f FileSharer) { fileSharers = append(fileSharers, f) }

// FileVisibleTo reports whether memberID may see the file fileID: they uploaded it, or a
// capability shows it to them.
func (db *Reader) FileVisibleTo(ctx context.Context, fileID, memberID string) (bool, error) {
	owned, err := db.FileOwnedBy(ctx, fileID, memberID)
	if owned || err != nil {
		return owned, err
	}
	for _, shared := range fileSharers {
		ok, err := shared(ctx, db, fileID, memberID)
		if ok || err != nil {
			return ok, err
		}
	}
	return false, nil
}

// FileOwnedBy reports whether memberID uploaded the file fileID.
func (db *Reader) FileOwnedBy(ctx context.Context, fileID, memberID string) (bool, error) {
	var n int
	if err := db.QueryRow(ctx, "SELECT COUNT(*) FROM member_files WHERE file_id = ? AND member_id = ?", fileID, memberID).Scan(&n); err != nil {
		return false, fmt.Errorf("file owner: %w", err)
	}
	return n > 0, nil
}
