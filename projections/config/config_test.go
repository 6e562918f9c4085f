package config

import (
	"context"
	"fmt"
	"testing"

	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/projections/projtest"
)

// TestConfig: deposit channels come in the order first defined, a redefinition changing them in
// place; the site config holds the last value of each name, sorted by name; the read model equals
// its replay, before and after a rebuild.
func TestConfig(t *testing.T) {
	projtest.Backends(t, func(t *testing.T, e *projtest.Env) {
		ctx := context.Background()
		db, r := e.Start()
		dec := projtest.Dec
		e.Add(events.ConfigStream, "system",
			events.DepositChannelConfigured{ID: "bank", Name: "Bank", Currency: "TWD", Min: dec("1000"), Max: dec("1000000"),
				PasswordHash: "h", Window: events.TimeWindow{Weekdays: []int{1, 2, 3, 4, 5}, Open: "09:30", Close: "19:30", TZ: "Asia/Taipei", ClosedOnHolidays: true}, Enabled: true},
			events.SiteConfigured{Name: "title", Value: "lotbook"},
			events.SiteConfigured{Name: "logo", Value: "logo.svg"},
			events.SiteConfigured{Name: "title", Value: "LotBook"})
		e.Add(events.ConfigStream, "system", events.DepositChannelConfigured{ID: "cash", Name: "Cash", Currency: "TWD", Min: dec("1"), Max: dec("2")})
		e.Add(events.ConfigStream, "system", events.DepositChannelConfigured{ID: "bank", Name: "Bank B", Currency: "TWD", Min: dec("500"), Max: dec("1000000"),
			Window: events.TimeWindow{Weekdays: []int{1, 2, 3, 4, 5}, Open: "09:30", Close: "19:30", TZ: "Asia/Taipei"}, Enabled: true})
		r.WaitFor(t, e.Head())

		check := func() {
			t.Helper()
			chans, err := Channels(ctx, db.Reader)
			if err != nil || len(chans) != 2 || chans[0].ID != "bank" || chans[0].Name != "Bank B" || !chans[0].Min.Equal(dec("500")) ||
				!chans[0].Enabled || chans[0].Window.TZ != "Asia/Taipei" || len(chans[0].Window.Weekdays) != 5 || chans[1].ID != "cash" || chans[1].Enabled {
				t.Fatalf("channels = %+v, %v", chans, err)
			}
			cfg, err := Site(ctx, db.Reader)
			if err != nil || fmt.Sprint(cfg) != "[{logo logo.svg} {title LotBook}]" {
				t.Fatalf("site config = %v, %v", cfg, err)
			}
		}
		check()
		projtest.NoDiffs(t, r.Runner)
		if err := r.Rebuild(ctx, "config", nil); err != nil {
			t.Fatal(err)
		}
		check()
	})
}

// TestConfigOneByOne: a channel redefined within one page keeps the place of its first definition,
// as it does when every event is its own page.
func TestConfigOneByOne(t *testing.T) {
	e := projtest.SQLite(t)
	ctx := context.Background()
	dec := projtest.Dec
	e.Add(events.ConfigStream, "system", events.DepositChannelConfigured{ID: "bank", Name: "A", Currency: "TWD", Min: dec("1"), Max: dec("2")},
		events.DepositChannelConfigured{ID: "cash", Name: "C", Currency: "TWD", Min: dec("1"), Max: dec("2")},
		events.DepositChannelConfigured{ID: "bank", Name: "B", Currency: "TWD", Min: dec("1"), Max: dec("3")},
		events.SiteConfigured{Name: "title", Value: "a"}, events.SiteConfigured{Name: "title", Value: "b"})
	db := e.OneByOne(projector)
	chans, err := Channels(ctx, db.Reader)
	if err != nil || len(chans) != 2 || chans[0].Name != "B" || chans[1].ID != "cash" {
		t.Fatalf("channels = %+v, %v", chans, err)
	}
}
