package events

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/shopspring/decimal"
)

func TestParseAccount(t *testing.T) {
	for _, tc := range []struct {
		account string
		member  string
		kind    string
		house   bool
		wantErr bool
	}{
		{account: "member:abc:available", member: "abc", kind: "available"},
		{account: "member:abc:frozen", member: "abc", kind: "frozen"},
		{account: "member:a:b:frozen", member: "a:b", kind: "frozen"},
		{account: "house:bank_clearing", kind: "bank_clearing", house: true},
		{account: "house:trade_clearing", kind: "trade_clearing", house: true},
		{account: "house:", wantErr: true},
		{account: "house:nobody_declared", wantErr: true},
		{account: "member::available", wantErr: true},
		{account: "member:abc:", wantErr: true},
		{account: "member:abc:loans", wantErr: true},
		{account: "world", wantErr: true},
		{account: "", wantErr: true},
	} {
		a, err := ParseAccount(tc.account)
		if (err != nil) != tc.wantErr {
			t.Errorf("ParseAccount(%q) error %v", tc.account, err)
			continue
		}
		if err != nil {
			continue
		}
		if a.MemberID != tc.member || a.Kind.Name != tc.kind || a.Kind.Member == tc.house || a.String() != tc.account {
			t.Errorf("ParseAccount(%q) = %+v (%s)", tc.account, a, a)
		}
	}
}

// A capability declares a kind of its own (here shares lent out) and postings to it parse and
// balance with no change in events.
func TestDeclaredKindTakesShares(t *testing.T) {
	lent := DeclareAccountKind(AccountKind{Member: true, Name: "test_shares_lent", Holds: HoldsShares})
	DeclareAccountKind(AccountKind{Name: "test_lending_pool", Holds: HoldsShares})
	ps := TransferShares(MemberAccount("m1", lent), "house:test_lending_pool", Security("TW", "2330"), 1000)
	if err := CheckBalanced(ps); err != nil {
		t.Fatalf("share transfer: %v", err)
	}
	a, err := ParseAccount(ps[0].Account)
	if err != nil || a.Kind != lent || a.MemberID != "m1" {
		t.Fatalf("ParseAccount(%s) = %+v, %v", ps[0].Account, a, err)
	}
	defer func() {
		if recover() == nil {
			t.Error("redeclaring a kind with other rules did not panic")
		}
	}()
	DeclareAccountKind(AccountKind{Member: true, Name: "test_shares_lent", Holds: HoldsMoney})
}

func TestCheckBalancedPerAsset(t *testing.T) {
	d := decimal.RequireFromString
	avail, frozen := MemberAvailable("m"), MemberFrozen("m")
	for _, tc := range []struct {
		name    string
		ps      []Posting
		wantErr string
	}{
		{"cash", Transfer(avail, frozen, "TWD", d("10")), ""},
		{"cash and shares", append(Transfer(avail, HouseTradeClearing, "TWD", d("10")),
			TransferShares("house:test_lending_pool", "house:test_lending_pool2", "TW:2330", 5)...), ""},
		{"currencies apart", []Posting{{Account: avail, Currency: "TWD", Amount: d("1")}, {Account: frozen, Currency: "USD", Amount: d("-1")}}, "unbalanced"},
		{"shares against money", []Posting{{Account: "house:test_lending_pool", Security: "TW:2330", Amount: d("1")}, {Account: "house:test_lending_pool2", Currency: "TW:2330", Amount: d("-1")}}, "not a currency"},
		{"shares on a cash account", TransferShares(avail, frozen, "TW:2330", 1), "does not hold"},
		{"money on a shares account", Transfer("house:test_lending_pool", "house:test_lending_pool2", "TWD", d("1")), "does not hold"},
		{"fraction of a share", []Posting{{Account: "house:test_lending_pool", Security: "TW:2330", Amount: d("0.5")}, {Account: "house:test_lending_pool2", Security: "TW:2330", Amount: d("-0.5")}}, "whole number"},
		{"security without market", TransferShares("house:test_lending_pool", "house:test_lending_pool2", "2330", 1), "not <market>:<symbol>"},
		{"both assets", []Posting{{Account: avail, Currency: "TWD", Security: "TW:2330", Amount: d("1")}}, "exactly one"},
		{"no asset", []Posting{{Account: avail, Amount: d("1")}}, "exactly one"},
		{"zero", Transfer(avail, frozen, "TWD", d("0")), "zero"},
		{"undeclared", Transfer(avail, "house:nowhere", "TWD", d("1")), "undeclared"},
		{"none", nil, "no postings"},
	} {
		err := CheckBalanced(tc.ps)
		if tc.wantErr == "" && err != nil || tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)) {
			t.Errorf("%s: CheckBalanced = %v, want %q", tc.name, err, tc.wantErr)
		}
	}
}

// Postings stored before securities existed decode as currency postings, and currency postings
// encode exactly as they did.
func TestPostingJSONUnchanged(t *testing.T) {
	old := `{"account":"member:m:available","currency":"TWD","amount":"1000.5"}`
	var p Posting
	if err := json.Unmarshal([]byte(old), &p); err != nil {
		t.Fatal(err)
	}
	if p.Asset() != "TWD" || p.IsShares() {
		t.Errorf("old posting decoded as %+v", p)
	}
	if raw, _ := json.Marshal(p); string(raw) != old {
		t.Errorf("re-encoded as %s", raw)
	}
	raw, _ := json.Marshal(Posting{Account: "house:x", Security: "TW:2330", Amount: decimal.NewFromInt(-3)})
	if string(raw) != `{"account":"house:x","amount":"-3","security":"TW:2330"}` {
		t.Errorf("share posting encoded as %s", raw)
	}
}

func init() {
	DeclareAccountKind(AccountKind{Name: "test_lending_pool2", Holds: HoldsShares})
}

func TestCheckOwnPostings(t *testing.T) {
	amount := decimal.NewFromInt(5)
	own := Transfer(HouseBankClearing, MemberAvailable("a"), "TWD", amount)
	other := Transfer(HouseBankClearing, MemberAvailable("b"), "TWD", amount)
	between := Transfer(MemberAvailable("a"), MemberAvailable("b"), "TWD", amount)
	house := Transfer(HouseBankClearing, HouseFeesRevenue, "TWD", amount)
	for _, tc := range []struct {
		stream string
		ps     []Posting
		ok     bool
	}{
		{AccountStream("a"), own, true},
		{MemberStream("a"), own, true},
		{AccountStream("a"), house, true},
		{"placement-p1", house, true},
		{AccountStream("a"), other, false},
		{MemberStream("a"), other, false},
		{AccountStream("a"), between, false},
		{AccountStream("ab"), own, false},
		{"placement-p1", own, false},
		{"account-", own, false},
	} {
		if err := CheckOwnPostings(tc.stream, tc.ps); (err == nil) != tc.ok {
			t.Errorf("%s posting to %s and %s: %v, want ok %v", tc.stream, tc.ps[0].Account, tc.ps[1].Account, err, tc.ok)
		}
	}
}
