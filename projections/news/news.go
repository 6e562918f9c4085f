// Package news is the read model of news and notices: the items with their state and text, each
// item's history of ops actions (who, when, what), and each member's read items, from which the
// unread counts come.
//
// A scheduled item is stored as scheduled with its time; every member query takes the reader's
// clock and shows an item when it is published, or scheduled with a time not after now
// (events.NewsState), so an item appears at its time without anything written then.
package news

import (
	"context"
	"fmt"
	"time"

	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/projections"
)

type itemRow struct {
	id, kind, state                    string
	titleTW, titleEN, bodyTW, bodyEN   string
	createdBy, updatedBy               string
	at, createdAt, updatedAt, seq, pos int64
}

var itemFields = projections.RowMap[itemRow]{
	projections.Text("id", func(r *itemRow) *string { return &r.id }),
	projections.Text("kind", func(r *itemRow) *string { return &r.kind }),
	projections.Text("state", func(r *itemRow) *string { return &r.state }),
	projections.Text("title_tw", func(r *itemRow) *string { return &r.titleTW }),
	projections.Text("title_en", func(r *itemRow) *string { return &r.titleEN }),
	projections.Text("body_tw", func(r *itemRow) *string { return &r.bodyTW }),
	projections.Text("body_en", func(r *itemRow) *string { return &r.bodyEN }),
	projections.Text("created_by", func(r *itemRow) *string { return &r.createdBy }),
	projections.Text("updated_by", func(r *itemRow) *string { return &r.updatedBy }),
	projections.Integer("at", func(r *itemRow) *int64 { return &r.at }),
	projections.Integer("created_at", func(r *itemRow) *int64 { return &r.createdAt }),
	projections.Integer("updated_at", func(r *itemRow) *int64 { return &r.updatedAt }),
	projections.Integer("seq", func(r *itemRow) *int64 { return &r.seq }),
	projections.Integer("position", func(r *itemRow) *int64 { return &r.pos }),
}

var itemsTable = &projections.Table{
	Name:    "news_items",
	Cols:    itemFields.Columns(),
	Key:     []string{"id"},
	Indexes: []string{"kind, state, at", "kind, seq"},
	Fixed:   []string{"kind", "created_by", "created_at", "seq"},
}

type logRow struct {
	newsID, action, actor string
	at, pos               int64
}

var logFields = projections.RowMap[logRow]{
	projections.Text("news_id", func(r *logRow) *string { return &r.newsID }),
	projections.Text("action", func(r *logRow) *string { return &r.action }),
	projections.Text("actor", func(r *logRow) *string { return &r.actor }),
	projections.Integer("at", func(r *logRow) *int64 { return &r.at }),
	projections.Integer("position", func(r *logRow) *int64 { return &r.pos }),
}

var logTable = &projections.Table{
	Name:    "news_log",
	Cols:    logFields.Columns(),
	Key:     []string{"position"},
	Indexes: []string{"news_id, position"},
	Fixed:   []string{"news_id", "action", "actor", "at"},
}

type readRow struct {
	memberID, newsID string
	pos              int64
}

var readFields = projections.RowMap[readRow]{
	projections.Text("member_id", func(r *readRow) *string { return &r.memberID }),
	projections.Text("news_id", func(r *readRow) *string { return &r.newsID }),
	projections.Integer("position", func(r *readRow) *int64 { return &r.pos }),
}

var readsTable = &projections.Table{
	Name: "news_reads",
	Cols: readFields.Columns(),
	Key:  []string{"member_id", "news_id"},
}

// Partitioned: an item and its history are written by the events of its own stream news-<id>
// only (a stream of no member, so it goes to the partition its name hashes to), and a member's
// read marks by the member's stream. What combines them (unread counts, the drafts queue) is
// counted when read.
var projector = &projections.Projector{
	Name:        "news",
	Version:     1,
	Partitioned: true,
	Tables:      []*projections.Table{itemsTable, logTable, readsTable},
	Wants: func(p events.Payload) bool {
		switch p.(type) {
		case events.NewsDrafted, events.NewsEdited, events.NewsScheduled, events.NewsPublished, events.NewsWithdrawn, events.NewsRead:
			return true
		}
		return false
	},
	Apply: applyNews,
}

