package projections

import (
	"math"
	"strings"
	"testing"
)

func TestSetFlag(t *testing.T) {
	for _, tc := range []struct {
		stored, flag string
		on           bool
		want         string
	}{
		{"", "frozen", true, "frozen"},
		{"frozen", "frozen", true, "frozen"},
		{"frozen", "frozen", false, ""},
		{"withdrawal_banned", "frozen", true, "frozen,withdrawal_banned"},
		{"disabled,frozen", "login_banned", true, "frozen,login_banned,disabled"},
		{"frozen,zzz_new", "frozen", false, "zzz_new"},
		{"", "frozen", false, ""},
	} {
		if got := setFlag(tc.stored, tc.flag, tc.on); got != tc.want {
			t.Errorf("setFlag(%q, %q, %v) = %q, want %q", tc.stored, tc.flag, tc.on, got, tc.want)
		}
	}
}

func TestRebind(t *testing.T) {
	q := "SELECT a FROM t WHERE b = ? AND c IN (?, ?)"
	if got := (dialect{}).rebind(q); got != q {
		t.Errorf("sqlite rebind = %q", got)
	}
	if got := (dialect{postgres: true}).rebind(q); got != "SELECT a FROM t WHERE b = $1 AND c IN ($2, $3)" {
		t.Errorf("postgres rebind = %q", got)
	}
}

func TestLikePattern(t *testing.T) {
	for in, want := range map[string]string{"0912": "%0912%", "a%b": `%a\%b%`, "a_b": `%a\_b%`, `a\b`: `%a\\b%`} {
		if got := likePattern(in); got != want {
			t.Errorf("likePattern(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestPageArgs(t *testing.T) {
	for _, tc := range []struct{ page, size, limit, offset int }{
		{1, 20, 21, 0}, {3, 10, 11, 20}, {0, 0, 21, 0}, {-1, 5, 6, 0}, {2, 1000, 201, 200},
		// Deep pages stop at MaxOffset instead of overflowing into a negative or wrapped offset.
		{MaxPage(20), 20, 21, MaxOffset}, {MaxPage(20) + 1, 20, 21, MaxOffset}, {math.MaxInt, 20, 21, MaxOffset},
		{math.MaxInt/16 + 2, 16, 17, MaxOffset - MaxOffset%16}, {math.MaxInt, 0, 21, MaxOffset},
	} {
		if l, o := PageArgs(tc.page, tc.size); l != tc.limit || o != tc.offset {
			t.Errorf("PageArgs(%d, %d) = %d, %d", tc.page, tc.size, l, o)
		}
	}
}

func TestUnits(t *testing.T) {
	a, b := &Projector{Name: "a", Unit: "u"}, &Projector{Name: "b"}
	c := &Projector{Name: "c", Unit: "u"}
	us := units([]*Projector{a, b, c})
	if len(us) != 2 || us[0].Name != "u" || len(us[0].ps) != 2 || us[0].ps[1] != c || us[1].Name != "b" || us[1].ps[0] != b {
		t.Fatalf("units = %+v", us)
	}
	for _, tc := range []struct {
		cps  map[string]int64
		want int64
	}{
		{map[string]int64{"a": 9, "c": 9}, 9},
		{map[string]int64{"a": 9, "c": 4}, 4}, // c was reset: the unit reads from c's checkpoint
		{map[string]int64{"a": 9}, 0},
		{nil, 0},
	} {
		if got := us[0].from(tc.cps); got != tc.want {
			t.Errorf("from(%v) = %d, want %d", tc.cps, got, tc.want)
		}
	}
	acc, err := unitNamed(AccountUnit)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range acc.ps {
		names = append(names, p.Name)
	}
	if got := strings.Join(names, ","); got != "members,balances,house_balances,journal,wallet" {
		t.Fatalf("account unit = %s", got)
	}
}

// TestRowMapList: the select list names every column in order, qualified by the alias a join needs.
func TestRowMapList(t *testing.T) {
	if got := probeFields.List(); got != "member_id, position" {
		t.Errorf("List = %q", got)
	}
	if got := probeFields.ListOf("p"); got != "p.member_id, p.position" {
		t.Errorf("ListOf(p) = %q", got)
	}
}
