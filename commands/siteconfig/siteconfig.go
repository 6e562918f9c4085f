// Package siteconfig is the public site config on the write side (title, logo, demo, ...): a part
// of the config aggregate (stream config) and the command that sets an entry.
package siteconfig

import (
	"context"

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
