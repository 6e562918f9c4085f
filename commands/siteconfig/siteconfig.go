// Package siteconfig is the public site config on the write side (title, logo, demo, ...): a part
// of the config aggregate (stream config) and the command that sets an entry.
package siteconfig

import (
	"context"
	"slices"
	"unicode"
	"unicode/utf8"

	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/events"
)

// entries are the site config's entries by name.
type entries map[string]string

var entriesPart = commands.RegisterConfigPart("siteconfig", func() entries { return entries{} })

// Apply records an entry.
func (e entries) Apply(_ events.RecordedEvent, p events.Payload) {
	if c, ok := p.(events.SiteConfigured); ok {
		e[c.Name] = c.Value
	}
}

// decideSiteConfig sets one entry; the same value again changes nothing.
func decideSiteConfig(e entries, name, value string) ([]events.Payload, error) {
	if old, ok := e[name]; ok && old == value {
		return nil, nil
	}
	return []events.Payload{events.SiteConfigured{Name: name, Value: value}}, nil
}

// SiteConfig is one entry of the public site config.
type SiteConfig struct{ Name, Value string }

// Commands are the site config's commands over the kernel k.
type Commands struct{ k *commands.Service }

// New returns the site config's commands over the kernel k.
func New(k *commands.Service) *Commands { return &Commands{k: k} }

// SetSiteConfig sets one entry of the public site config (logo, title, demo, ...).
func (s *Commands) SetSiteConfig(ctx context.Context, meta commands.Meta, in SiteConfig) (commands.Result, error) {
	name, value := in.Name, in.Value
	c, err := s.k.Begin(meta, "config.site")
	if err != nil {
		return commands.Result{}, err
	}
	if !validConfigName(name) || len(value) > 4096 {
		return commands.Result{}, commands.Invalid(commands.KeyInvalidRequest)
	}
	rec, err := commands.Execute(ctx, s.k, c, events.ConfigStream, func(cfg *commands.Config) ([]events.Payload, error) {
		return decideSiteConfig(entriesPart.Of(cfg), name, value)
	})
	if err != nil {
		return commands.Result{}, err
	}
	return commands.Result{Position: rec.Position}, nil
}

func validConfigName(n string) bool {
	if len(n) == 0 || len(n) > 64 {
		return false
	}
	for i := 0; i < len(n); i++ {
		c := n[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.') {
			return false
		}
	}
	return true
}

// Texts members read, each in both languages, as ops write them: about us, the user agreement,
// the privacy policy and the prose around the fee table (the numbers come from the engine).
var (
	TextNames = []string{"about", "agreement", "privacy", "fees"}
	TextLangs = []string{"tw", "en"}
)

// MaxTextRunes bounds one text.
const MaxTextRunes = 20000

// TextEntry is the site config entry holding a text in a language.
func TextEntry(name, lang string) string { return "text." + name + "." + lang }

// ValidText: a known name and language, at most MaxTextRunes characters, valid UTF-8 with no
// control characters but line breaks and tabs. Texts are shown as typed (never as HTML).
func ValidText(name, lang, text string) bool {
	if !slices.Contains(TextNames, name) || !slices.Contains(TextLangs, lang) || !utf8.ValidString(text) {
		return false
	}
	n := 0
	for _, r := range text {
		n++
		if n > MaxTextRunes || unicode.IsControl(r) && r != '\n' && r != '\r' && r != '\t' {
			return false
		}
	}
	return true
}

// SetText sets one text in one language (an empty text brings back the app's own).
func (s *Commands) SetText(ctx context.Context, meta commands.Meta, name, lang, text string) (commands.Result, error) {
	c, err := s.k.Begin(meta, "config.text")
	if err != nil {
		return commands.Result{}, err
	}
	if !ValidText(name, lang, text) {
		return commands.Result{}, commands.Invalid(commands.KeyTextInvalid)
	}
	entry := TextEntry(name, lang)
	rec, err := commands.Execute(ctx, s.k, c, events.ConfigStream, func(cfg *commands.Config) ([]events.Payload, error) {
		return decideSiteConfig(entriesPart.Of(cfg), entry, text)
	})
	if err != nil {
		return commands.Result{}, err
	}
	return commands.Result{Position: rec.Position}, nil
}