func init() { projections.Register(projector) }

// The actions of an item's history.
const (
	ActionDraft    = "draft"
	ActionEdit     = "edit"
	ActionSchedule = "schedule"
	ActionPublish  = "publish"
	ActionWithdraw = "withdraw"
)

// newsID is the item id of stream news-<id>.
func newsID(stream string) (string, error) {
	prefix := events.NewsStream("")
	if len(stream) <= len(prefix) || stream[:len(prefix)] != prefix {
		return "", fmt.Errorf("stream %q is not a news item's", stream)
	}
	return stream[len(prefix):], nil
}

func applyNews(ctx context.Context, w *projections.Wtx, evs []projections.Decoded) error {
	items := map[string]*itemRow{}
	load := map[string]struct{}{}
	for _, d := range evs {
		switch d.P.(type) {
		case events.NewsDrafted:
			id, err := newsID(d.Ev.Stream)
			if err != nil {
				return d.Fail(err)
			}
			items[id] = nil // written in this page
		case events.NewsEdited, events.NewsScheduled, events.NewsPublished, events.NewsWithdrawn:
			id, err := newsID(d.Ev.Stream)
			if err != nil {
				return d.Fail(err)
			}
			if _, seen := items[id]; !seen {
				load[id] = struct{}{}
			}
		}
	}
	if err := itemFields.SelectIn(ctx, w, itemsTable, "id", projections.KeysOf(load), func(r *itemRow) { items[r.id] = r }); err != nil {
		return err
	}
	var logRows, readRows [][]any
	for _, d := range evs {
		at := projections.Micros(d.Ev.Metadata.ServerTime)
		actor := d.Ev.Metadata.Actor
		if e, ok := d.P.(events.NewsRead); ok {
			member, err := projections.MemberOf(d.Ev.Stream)
			if err != nil {
				return d.Fail(err)
			}
			readRows = append(readRows, readFields.Args(&readRow{memberID: member, newsID: e.ID, pos: d.Ev.Position}))
			continue
		}
		id, _ := newsID(d.Ev.Stream) // checked above
		r := items[id]
		var action string
		switch e := d.P.(type) {
		case events.NewsDrafted:
			if r != nil {
				return d.Fail(fmt.Errorf("news %s drafted twice", id))
			}
			r = &itemRow{id: id, kind: e.Kind, state: events.NewsStateDraft, createdBy: actor, createdAt: at, seq: d.Ev.Position}
			r.setText(e.NewsText)
			items[id], action = r, ActionDraft
		case events.NewsEdited:
			if r == nil {
				return d.Fail(fmt.Errorf("news %s edited before it was drafted", id))
			}
			r.setText(e.NewsText)
			action = ActionEdit
		case events.NewsScheduled:
			if r == nil {
				return d.Fail(fmt.Errorf("news %s scheduled before it was drafted", id))
			}
			r.state, r.at, action = events.NewsStateScheduled, projections.Micros(e.At), ActionSchedule
		case events.NewsPublished:
			if r == nil {
				return d.Fail(fmt.Errorf("news %s published before it was drafted", id))
			}
			r.state, r.at, action = events.NewsStatePublished, projections.Micros(e.At), ActionPublish
		case events.NewsWithdrawn:
			if r == nil {
				return d.Fail(fmt.Errorf("news %s withdrawn before it was drafted", id))
			}
			r.state, action = events.NewsStateWithdrawn, ActionWithdraw
		}
		r.updatedBy, r.updatedAt, r.pos = actor, at, d.Ev.Position
		logRows = append(logRows, logFields.Args(&logRow{newsID: id, action: action, actor: actor, at: at, pos: d.Ev.Position}))
	}
	itemRows := make([][]any, 0, len(items))
	for _, r := range items {
		if r != nil {
			itemRows = append(itemRows, itemFields.Args(r))
		}
	}
	if err := w.Upsert(ctx, itemsTable, itemRows); err != nil {
		return err
	}
	if err := w.Upsert(ctx, logTable, logRows); err != nil {
		return err
	}
	return w.Upsert(ctx, readsTable, readRows)
}

