package favorites

import (
	"fmt"
	"testing"

	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/commands/commandstest"
	"github.com/lotbook/lotbook/commands/rules/watchlist"
	"github.com/lotbook/lotbook/events"
)

func TestValidSymbol(t *testing.T) {
	for _, tc := range []struct {
		sym  string
		want bool
	}{
		{"2330", true}, {"00679B", true}, {"TAIEX", true},
		{"", false}, {"2330 ", false}, {"00679b", false}, {"23-30", false}, {"1234567890123", false}, {"台積電", false},
	} {
		if got := validSymbol(tc.sym); got != tc.want {
			t.Errorf("validSymbol(%q) = %v, want %v", tc.sym, got, tc.want)
		}
	}
}

// member is a member aggregate that has lived through ps.
func member(ps ...events.Payload) *commands.Member {
	m := commands.NewMember("m1")
	for _, p := range ps {
		m.Apply(events.RecordedEvent{}, p)
	}
	return m
}

func TestDecideFavorite(t *testing.T) {
	reg := events.MemberRegistered{MemberID: "m1", Account: "0912345678", Role: events.RoleMember}
	with := func(favs ...string) *commands.Member {
		m := member(reg)
		for _, f := range favs {
			m.Apply(events.RecordedEvent{}, events.FavoriteAdded{Symbol: f})
		}
		return m
	}
	for _, tc := range []struct {
		name string
		m    *commands.Member
		sym  string
		on   bool
		want []events.Payload
		key  string
	}{
		{"add", with(), "2330", true, []events.Payload{events.FavoriteAdded{Symbol: "2330"}}, ""},
		{"add again changes nothing", with("2330"), "2330", true, nil, ""},
		{"remove", with("2317", "2330"), "2330", false, []events.Payload{events.FavoriteRemoved{Symbol: "2330"}}, ""},
		{"remove absent changes nothing", with("2317"), "2330", false, nil, ""},
		{"no member", member(), "2330", true, nil, commands.KeyAccountNotExist},
		{"disabled", member(reg, events.AccountFlagChanged{Flag: events.FlagDisabled, On: true}), "2330", true, nil, commands.KeyAccountDisabled},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := decideFavorite(tc.m, tc.sym, tc.on)
			commandstest.WantKey(t, err, tc.key)
			if len(got) != len(tc.want) || (len(got) == 1 && got[0] != tc.want[0]) {
				t.Fatalf("got %#v, want %#v", got, tc.want)
			}
		})
	}
}

func TestApplyFavoriteKeepsOrder(t *testing.T) {
	m := member(
		events.FavoriteAdded{Symbol: "2330"}, events.FavoriteAdded{Symbol: "2317"}, events.FavoriteAdded{Symbol: "0050"},
		events.FavoriteRemoved{Symbol: "2317"}, events.FavoriteAdded{Symbol: "2317"}, events.FavoriteAdded{Symbol: "2330"},
	)
	if got := symbols(m); len(got) != 3 || got[0] != "2330" || got[1] != "0050" || got[2] != "2317" {
		t.Fatalf("favorites %v", got)
	}
}

