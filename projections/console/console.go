// Package console is the ops console's read model: the root invite codes with the members who
// registered with them, and the history of configuration changes (who changed what, when, from
// what to what).
package console

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/projections"
)

type inviteRow struct {
	code, createdBy, reason, disabledBy string
	disabled, createdAt, disabledAt     int64
	seq, position                       int64
}

var inviteFields = projections.RowMap[inviteRow]{
	projections.Text("code", func(r *inviteRow) *string { return &r.code }),
	projections.Text("created_by", func(r *inviteRow) *string { return &r.createdBy }),
	projections.Text("reason", func(r *inviteRow) *string { return &r.reason }),
	projections.Text("disabled_by", func(r *inviteRow) *string { return &r.disabledBy }),
	projections.Integer("disabled", func(r *inviteRow) *int64 { return &r.disabled }),
	projections.Integer("created_at", func(r *inviteRow) *int64 { return &r.createdAt }),
	projections.Integer("disabled_at", func(r *inviteRow) *int64 { return &r.disabledAt }),
	projections.Integer("seq", func(r *inviteRow) *int64 { return &r.seq }),
	projections.Integer("position", func(r *inviteRow) *int64 { return &r.position }),
}

// invitesTable holds the root codes only (ops' and the seed's): members' own codes are theirs.
var invitesTable = &projections.Table{Name: "console_invites", Cols: inviteFields.Columns(), Key: []string{"code"}, Indexes: []string{"seq"}}

type useRow struct {
	memberID, code, account string
	at, position            int64
}

var useFields = projections.RowMap[useRow]{
	projections.Text("member_id", func(r *useRow) *string { return &r.memberID }),
	projections.Text("code", func(r *useRow) *string { return &r.code }),
	projections.Text("account", func(r *useRow) *string { return &r.account }),
	projections.Integer("registered_at", func(r *useRow) *int64 { return &r.at }),
	projections.Integer("position", func(r *useRow) *int64 { return &r.position }),
}

// usesTable: every member registered with an invite code, by code.
var usesTable = &projections.Table{Name: "console_invite_uses", Cols: useFields.Columns(), Key: []string{"member_id"}, Indexes: []string{"code, position"}}

type changeRow struct {
	kind, subject, actor, before, after string
	at, position                        int64
}

var changeFields = projections.RowMap[changeRow]{
	projections.Integer("position", func(r *changeRow) *int64 { return &r.position }),
	projections.Text("kind", func(r *changeRow) *string { return &r.kind }),
	projections.Text("subject", func(r *changeRow) *string { return &r.subject }),
	projections.Text("actor", func(r *changeRow) *string { return &r.actor }),
	projections.Text("before_value", func(r *changeRow) *string { return &r.before }),
	projections.Text("after_value", func(r *changeRow) *string { return &r.after }),
	projections.Integer("at", func(r *changeRow) *int64 { return &r.at }),
}

var changesTable = &projections.Table{Name: "console_changes", Cols: changeFields.Columns(), Key: []string{"position"}, Indexes: []string{"kind, subject, position"}}

// Kinds of configuration change.
const (
	KindDepositChannel    = "deposit_channel"
	KindWithdrawalChannel = "withdrawal_channel"
	KindSite              = "site"
	KindInviteCreated     = "invite_created"
	KindInviteDisabled    = "invite_disabled"
)

var projector = &projections.Projector{
	Name:    "console",
	Version: 1,
	Tables:  []*projections.Table{invitesTable, usesTable, changesTable},
	// Wants is asked by event type (a zero payload): apply skips members' own codes and
	// registrations without a code.
	Wants: func(p events.Payload) bool {
		switch p.(type) {
		case events.DepositChannelConfigured, events.WithdrawalChannelConfigured, events.SiteConfigured, events.InviteCodeDisabled,
			events.InviteCodeIssued, events.MemberRegistered:
			return true
		}
		return false
	},
	Apply: apply,
}

func init() { projections.Register(projector) }

// channelView is a channel definition as the history shows it: the password only as whether it
// is set and a fingerprint of its hash (so that a change shows), never the hash.
type channelView struct {
	Name     string            `json:"name"`
	Currency string            `json:"currency"`
	Min      string            `json:"min"`
	Max      string            `json:"max"`
	Window   events.TimeWindow `json:"window"`
	Enabled  bool              `json:"enabled"`
	Payee    *events.Payee     `json:"payee,omitempty"`
	Password string            `json:"password,omitempty"`
}