func (r *itemRow) setText(t events.NewsText) {
	r.titleTW, r.titleEN, r.bodyTW, r.bodyEN = t.TitleTW, t.TitleEN, t.BodyTW, t.BodyEN
}

// Item is an article or a notice.
type Item struct {
	ID, Kind string
	// State is what members see now: a scheduled item whose time came is published.
	State                            string
	At                               time.Time // publication time; zero while a draft never scheduled
	TitleTW, TitleEN, BodyTW, BodyEN string
	CreatedBy, UpdatedBy             string
	CreatedAt, UpdatedAt             time.Time
	Read                             bool // by the member who asked (member queries only)
}

func (r *itemRow) item(now time.Time) Item {
	it := Item{ID: r.id, Kind: r.kind, TitleTW: r.titleTW, TitleEN: r.titleEN, BodyTW: r.bodyTW, BodyEN: r.bodyEN,
		CreatedBy: r.createdBy, UpdatedBy: r.updatedBy, CreatedAt: projections.FromMicros(r.createdAt), UpdatedAt: projections.FromMicros(r.updatedAt)}
	if r.at != 0 {
		it.At = projections.FromMicros(r.at)
	}
	it.State = events.NewsState(r.state, it.At, now)
	return it
}

// visible is the condition of an item members see at the time bound to its one parameter.
const visible = "(state = 'published' OR state = 'scheduled' AND at <= ?)"

// pageArgs is LIMIT (one more row, to tell whether there are more) and OFFSET of a page; the
// API refuses pages past projections.MaxPage.
func pageArgs(page, size int) (limit, offset int) {
	page = min(max(page, 1), projections.MaxPage(size))
	return size + 1, (page - 1) * size
}

// readFlag is the select column telling whether the member bound to its one parameter read
// the row's item.
const readFlag = "CASE WHEN EXISTS (SELECT 1 FROM news_reads r WHERE r.news_id = news_items.id AND r.member_id = ?) THEN 1 ELSE 0 END"

// withRead scans an item's columns and then its read flag.
type withRead struct {
	rows projections.Rows
	read *int64
}

func (w withRead) Scan(dest ...any) error { return w.rows.Scan(append(dest, w.read)...) }

// Published lists the items of kind members see at now, newest first, each with whether member
// has read it.
func Published(ctx context.Context, db *projections.Reader, memberID, kind string, now time.Time, page, size int) ([]Item, bool, error) {
	limit, offset := pageArgs(page, size)
	q := "SELECT " + itemFields.List() + ", " + readFlag + " FROM news_items WHERE kind = ? AND " + visible +
		" ORDER BY at DESC, seq DESC LIMIT ? OFFSET ?"
	var out []Item
	err := db.Query(ctx, "news", q, []any{memberID, kind, projections.Micros(now), limit, offset}, func(rows projections.Rows) error {
		var r itemRow
		var read int64
		if err := itemFields.Scan(withRead{rows, &read}, &r); err != nil {
			return err
		}
		it := r.item(now)
		it.Read = read == 1
		out = append(out, it)
		return nil
	})
	if err != nil {
		return nil, false, err
	}
	return projections.TrimPage(out, limit)
}

