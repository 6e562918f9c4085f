package projections

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/lotbook/lotbook/events"
)

// The members projection: profiles and who uploaded which file. Sessions are not kept here: the
// api authenticates them from the member aggregate (commands.SessionOf).

// RealNameUnverified is every member's identity status until identity verification exists.
const RealNameUnverified = "unverified"

var membersTable = &Table{
	Name:    "members",
	Cols:    memberFields.Columns(),
	Key:     []string{"member_id"},
	Indexes: []string{"account", "seq"},
}

type fileRow struct {
	fileID, memberID, contentType  string
	size, width, height, createdAt int64
}

var fileFields = RowMap[fileRow]{
	Text("file_id", func(r *fileRow) *string { return &r.fileID }),
	Text("member_id", func(r *fileRow) *string { return &r.memberID }),
	Text("content_type", func(r *fileRow) *string { return &r.contentType }),
	Integer("size", func(r *fileRow) *int64 { return &r.size }),
	Integer("width", func(r *fileRow) *int64 { return &r.width }),
	Integer("height", func(r *fileRow) *int64 { return &r.height }),
	Integer("created_at", func(r *fileRow) *int64 { return &r.createdAt }),
}

var memberFilesTable = &Table{
	Name: "member_files",
	Cols: fileFields.Columns(),
	Key:  []string{"file_id", "member_id"},
}

var membersProjector = &Projector{
	Name:    "members",
	Version: 2,
	Unit:    AccountUnit,
	// Rows of the member of the event's stream (files too), and nothing of other members.
	Partitioned: true,
	Tables:      []*Table{membersTable, memberFilesTable},
	Retired:     []string{"sessions"},
	Wants: func(p events.Payload) bool {
		switch p.(type) {
		case events.MemberRegistered, events.FundPasswordSet, events.AccountFlagChanged, events.FileUploaded, events.AvatarSet:
			return true
		}
		return false
	},
	Apply: applyMembers,
}

type memberRow struct {
	memberID, account, role, inviteCode, inviterID, realNameStatus string
	fundPasswordSet                                                int64
	flags                                                          string
	avatar                                                         string // file id
	createdAt, updatedAt, seq, position                            int64
}

var memberFields = RowMap[memberRow]{
	Text("member_id", func(r *memberRow) *string { return &r.memberID }),
	Text("account", func(r *memberRow) *string { return &r.account }),
	Text("role", func(r *memberRow) *string { return &r.role }),
	Text("invite_code", func(r *memberRow) *string { return &r.inviteCode }),
	Text("inviter_id", func(r *memberRow) *string { return &r.inviterID }),
	Text("real_name_status", func(r *memberRow) *string { return &r.realNameStatus }),
	Integer("fund_password_set", func(r *memberRow) *int64 { return &r.fundPasswordSet }),
	Text("flags", func(r *memberRow) *string { return &r.flags }),
	Text("avatar", func(r *memberRow) *string { return &r.avatar }),
	Integer("created_at", func(r *memberRow) *int64 { return &r.createdAt }),
	Integer("updated_at", func(r *memberRow) *int64 { return &r.updatedAt }),
	Integer("seq", func(r *memberRow) *int64 { return &r.seq }),
	Integer("position", func(r *memberRow) *int64 { return &r.position }),
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

func applyMembers(ctx context.Context, w *Wtx, evs []Decoded) error {
	members := map[string]*memberRow{}
	load := map[string]struct{}{}
	for _, d := range evs {
		if e, ok := d.P.(events.MemberRegistered); ok {
			members[e.MemberID] = nil
			continue
		}
		if _, isFile := d.P.(events.FileUploaded); isFile {
			continue
		}
		id, err := MemberOf(d.Ev.Stream)
		if err != nil {
			return d.Fail(err)
		}
		if _, seen := members[id]; !seen {
			load[id] = struct{}{}
		}
	}
	if err := memberFields.SelectIn(ctx, w, membersTable, "member_id", KeysOf(load), func(r *memberRow) { members[r.memberID] = r }); err != nil {
		return err
	}

	changed := map[string]*memberRow{}
	var files [][]any
	for _, d := range evs {
		at := Micros(d.Ev.Metadata.ServerTime)
		id, err := MemberOf(d.Ev.Stream)
		if err != nil {
			return d.Fail(err)
		}
		switch e := d.P.(type) {
		case events.MemberRegistered:
			if members[e.MemberID] != nil {
				return d.Fail(fmt.Errorf("member %s registered twice", e.MemberID))
			}
			r := &memberRow{memberID: e.MemberID, account: e.Account, role: e.Role, inviteCode: e.OwnInviteCode,
				inviterID: e.InviterID, realNameStatus: RealNameUnverified, createdAt: at, updatedAt: at,
				seq: d.Ev.Position, position: d.Ev.Position}
			members[e.MemberID], changed[e.MemberID] = r, r
			continue
		case events.FileUploaded:
			files = append(files, fileFields.Args(&fileRow{fileID: e.FileID, memberID: id, contentType: e.ContentType, size: e.Size,
				width: int64(e.Width), height: int64(e.Height), createdAt: at}))
			continue
		}
		r := members[id]
		if r == nil {
			return d.Fail(fmt.Errorf("member %s is not registered", id))
		}
		switch e := d.P.(type) {
		case events.FundPasswordSet:
			r.fundPasswordSet = 1
		case events.AccountFlagChanged:
			r.flags = setFlag(r.flags, e.Flag, e.On)
		case events.AvatarSet:
			r.avatar = e.FileID
		}
		r.updatedAt, r.position = at, d.Ev.Position
		changed[id] = r
	}

	rows := make([][]any, 0, len(changed))
	for _, r := range changed {
		rows = append(rows, memberFields.Args(r))
	}
	if err := w.Upsert(ctx, membersTable, rows); err != nil {
		return err
	}
	return w.Upsert(ctx, memberFilesTable, files)
}
