package api

import (
	auctionapi "github.com/lotbook/lotbook/api/auction"
	"time"

	alertsapi "github.com/lotbook/lotbook/api/alerts"
	"github.com/lotbook/lotbook/api/audit"
	"github.com/lotbook/lotbook/api/block"
	"github.com/lotbook/lotbook/api/chat"
	chipgrabapi "github.com/lotbook/lotbook/api/chipgrab"
	"github.com/lotbook/lotbook/api/console"
	copytradeapi "github.com/lotbook/lotbook/api/copytrade"
	couponsapi "github.com/lotbook/lotbook/api/coupons"
	creditapi "github.com/lotbook/lotbook/api/credit"
	dividendapi "github.com/lotbook/lotbook/api/dividend"
	"github.com/lotbook/lotbook/api/files"
	"github.com/lotbook/lotbook/api/funds"
	"github.com/lotbook/lotbook/api/httpx"
	"github.com/lotbook/lotbook/api/identity"
	lendingapi "github.com/lotbook/lotbook/api/lending"
	marginapi "github.com/lotbook/lotbook/api/margin"
	marketapi "github.com/lotbook/lotbook/api/market"
	"github.com/lotbook/lotbook/api/members"
	"github.com/lotbook/lotbook/api/news"
	opsapi "github.com/lotbook/lotbook/api/ops"
	placementapi "github.com/lotbook/lotbook/api/placement"
	quantapi "github.com/lotbook/lotbook/api/quant"
	"github.com/lotbook/lotbook/api/site"
	subscriptionapi "github.com/lotbook/lotbook/api/subscription"
	"github.com/lotbook/lotbook/api/trading"
	"github.com/lotbook/lotbook/api/wallet"
	"github.com/lotbook/lotbook/commands"
	alertscmd "github.com/lotbook/lotbook/commands/alerts"
	"github.com/lotbook/lotbook/commands/auction"
	blockcmd "github.com/lotbook/lotbook/commands/block"
	chatcmd "github.com/lotbook/lotbook/commands/chat"
	"github.com/lotbook/lotbook/commands/chipgrab"
	couponscmd "github.com/lotbook/lotbook/commands/coupons"
	creditcmd "github.com/lotbook/lotbook/commands/credit"
	"github.com/lotbook/lotbook/commands/favorites"
	identitycmd "github.com/lotbook/lotbook/commands/identity"
	lendingcmd "github.com/lotbook/lotbook/commands/lending"
	"github.com/lotbook/lotbook/commands/placement"
	quantcmd "github.com/lotbook/lotbook/commands/quant"
	"github.com/lotbook/lotbook/commands/siteconfig"
	"github.com/lotbook/lotbook/commands/subscription"
)

// blockCommands take block applications in the exchange's block hours, or at any hour.
func blockCommands(k *commands.Service, anyHour bool) *blockcmd.Commands {
	if anyHour {
		return blockcmd.New(k).AlwaysOpen()
	}
	return blockcmd.New(k)
}

// capabilities is the HTTP side's composition root: every module, one line each. A new
// capability adds its package under api/ (its handlers and their routes) and its line here.
// The list lives in package api, not cmd/lotbook, because OpenStack builds every Stack (lotbook
// serve and each test of this package) and the modules take their dependencies from what it
// opened; a list in cmd/lotbook would need a twin in the tests.
func (s *server) capabilities() []httpx.Module {
	perMinute := func(n int) *httpx.Limiter { return httpx.NewLimiter(n, time.Minute, s.now) }
	return []httpx.Module{
		audit.New(s.read, s.store),
		chat.New(chatcmd.New(s.cmd), s.read, s.store, perMinute(s.limits.ChatPerMember), s.log),
		block.New(blockCommands(s.cmd, s.blockAny), s.read, s.trade.Market, s.now),
		console.New(s.cmd, s.funds, siteconfig.New(s.cmd), s.read),
		chipgrabapi.New(chipgrab.New(s.cmd), s.read, s.trade.Market, s.now),
		dividendapi.New(s.read, s.mkt, s.now),
		couponsapi.New(couponscmd.New(s.cmd), s.read, s.now),
		creditapi.New(creditcmd.New(s.cmd), s.read, s.trade.Market),
		files.New(s.cmd, s.read, s.dataDir, s.decodes, perMinute(s.limits.UploadPerMember)),
		funds.New(s.funds, s.read, s.now, s.calendar),
		identity.New(identitycmd.New(s.cmd), s.read, s.sealer),
		marketapi.New(favorites.New(s.cmd), s.read, s.mkt),
		auctionapi.New(auction.Open(s.cmd), s.read, s.mkt, s.store, s.now),
		placementapi.New(placement.Open(s.cmd), s.read, s.mkt, s.store, s.now),
		members.New(s.cmd, s.read, s.trade, s.now, members.Limits{LoginPerAccount: perMinute(s.limits.LoginPerAccount),
			LoginPerIP: perMinute(s.limits.LoginPerIP), RegisterPerIP: perMinute(s.limits.RegisterPerIP)}, s.sealer),
		news.New(s.cmd, s.read),
		opsapi.New(s.cmd, s.read),
		site.New(s.read, s.demo),
		subscriptionapi.New(subscription.New(s.cmd), s.read, s.mkt, s.store, s.now),
		trading.New(s.trading, s.read, s.trade, s.now),
		wallet.New(s.read, s.now),
		lendingapi.New(lendingcmd.New(s.cmd), s.read, s.mkt),
		alertsapi.New(alertscmd.New(s.cmd), s.read, s.mkt, s.store, s.log),
		quantapi.New(quantcmd.New(s.cmd), s.trading, s.read, s.mkt, s.trade.Market, s.now),
		copytradeapi.New(s.cmd, s.trading, s.read, s.trade.Market, s.now),
		marginapi.New(s.trading),
	}
}