// PublishedItem is one item members see at now, with whether member read it; ErrNotFound when
// there is none (never drafted, a draft, scheduled for later, withdrawn).
func PublishedItem(ctx context.Context, db *projections.Reader, memberID, id string, now time.Time) (Item, error) {
	var r itemRow
	var read int64
	q := "SELECT " + itemFields.List() + ", " + readFlag + " FROM news_items WHERE id = ? AND " + visible
	err := itemFields.Scan(withRead{db.QueryRow(ctx, q, memberID, id, projections.Micros(now)), &read}, &r)
	if err := projections.RowErr(err, "news item"); err != nil {
		return Item{}, err
	}
	it := r.item(now)
	it.Read = read == 1
	return it, nil
}

// Unread is how many items of each kind members see at now that member has not read.
type Unread struct{ Articles, Notices int }

// UnreadCounts counts member's unread items at now.
func UnreadCounts(ctx context.Context, db *projections.Reader, memberID string, now time.Time) (Unread, error) {
	var u Unread
	q := "SELECT kind, COUNT(*) FROM news_items WHERE " + visible +
		" AND NOT EXISTS (SELECT 1 FROM news_reads r WHERE r.news_id = news_items.id AND r.member_id = ?) GROUP BY kind"
	err := db.Query(ctx, "news unread", q, []any{projections.Micros(now), memberID}, func(rows projections.Rows) error {
		var kind string
		var n int
		if err := rows.Scan(&kind, &n); err != nil {
			return err
		}
		switch kind {
		case events.NewsKindArticle:
			u.Articles = n
		case events.NewsKindNotice:
			u.Notices = n
		}
		return nil
	})
	return u, err
}

// All lists every item for ops, newest first: of kind ("" for both) and in state ("" for any;
// a state as members see it at now).
func All(ctx context.Context, db *projections.Reader, kind, state string, now time.Time, page, size int) ([]Item, bool, error) {
	limit, offset := pageArgs(page, size)
	where, args := "WHERE 1 = 1", []any{}
	if kind != "" {
		where, args = where+" AND kind = ?", append(args, kind)
	}
	switch state {
	case "":
	case events.NewsStatePublished:
		where, args = where+" AND "+visible, append(args, projections.Micros(now))
	case events.NewsStateScheduled:
		where, args = where+" AND state = 'scheduled' AND at > ?", append(args, projections.Micros(now))
	default:
		where, args = where+" AND state = ?", append(args, state)
	}
	var out []Item
	err := db.Query(ctx, "news", "SELECT "+itemFields.List()+" FROM news_items "+where+" ORDER BY seq DESC LIMIT ? OFFSET ?",
		append(args, limit, offset), func(rows projections.Rows) error {
			var r itemRow
			if err := itemFields.Scan(rows, &r); err != nil {
				return err
			}
			out = append(out, r.item(now))
			return nil
		})
	if err != nil {
		return nil, false, err
	}
	return projections.TrimPage(out, limit)
}

// Get is one item for ops, in any state.
func Get(ctx context.Context, db *projections.Reader, id string, now time.Time) (Item, error) {
	var r itemRow
	err := itemFields.Scan(db.QueryRow(ctx, "SELECT "+itemFields.List()+" FROM news_items WHERE id = ?", id), &r)
	if err := projections.RowErr(err, "news item"); err != nil {
		return Item{}, err
	}
	return r.item(now), nil
}

// Action is one entry of an item's history: what was done, by whom, when.
type Action struct {
	Action, Actor string
	At            time.Time
}

// History is an item's actions, oldest first.
func History(ctx context.Context, db *projections.Reader, id string) ([]Action, error) {
	out := []Action{}
	err := db.Query(ctx, "news history", "SELECT "+logFields.List()+" FROM news_log WHERE news_id = ? ORDER BY position",
		[]any{id}, func(rows projections.Rows) error {
			var r logRow
			if err := logFields.Scan(rows, &r); err != nil {
				return err
			}
			out = append(out, Action{Action: r.action, Actor: r.actor, At: projections.FromMicros(r.at)})
			return nil
		})
	return out, err
}
