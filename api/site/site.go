// Package site is the site config's HTTP side: what ops set up for everyone to read (the logo,
// the title) and the server's mode.
package site

import (
	"fmt"
	"strings"

	"github.com/lotbook/lotbook/api/httpx"
	"github.com/lotbook/lotbook/api/wire"
	"github.com/lotbook/lotbook/projections"
	"github.com/lotbook/lotbook/projections/config"
)

// Module serves the site config route.
type Module struct {
	read *projections.ReadDB
	demo bool
}

// New is the site module over the read models; demo is the server's mode, which the app shows.
func New(read *projections.ReadDB, demo bool) *Module { return &Module{read: read, demo: demo} }

// Routes are the site config operations of openapi.yaml.
func (m *Module) Routes() []httpx.Route {
	return []httpx.Route{
		httpx.Op(httpx.Public, "POST", "/api/vue/common/config", httpx.IdemNone, m.config),
	}
}

// config answers the public site config with defaults for what ops has not set.
func (m *Module) config(c *httpx.Call) (httpx.Reply, error) {
	body, err := httpx.ReadBody(c.W, c.R)
	if err != nil {
		return httpx.Reply{}, err
	}
	c.Body = body
	var req wire.ConfigRequest
	if err := c.Decode("ConfigRequest", &req); err != nil {
		return httpx.Reply{}, err
	}
	if !req.Type.Valid() {
		return httpx.Reply{}, httpx.InvalidRequest(fmt.Errorf("config type %q", req.Type))
	}
	entries, err := config.Site(c.Ctx(), m.read.Reader)
	if err != nil {
		return httpx.Reply{}, fmt.Errorf("site config: %w", err)
	}
	out := make([]wire.ConfigEntry, 0, len(entries)+3)
	seen := map[string]bool{}
	for _, e := range entries {
		if e.Name == "demo" || strings.HasPrefix(e.Name, "text.") {
			continue // the server's mode, not data; the long texts members read have their route
		}
		out = append(out, wire.ConfigEntry{Name: e.Name, Value: e.Value})
		seen[e.Name] = true
	}
	for _, d := range []wire.ConfigEntry{{Name: "logo", Value: "logo.svg"}, {Name: "title", Value: "lotbook"}} {
		if !seen[d.Name] {
			out = append(out, d)
		}
	}
	out = append(out, wire.ConfigEntry{Name: "demo", Value: fmt.Sprint(m.demo)})
	return httpx.OK(out)
}
