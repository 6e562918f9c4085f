package projections

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
