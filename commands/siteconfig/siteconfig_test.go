package siteconfig

import (
	"testing"

	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/commands/commandstest"
	"github.com/lotbook/lotbook/events"
)

func TestDecideSiteConfig(t *testing.T) {
	cfg := commands.NewConfig()
	if evs, _ := decideSiteConfig(entriesPart.Of(cfg), "title", "lotbook"); len(evs) != 1 {
		t.Error("site config not written")
	}
	cfg = commandstest.Build(cfg, nil, events.SiteConfigured{Name: "title", Value: "lotbook"})
	if evs, _ := decideSiteConfig(entriesPart.Of(cfg), "title", "lotbook"); len(evs) != 0 {
		t.Error("same site config written again")
	}
}

// TestSetSiteConfig: an entry is written once, the same value again changes nothing, a bad name
// is refused.
func TestSetSiteConfig(t *testing.T) {
	f := commandstest.New(t)
	site := New(f.Svc)
	r1, err := site.SetSiteConfig(f.Ctx, commandstest.Meta("system"), SiteConfig{Name: "title", Value: "lotbook"})
	f.Must(err)
	r2, err := site.SetSiteConfig(f.Ctx, commandstest.Meta("system"), SiteConfig{Name: "title", Value: "lotbook"})
	f.Must(err)
	if r1.Position != r2.Position {
		t.Errorf("same config twice moved the position %d -> %d", r1.Position, r2.Position)
	}
	_, err = site.SetSiteConfig(f.Ctx, commandstest.Meta("system"), SiteConfig{Name: "bad name", Value: "x"})
	commandstest.WantKey(t, err, commands.KeyInvalidRequest)
	if n := commandstest.Count(f.CheckLog(), "SiteConfigured"); n != 1 {
		t.Fatalf("%d site config events, want 1", n)
	}
}
