package projections

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"

	"github.com/lotbook/lotbook/events"
)

// The members projection: profiles, open sessions by token hash, and who uploaded which file.

// RealNameUnverified is every member's identity status until identity verification exists.
const RealNameUnverified = "unverified"

var membersTable = &table{
	name: "members",
	cols: []column{
		{"member_id", kText}, {"account", kText}, {"role", kText}, {"invite_code", kText}, {"inviter_id", kText},
		{"real_name_status", kText}, {"fund_password_set", kInt}, {"flags", kText},
		{"created_at", kInt}, {"updated_at", kInt}, {"seq", kInt}, {"position", kInt},
	},
	key:     []string{"member_id"},
	indexes: []string{"account", "seq"},
}

var sessionsTable = &table{
	name:    "sessions",
	cols:    []column{{"token_hash", kText}, {"member_id", kText}, {"expires_at", kInt}, {"created_at", kInt}},
	key:     []string{"token_hash"},
	indexes: []string{"member_id"},
}

var memberFilesTable = &table{
	name: "member_files",
	cols: []column{{"file_id", kText}, {"member_id", kText}, {"content_type", kText}, {"size", kInt},
		{"width", kInt}, {"height", kInt}, {"created_at", kInt}},
	key: []string{"file_id", "member_id"},
}

var membersProjector = &projector{
	name:    "members",
	version: 1,
	unit:    accountUnit,
	tables:  []*table{membersTable, sessionsTable, memberFilesTable},
	wants: func(p events.Payload) bool {
		switch p.(type) {
		case events.MemberRegistered, events.LoginPasswordChanged, events.SessionOpened, events.SessionClosed,
			events.FundPasswordSet, events.AccountFlagChanged, events.FileUploaded:
			return true
		}
		return false
	},
	apply: applyMembers,
}

type memberRow struct {
	memberID, account, role, inviteCode, inviterID, realNameStatus string
	fundPasswordSet                                                int64
	flags                                                          string
	createdAt, updatedAt, seq, position                            int64
}

func (r *memberRow) args() []any {
	return []any{r.memberID, r.account, r.role, r.inviteCode, r.inviterID, r.realNameStatus, r.fundPasswordSet,
		r.flags, r.createdAt, r.updatedAt, r.seq, r.position}
}

func (r *memberRow) scan(rows interface{ Scan(...any) error }) error {
	return rows.Scan(&r.memberID, &r.account, &r.role, &r.inviteCode, &r.inviterID, &r.realNameStatus,
		&r.fundPasswordSet, &r.flags, &r.createdAt, &r.updatedAt, &r.seq, &r.position)
}

// setFlag turns flag on or off in a stored flag list, kept in events.AllFlags order.
func setFlag(stored, flag string, on bool) string {
	set := map[string]bool{}
	for f := range strings.SplitSeq(stored, ",") {
		if f != "" {
			set[f] = true
		}
	}
	set[flag] = on
	var out []string
	for _, f := range events.AllFlags {
		if set[f] {
			out = append(out, f)
			delete(set, f)
		}
	}
	var unknown []string // flags of a newer catalogue: kept, after the known ones
	for f, on := range set {
		if on {
			unknown = append(unknown, f)
		}
	}
	slices.Sort(unknown)
	return strings.Join(append(out, unknown...), ",")
}

func applyMembers(ctx context.Context, w *wtx, evs []decoded) error {
	members := map[string]*memberRow{}
	load := map[string]struct{}{}
	for _, d := range evs {
		if e, ok := d.p.(events.MemberRegistered); ok {
			members[e.MemberID] = nil
			continue
		}
		if _, isFile := d.p.(events.FileUploaded); isFile {
			continue
		}
		if _, isSession := d.p.(events.SessionOpened); isSession {
			continue
		}
		if _, isSession := d.p.(events.SessionClosed); isSession {
			continue
		}
		id, err := memberOf(d.ev.Stream)
		if err != nil {
			return d.fail(err)
		}
		if _, seen := members[id]; !seen {
			load[id] = struct{}{}
		}
	}
	if err := w.selectIn(ctx, membersTable, "member_id", keysOf(load), func(rows *sql.Rows) error {
		r := &memberRow{}
		if err := r.scan(rows); err != nil {
			return err
		}
		members[r.memberID] = r
		return nil
	}); err != nil {
		return err
	}

	changed := map[string]*memberRow{}
	sessions := map[string][]any{} // token hash -> row, opened in this page and still open
	closedTokens := map[string]struct{}{}
	purged := map[string]struct{}{} // members whose stored sessions all end
	var files [][]any
	for _, d := range evs {
		at := micros(d.ev.Metadata.ServerTime)
		id, err := memberOf(d.ev.Stream)
		if err != nil {
			return d.fail(err)
		}
		switch e := d.p.(type) {
		case events.MemberRegistered:
			if members[e.MemberID] != nil {
				return d.fail(fmt.Errorf("member %s registered twice", e.MemberID))
			}
			r := &memberRow{memberID: e.MemberID, account: e.Account, role: e.Role, inviteCode: e.OwnInviteCode,
				inviterID: e.InviterID, realNameStatus: RealNameUnverified, createdAt: at, updatedAt: at,
				seq: d.ev.Position, position: d.ev.Position}
			members[e.MemberID], changed[e.MemberID] = r, r
			continue
		case events.SessionOpened:
			sessions[e.TokenHash] = []any{e.TokenHash, id, micros(e.ExpiresAt), at}
			continue
		case events.SessionClosed:
			delete(sessions, e.TokenHash)
			closedTokens[e.TokenHash] = struct{}{}
			continue
		case events.FileUploaded:
			files = append(files, []any{e.FileID, id, e.ContentType, e.Size, int64(e.Width), int64(e.Height), at})
			continue
		case events.LoginPasswordChanged:
			for token, row := range sessions {
				if row[1] == id {
					delete(sessions, token)
				}
			}
			purged[id] = struct{}{}
			continue
		}
		r := members[id]
		if r == nil {
			return d.fail(fmt.Errorf("member %s is not registered", id))
		}
		switch e := d.p.(type) {
		case events.FundPasswordSet:
			r.fundPasswordSet = 1
		case events.AccountFlagChanged:
			r.flags = setFlag(r.flags, e.Flag, e.On)
		}
		r.updatedAt, r.position = at, d.ev.Position
		changed[id] = r
	}

	rows := make([][]any, 0, len(changed))
	for _, r := range changed {
		rows = append(rows, r.args())
	}
	if err := w.upsert(ctx, membersTable, rows); err != nil {
		return err
	}
	// Deletes first: the sessions still in the map were opened after any purge of their member.
	if err := w.deleteIn(ctx, sessionsTable, "member_id", keysOf(purged)); err != nil {
		return err
	}
	if err := w.deleteIn(ctx, sessionsTable, "token_hash", keysOf(closedTokens)); err != nil {
		return err
	}
	srows := make([][]any, 0, len(sessions))
	for _, row := range sessions {
		srows = append(srows, row)
	}
	if err := w.upsert(ctx, sessionsTable, srows); err != nil {
		return err
	}
	return w.upsert(ctx, memberFilesTable, files)
}
