package api

import (
	"github.com/lotbook/lotbook/api/httpx"
	"github.com/lotbook/lotbook/api/identity"
	marketapi "github.com/lotbook/lotbook/api/market"
)

// capabilities lists every module of the HTTP side, one line each: a new capability adds its
// package under api/ and its line here. The list lives in package api, not cmd/lotbook, because
// every Stack is built by OpenStack (lotbook serve, rebuild and user, and every test) and the
// modules take their dependencies from the Stack's server.
func (s *server) capabilities() []httpx.Module {
	return []httpx.Module{
		identity.New(s.cmd, s.read, s.sealer),
		marketapi.New(s.cmd, s.read, s.mkt),
		s, // the handlers not yet in packages of their own
	}
}
