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

func TestValidText(t *testing.T) {
	long := make([]rune, MaxTextRunes+1)
	for i := range long {
		long[i] = '字'
	}
	for _, tc := range []struct {
		name, lang, text string
		ok               bool
	}{
		{"about", "tw", "關於我們\n第二行\t縮排", true},
		{"agreement", "en", "", true},
		{"fees", "en", string(long[:MaxTextRunes]), true},
		{"privacy", "tw", string(long), false},
		{"title", "en", "x", false},
		{"about", "jp", "x", false},
		{"about", "en", "bell\x07", false},
		{"about", "en", "bad \xff utf-8", false},
	} {
		if got := ValidText(tc.name, tc.lang, tc.text); got != tc.ok {
			t.Errorf("ValidText(%s, %s, %.20q) = %v, want %v", tc.name, tc.lang, tc.text, got, tc.ok)
		}
	}
}

// TestSetText: a text is an attributed site config entry; a bad one is refused with text_invalid.
func TestSetText(t *testing.T) {
	f := commandstest.New(t)
	site := New(f.Svc)
	_, err := site.SetText(f.Ctx, commandstest.Meta("ops:ops"), "about", "en", "We are lotbook.")
	f.Must(err)
	_, err = site.SetText(f.Ctx, commandstest.Meta("ops:ops"), "about", "en", "nul\x00")
	commandstest.WantKey(t, err, commands.KeyTextInvalid)
}
