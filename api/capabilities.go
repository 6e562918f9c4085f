package api

import (
	auctionapi "github.com/lotbook/lotbook/api/auction"
	"github.com/lotbook/lotbook/api/audit"
	"github.com/lotbook/lotbook/api/httpx"
	"github.com/lotbook/lotbook/api/identity"
	marketapi "github.com/lotbook/lotbook/api/market"
	subscriptionapi "github.com/lotbook/lotbook/api/subscription"
	"github.com/lotbook/lotbook/commands/favorites"
)

// capabilities is the HTTP side's composition root: every module, one line each. A new
// capability adds its package under api/ (its handlers and their routes) and its line here.
// The list lives in package api, not cmd/lotbook, because OpenStack builds every Stack (lotbook
// serve and each test of this package) and the modules take their dependencies from what it
// opened; a list in cmd/lotbook would need a twin in the tests.
func (s *server) capabilities() []httpx.Module {
	return []httpx.Module{
		audit.New(s.read, s.store),
		identity.New(s.cmd, s.read, s.sealer),
		marketapi.New(favorites.New(s.cmd), s.read, s.mkt),
		subscriptionapi.New(s.lottery, s.read, s.mkt, s.store, s.now),
		auctionapi.New(s.auctions, s.read, s.mkt, s.store, s.now),
		s, // the handlers not yet in packages of their own
	}
}