func fingerprint(hash string) string {
	if hash == "" {
		return ""
	}
	sum := sha256.Sum256([]byte(hash))
	return "set#" + hex.EncodeToString(sum[:4])
}

func apply(ctx context.Context, w *projections.Wtx, evs []projections.Decoded) error {
	invites := map[string]*inviteRow{}
	var uses, changes [][]any
	last := map[string]string{} // kind|subject -> after, within this page
	change := func(d projections.Decoded, kind, subject string, after any) error {
		a, err := json.Marshal(after)
		if err != nil {
			return d.Fail(err)
		}
		key := kind + "|" + subject
		before, ok := last[key]
		if !ok {
			err := projections.RowErr(w.QueryRow(ctx, "SELECT after_value FROM "+w.T(changesTable)+
				" WHERE kind = ? AND subject = ? ORDER BY position DESC LIMIT 1", kind, subject).Scan(&before), "last change")
			if err != nil && !errors.Is(err, projections.ErrNotFound) {
				return d.Fail(err)
			}
		}
		last[key] = string(a)
		changes = append(changes, changeFields.Args(&changeRow{kind: kind, subject: subject, actor: d.Ev.Metadata.Actor,
			before: before, after: string(a), at: projections.Micros(d.Ev.Metadata.ServerTime), position: d.Ev.Position}))
		return nil
	}
	for _, d := range evs {
		var err error
		switch e := d.P.(type) {
		case events.DepositChannelConfigured:
			v := channelView{Name: e.Name, Currency: e.Currency, Min: e.Min.String(), Max: e.Max.String(), Window: e.Window,
				Enabled: e.Enabled, Password: fingerprint(e.PasswordHash)}
			if e.Payee != (events.Payee{}) {
				v.Payee = &e.Payee
			}
			err = change(d, KindDepositChannel, e.ID, v)
		case events.WithdrawalChannelConfigured:
			err = change(d, KindWithdrawalChannel, e.ID, channelView{Name: e.Name, Currency: e.Currency, Min: e.Min.String(),
				Max: e.Max.String(), Window: e.Window, Enabled: e.Enabled})
		case events.SiteConfigured:
			err = change(d, KindSite, e.Name, e.Value)
		case events.InviteCodeIssued:
			if e.MemberID != "" {
				continue // a member's own code: theirs, not ops'
			}
			invites[e.Code] = &inviteRow{code: e.Code, createdBy: d.Ev.Metadata.Actor, createdAt: projections.Micros(d.Ev.Metadata.ServerTime),
				seq: d.Ev.Position, position: d.Ev.Position}
			err = change(d, KindInviteCreated, e.Code, "")
		case events.InviteCodeDisabled:
			if err = loadInvite(ctx, w, invites, e.Code); err != nil {
				return d.Fail(err)
			}
			if r := invites[e.Code]; r != nil { // a member's own code is not listed; its history is
				r.disabled, r.reason, r.disabledBy = 1, e.Reason, d.Ev.Metadata.Actor
				r.disabledAt, r.position = projections.Micros(d.Ev.Metadata.ServerTime), d.Ev.Position
			}
			err = change(d, KindInviteDisabled, e.Code, e.Reason)
		case events.MemberRegistered:
			if e.InviteCode == "" {
				continue // staff
			}
			uses = append(uses, useFields.Args(&useRow{memberID: e.MemberID, code: e.InviteCode, account: e.Account,
				at: projections.Micros(d.Ev.Metadata.ServerTime), position: d.Ev.Position}))
		}
		if err != nil {
			return err
		}
	}
	rows := make([][]any, 0, len(invites))
	for _, r := range invites {
		rows = append(rows, inviteFields.Args(r))
	}
	if err := w.Upsert(ctx, invitesTable, rows); err != nil {
		return err
	}
	if err := w.Upsert(ctx, usesTable, uses); err != nil {
		return err
	}
	return w.Upsert(ctx, changesTable, changes)
}