// TestFavoritesAgainstTheStore: add, add again, remove, replay of a key, another instance sees
// the list, bad input refused without writing.
func TestFavoritesAgainstTheStore(t *testing.T) {
	f := commandstest.New(t)
	f.SeedMembers()
	s := f.Register("0912345678", "LOTBOOK")
	favs := New(f.Svc)
	meta := commandstest.Meta

	m := meta("member:0912345678")
	r1, err := favs.AddFavorite(f.Ctx, m, Favorite{MemberID: s.MemberID, Symbol: "2330"})
	f.Must(err)
	again, err := favs.AddFavorite(f.Ctx, m, Favorite{MemberID: s.MemberID, Symbol: "2330"}) // replay of the same key
	f.Must(err)
	if again != r1 {
		t.Fatalf("replay %+v, first %+v", again, r1)
	}
	r2, err := favs.AddFavorite(f.Ctx, meta("member:0912345678"), Favorite{MemberID: s.MemberID, Symbol: "2330"}) // new key, no change
	f.Must(err)
	if r2.Position != r1.Position {
		t.Fatalf("re-adding moved the position: %d -> %d", r1.Position, r2.Position)
	}
	_, err = favs.AddFavorite(f.Ctx, meta("member:0912345678"), Favorite{MemberID: s.MemberID, Symbol: "0050"})
	f.Must(err)
	r3, err := favs.RemoveFavorite(f.Ctx, meta("member:0912345678"), Favorite{MemberID: s.MemberID, Symbol: "2330"})
	f.Must(err)
	if r3.Position <= r2.Position {
		t.Fatalf("remove position %d after %d", r3.Position, r2.Position)
	}

	all := f.CheckLog()
	if added, removed := commandstest.Count(all, "FavoriteAdded"), commandstest.Count(all, "FavoriteRemoved"); added != 2 || removed != 1 {
		t.Fatalf("favourite events: %d added, %d removed", added, removed)
	}
	got, err := commands.View(f.Ctx, f.Service(), events.MemberStream(s.MemberID), func(m *commands.Member, _ *commands.Entry) []string {
		return symbols(m)
	})
	f.Must(err)
	if len(got) != 1 || got[0] != "0050" {
		t.Fatalf("another instance sees %v", got)
	}

	for _, tc := range []struct {
		member, sym, key string
	}{
		{s.MemberID, "23 30", commands.KeyInvalidRequest},
		{s.MemberID, "", commands.KeyInvalidRequest},
		{"not-a-member", "2330", commands.KeyAccountNotExist},
		{events.MemberID("0900000000"), "2330", commands.KeyAccountNotExist},
	} {
		_, err := favs.AddFavorite(f.Ctx, meta("member:x"), Favorite{MemberID: tc.member, Symbol: tc.sym})
		if e, ok := commands.AsError(err); !ok || e.Key != tc.key {
			t.Errorf("AddFavorite(%q, %q): %v, want %s", tc.member, tc.sym, err, tc.key)
		}
	}
	if n := len(f.All()); n != len(all) {
		t.Fatalf("refusals wrote %d events", n-len(all))
	}
}

// symbols is the member's default group in order.
func symbols(m *commands.Member) []string {
	var out []string
	for _, it := range bookPart.Of(m).Group(events.WatchlistDefault).Items {
		out = append(out, it.Symbol)
	}
	return out
}

func TestDecideGroups(t *testing.T) {
	reg := events.MemberRegistered{MemberID: "m1", Account: "0912345678", Role: events.RoleMember}
	full := member(reg)
	for i := 1; i < watchlist.MaxGroups; i++ {
		full.Apply(events.RecordedEvent{}, events.WatchlistGroupCreated{GroupID: fmt.Sprintf("g%d", i), Name: fmt.Sprintf("G%d", i)})
	}
	packed := member(reg, events.WatchlistGroupCreated{GroupID: "g1", Name: "AI"})
	for i := range watchlist.MaxSymbols {
		packed.Apply(events.RecordedEvent{}, events.WatchlistSymbolAdded{GroupID: "g1", Symbol: fmt.Sprintf("%04d", 1000+i)})
		packed.Apply(events.RecordedEvent{}, events.FavoriteAdded{Symbol: fmt.Sprintf("%04d", 1000+i)})
	}
	for _, tc := range []struct {
		name   string
		decide func() ([]events.Payload, error)
		events int
		key    string
	}{
		{"create", func() ([]events.Payload, error) { return decideCreate(member(reg), "g1", "AI") }, 1, ""},
		{"create the 21st group", func() ([]events.Payload, error) { return decideCreate(full, "g99", "more") }, 0, KeyGroupLimit},
		{"a name taken", func() ([]events.Payload, error) { return decideCreate(packed, "g2", "ai") }, 0, KeyNameExists},
		{"the 201st symbol", func() ([]events.Payload, error) { return decideSymbol(packed, "g1", "2330", true) }, 0, KeySymbolLimit},
		{"the default group's 201st", func() ([]events.Payload, error) { return decideSymbol(packed, "default", "2330", true) }, 0, KeySymbolLimit},
		{"delete the default group", func() ([]events.Payload, error) { return decideDelete(packed, "default") }, 0, KeyDefaultProtected},
		{"a group not there", func() ([]events.Payload, error) { return decideDelete(packed, "g9") }, 0, KeyGroupNotFound},
		{"move a symbol not there", func() ([]events.Payload, error) { return decideMove(packed, "g1", "2330", 0) }, 0, KeySymbolNotInGroup},
		{"move to where it is", func() ([]events.Payload, error) { return decideMove(packed, "g1", "1000", 0) }, 0, ""},
		{"pin", func() ([]events.Payload, error) { return decidePin(packed, "g1", "1005", true) }, 1, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.decide()
			commandstest.WantKey(t, err, tc.key)
			if len(got) != tc.events {
				t.Fatalf("events %#v, want %d", got, tc.events)
			}
		})
	}
}
