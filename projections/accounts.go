package projections

import (
	"context"

	"github.com/lotbook/lotbook/events"
)

// MemberAccount is a member's login account. Read models that show it keep their own copy, from
// MemberRegistered, in a table of this one shape, so that none reads another's tables.
type MemberAccount struct{ MemberID, Account string }

// MemberAccountFields declares the row of a member-accounts table.
var MemberAccountFields = RowMap[MemberAccount]{
	Text("member_id", func(r *MemberAccount) *string { return &r.MemberID }),
	Text("account", func(r *MemberAccount) *string { return &r.Account }),
}

// MemberAccountsTable is a member-accounts table called name.
func MemberAccountsTable(name string) *Table {
	return &Table{Name: name, Cols: MemberAccountFields.Columns(), Key: []string{"member_id"}}
}

// MemberNamesTable is a table called name of members' verified real names (member_id, the name
// last submitted for verification, the name ops approved), for ops lists that name applicants.
// Read models keep their own copy, kept by ApplyMemberName.
func MemberNamesTable(name string) *Table {
	return &Table{Name: name, Cols: []Column{{"member_id", KindText}, {"submitted", KindText}, {"name", KindText}}, Key: []string{"member_id"}}
}

// WantsMemberName tells the events ApplyMemberName reads.
func WantsMemberName(p events.Payload) bool {
	switch p.(type) {
	case events.RealNameSubmitted, events.RealNameApproved:
		return true
	}
	return false
}

// ApplyMemberName records d in tb when it is a name submitted for verification or its approval
// (the name becomes the member's verified name); other events change nothing.
func ApplyMemberName(ctx context.Context, w *Wtx, tb *Table, d Decoded) error {
	switch e := d.P.(type) {
	case events.RealNameSubmitted:
		m, err := MemberOf(d.Ev.Stream)
		if err != nil {
			return err
		}
		return w.Exec(ctx, "INSERT INTO "+w.T(tb)+" (member_id, submitted, name) VALUES (?, ?, '') "+
			"ON CONFLICT (member_id) DO UPDATE SET submitted = excluded.submitted", m, e.Name)
	case events.RealNameApproved:
		m, err := MemberOf(d.Ev.Stream)
		if err != nil {
			return err
		}
		return w.Exec(ctx, "UPDATE "+w.T(tb)+" SET name = submitted WHERE member_id = ?", m)
	}
	return nil
}

// MemberNames are the verified names of members (member id -> name) kept in the table called
// table; members without one are left out.
func MemberNames(ctx context.Context, db *Reader, table string, memberIDs []string) (map[string]string, error) {
	out := map[string]string{}
	if len(memberIDs) == 0 {
		return out, nil
	}
	args := make([]any, len(memberIDs))
	for i, m := range memberIDs {
		args[i] = m
	}
	q := "SELECT member_id, name FROM " + table + " WHERE name <> '' AND member_id IN (" + Placeholders(len(args)) + ")"
	err := db.Query(ctx, "member names", q, args, func(rows Rows) error {
		var m, n string
		if err := rows.Scan(&m, &n); err != nil {
			return err
		}
		out[m] = n
		return nil
	})
	return out, err
}

// Directory is a read model's own copy of members' login accounts (MemberAccountsTable) and,
// when Names is set, their verified names (MemberNamesTable), for the lists that name members.
type Directory struct {
	Accounts, Names *Table
}

// AccountsDirectory is a directory of login accounts alone, in the table <prefix>_accounts.
func AccountsDirectory(prefix string) Directory {
	return Directory{Accounts: MemberAccountsTable(prefix + "_accounts")}
}

// NamesDirectory is a directory of login accounts and verified names, in the tables
// <prefix>_accounts and <prefix>_names.
func NamesDirectory(prefix string) Directory {
	return Directory{Accounts: MemberAccountsTable(prefix + "_accounts"), Names: MemberNamesTable(prefix + "_names")}
}

// Tables are the directory's tables, for the projector's list.
func (dir Directory) Tables() []*Table {
	if dir.Names == nil {
		return []*Table{dir.Accounts}
	}
	return []*Table{dir.Accounts, dir.Names}
}

// Wanting is the projector's Wants: the directory's events and those of ps.
func (dir Directory) Wanting(ps ...events.Payload) func(events.Payload) bool {
	ps = append(ps, events.MemberRegistered{})
	if dir.Names != nil {
		ps = append(ps, events.RealNameSubmitted{}, events.RealNameApproved{})
	}
	return Wanting(ps...)
}

// Owns tells whether p is the directory's alone, which the projector's own fold skips.
func (dir Directory) Owns(p events.Payload) bool {
	_, registered := p.(events.MemberRegistered)
	return registered || (dir.Names != nil && WantsMemberName(p))
}

// Apply records the page's registrations and names, and returns the login accounts (member id
// -> account) of the members whose events in evs need one (those of a member's stream that
// need tells; nil: none): registered in the page, or earlier.
func (dir Directory) Apply(ctx context.Context, w *Wtx, evs []Decoded, need func(events.Payload) bool) (map[string]string, error) {
	accounts, load := map[string]string{}, map[string]bool{}
	var rows [][]any
	for _, d := range evs {
		if e, ok := d.P.(events.MemberRegistered); ok {
			accounts[e.MemberID] = e.Account
			rows = append(rows, MemberAccountFields.Args(&MemberAccount{MemberID: e.MemberID, Account: e.Account}))
			continue
		}
		if dir.Names != nil {
			if err := ApplyMemberName(ctx, w, dir.Names, d); err != nil {
				return nil, d.Fail(err)
			}
		}
		if m, err := MemberOf(d.Ev.Stream); err == nil && need != nil && need(d.P) {
			load[m] = true
		}
	}
	for m := range accounts {
		delete(load, m)
	}
	err := MemberAccountFields.SelectIn(ctx, w, dir.Accounts, "member_id", KeysOf(load), func(a *MemberAccount) { accounts[a.MemberID] = a.Account })
	if err != nil {
		return nil, err
	}
	return accounts, w.Upsert(ctx, dir.Accounts, rows)
}