// loadInvite puts the stored row of code into invites unless the page already has it.
func loadInvite(ctx context.Context, w *projections.Wtx, invites map[string]*inviteRow, code string) error {
	if _, ok := invites[code]; ok {
		return nil
	}
	return inviteFields.SelectIn(ctx, w, invitesTable, "code", []any{code}, func(r *inviteRow) {
		cp := *r
		invites[code] = &cp
	})
}

// Invite is a root invite code with its usage.
type Invite struct {
	Code, CreatedBy, DisabledBy, Reason string
	Disabled                            bool
	CreatedAt                           time.Time
	DisabledAt                          *time.Time
	Uses                                int
}

// Invites lists the root invite codes, the newest first, with how many members used each.
func Invites(ctx context.Context, db *projections.Reader, page, size int) ([]Invite, bool, error) {
	limit, offset := projections.PageArgs(page, size)
	var out []Invite
	q := "SELECT i.code, i.created_by, i.disabled_by, i.reason, i.disabled, i.created_at, i.disabled_at, " +
		"(SELECT COUNT(*) FROM console_invite_uses u WHERE u.code = i.code) FROM console_invites i ORDER BY i.seq DESC LIMIT ? OFFSET ?"
	err := db.Query(ctx, "invites", q, []any{limit, offset}, func(rows projections.Rows) error {
		var iv Invite
		var disabled, created, disabledAt int64
		if err := rows.Scan(&iv.Code, &iv.CreatedBy, &iv.DisabledBy, &iv.Reason, &disabled, &created, &disabledAt, &iv.Uses); err != nil {
			return err
		}
		iv.Disabled, iv.CreatedAt = disabled != 0, projections.FromMicros(created)
		if disabled != 0 {
			t := projections.FromMicros(disabledAt)
			iv.DisabledAt = &t
		}
		out = append(out, iv)
		return nil
	})
	if err != nil {
		return nil, false, err
	}
	return projections.TrimPage(out, limit)
}

// Use is a member who registered with a code.
type Use struct {
	Account      string
	RegisteredAt time.Time
}

// Uses lists the members who registered with code, the earliest first (at most 200).
func Uses(ctx context.Context, db *projections.Reader, code string) ([]Use, error) {
	out := []Use{}
	err := db.Query(ctx, "invite uses", "SELECT account, registered_at FROM console_invite_uses WHERE code = ? ORDER BY position LIMIT 200",
		[]any{code}, func(rows projections.Rows) error {
			var u Use
			var at int64
			if err := rows.Scan(&u.Account, &at); err != nil {
				return err
			}
			u.RegisteredAt = projections.FromMicros(at)
			out = append(out, u)
			return nil
		})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// Change is one configuration change: its kind and subject (a channel id, a site entry's name,
// an invite code), who made it and when, and the value before and after (JSON; before is empty
// for the first definition).
type Change struct {
	Position                            int64
	Kind, Subject, Actor, Before, After string
	At                                  time.Time
}

// Changes lists the configuration changes, the newest first, of kind when not empty.
func Changes(ctx context.Context, db *projections.Reader, kind string, page, size int) ([]Change, bool, error) {
	limit, offset := projections.PageArgs(page, size)
	where, args := "", []any{}
	if kind != "" {
		where, args = "WHERE kind = ? ", append(args, kind)
	}
	var out []Change
	err := db.Query(ctx, "config changes", "SELECT position, kind, subject, actor, before_value, after_value, at FROM console_changes "+where+
		"ORDER BY position DESC LIMIT ? OFFSET ?", append(args, limit, offset), func(rows projections.Rows) error {
		var c Change
		var at int64
		if err := rows.Scan(&c.Position, &c.Kind, &c.Subject, &c.Actor, &c.Before, &c.After, &at); err != nil {
			return err
		}
		c.At = projections.FromMicros(at)
		out = append(out, c)
		return nil
	})
	if err != nil {
		return nil, false, fmt.Errorf("config changes: %w", err)
	}
	return projections.TrimPage(out, limit)
}

// ValidKind tells whether k is a kind of change (the history's filter).
func ValidKind(k string) bool {
	switch k {
	case KindDepositChannel, KindWithdrawalChannel, KindSite, KindInviteCreated, KindInviteDisabled:
		return true
	}
	return strings.TrimSpace(k) == "" && k == ""
}
