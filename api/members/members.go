// Package members is the member accounts' HTTP side: registration, login and logout, the
// profile with its assets, the login and fund passwords, and the credit rule.
package members

import (
	"cmp"
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/api/httpx"
	"github.com/lotbook/lotbook/api/wire"
	"github.com/lotbook/lotbook/commands"
	fundscmd "github.com/lotbook/lotbook/commands/funds"
	identitycmd "github.com/lotbook/lotbook/commands/identity"
	"github.com/lotbook/lotbook/commands/rules/credit"
	idrules "github.com/lotbook/lotbook/commands/rules/identity"
	"github.com/lotbook/lotbook/commands/rules/secret"
	"github.com/lotbook/lotbook/commands/trading/engine"
	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/projections"
	"github.com/lotbook/lotbook/projections/funds"
	"github.com/lotbook/lotbook/projections/trading"
	"github.com/lotbook/lotbook/projections/trading/valuation"
)

// Commands are the write side's operations this module sends (*commands.Service); ValueIn
// converts cash at the rates an exchange would be quoted, for total assets.
type Commands interface {
	Register(ctx context.Context, meta commands.Meta, in commands.RegisterInput) (commands.Session, error)
	Login(ctx context.Context, meta commands.Meta, in commands.Login) (commands.Session, error)
	Logout(ctx context.Context, meta commands.Meta, in commands.Logout) (commands.Result, error)
	ChangeLoginPassword(ctx context.Context, meta commands.Meta, in commands.ChangePassword) (commands.Result, error)
	SetFundPassword(ctx context.Context, meta commands.Meta, in commands.SetFundPassword) (commands.Result, error)
	ChangeFundPassword(ctx context.Context, meta commands.Meta, in commands.ChangePassword) (commands.Result, error)
	valuation.Rates
}

// Prices is where held positions are valued: the matching engine's view of the market.
type Prices interface{ Market() engine.Market }

// Limits are the brute-force limits of login and registration. A login by ID number counts
// against the same per-IP and per-login-name buckets as a login by account.
type Limits struct {
	LoginPerAccount, LoginPerIP, RegisterPerIP *httpx.Limiter
}

// noSuchAccount is what a login by ID number tries when the number belongs to no verified
// identity: no account can be registered under it (accounts are mobile or ID numbers), so the
// login fails after the same decoy password check as an unknown account.
const noSuchAccount = "-"

// Module serves the member account routes.
type Module struct {
	cmd    Commands
	read   *projections.ReadDB
	prices Prices
	now    func() time.Time
	limits Limits
	sealer *secret.Sealer // the keyed hash of ID numbers (login by ID number)
}

// New is the members module over the command service, the read models, the market prices
// (assets), the clock, the login and registration limits and the sealer whose keyed hash names
// ID numbers.
func New(cmd Commands, read *projections.ReadDB, prices Prices, now func() time.Time, limits Limits, sealer *secret.Sealer) *Module {
	return &Module{cmd: cmd, read: read, prices: prices, now: now, limits: limits, sealer: sealer}
}

// Routes are the member account operations of openapi.yaml.
func (m *Module) Routes() []httpx.Route {
	return []httpx.Route{
		httpx.Op(httpx.Public, "POST", "/api/vue/user/register", httpx.IdemOptional, m.register),
		httpx.Op(httpx.Public, "POST", "/api/vue/user/login", httpx.IdemOptional, m.login),
		httpx.Op(httpx.Public, "POST", "/api/vue/user/loginById", httpx.IdemOptional, m.loginByID),
		httpx.Op(httpx.AnyUser, "POST", "/api/vue/user/logout", httpx.IdemOptional, m.logout),
		httpx.Op(httpx.AnyUser, "GET", "/api/vue/user/info", httpx.IdemNone, m.userInfo),
		httpx.Op(httpx.AnyUser, "POST", "/api/vue/user/password", httpx.IdemRequired, m.changePassword),
		httpx.Op(httpx.Member, "POST", "/api/vue/user/fundPassword", httpx.IdemRequired, m.setFundPassword),
		httpx.Op(httpx.Member, "POST", "/api/vue/user/fundPassword/change", httpx.IdemRequired, m.changeFundPassword),
		httpx.Op(httpx.AnyUser, "GET", "/api/vue/user/creditRule", httpx.IdemNone, m.creditRule),
	}
}

func (m *Module) register(c *httpx.Call) (httpx.Reply, error) {
	var req wire.RegisterRequest
	if err := c.Decode("RegisterRequest", &req); err != nil {
		return httpx.Reply{}, err
	}
	ip := httpx.ClientIP(c.R)
	if err := httpx.Limit(c, func() (bool, time.Duration) { return m.limits.RegisterPerIP.Allow(ip) }); err != nil {
		return httpx.Reply{}, err
	}
	sess, err := m.cmd.Register(c.Ctx(), sessionMeta(c, req.Account), commands.RegisterInput{
		Account: req.Account, Password: req.Password, ConfirmPassword: req.ConfirmPassword, InviteCode: req.InviteCode,
	})
	if err != nil {
		return httpx.Reply{}, err
	}
	return httpx.OK(wire.RegisterResult{Token: sess.Token, Account: sess.Account, Role: wire.Role(sess.Role), Position: sess.Position})
}

func (m *Module) login(c *httpx.Call) (httpx.Reply, error) {
	var req wire.LoginRequest
	if err := c.Decode("LoginRequest", &req); err != nil {
		return httpx.Reply{}, err
	}
	ip := httpx.ClientIP(c.R)
	if err := httpx.Limit(c,
		func() (bool, time.Duration) { return m.limits.LoginPerIP.Allow(ip) },
		// Normalised so that case or spaces do not open another bucket for the same account.
		func() (bool, time.Duration) {
			return m.limits.LoginPerAccount.Allow(strings.ToUpper(strings.TrimSpace(req.Account)))
		},
	); err != nil {
		return httpx.Reply{}, err
	}
	meta := sessionMeta(c, req.Account)
	if mem, err := m.read.MemberByAccount(c.Ctx(), req.Account); err == nil {
		meta.Actor = mem.Role + ":" + mem.Account // staff log in here too
	}
	sess, err := m.cmd.Login(c.Ctx(), meta, commands.Login{Account: req.Account, Password: req.Password})
	if err != nil {
		return httpx.Reply{}, err
	}
	return httpx.OK(wire.Session{Token: sess.Token, Account: sess.Account, Role: wire.Role(sess.Role)})
}

// loginByID logs in with the ID number of a verified identity and the login password. Every
// failure to match (no such number, an identity pending or rejected, a wrong password) is the
// same account_or_password_wrong after the same work; the limits are login's, the ID number
// taking the place of the account in the per-name bucket.
func (m *Module) loginByID(c *httpx.Call) (httpx.Reply, error) {
	var req wire.LoginByIdRequest
	if err := c.Decode("LoginByIdRequest", &req); err != nil {
		return httpx.Reply{}, err
	}
	id := strings.ToUpper(strings.TrimSpace(req.IdNumber))
	ip := httpx.ClientIP(c.R)
	if err := httpx.Limit(c,
		func() (bool, time.Duration) { return m.limits.LoginPerIP.Allow(ip) },
		func() (bool, time.Duration) { return m.limits.LoginPerAccount.Allow("id:" + id) },
	); err != nil {
		return httpx.Reply{}, err
	}
	switch {
	case id == "":
		return httpx.Reply{}, commands.Invalid(commands.KeyIDNumberRequired)
	case !idrules.ValidTaiwanID(id):
		return httpx.Reply{}, commands.Invalid(commands.KeyIDNumberInvalid)
	}
	account := noSuchAccount
	found, err := funds.VerifiedAccountByIDHash(c.Ctx(), m.read.Reader, identitycmd.IDNumberHash(m.sealer, id))
	switch {
	case err == nil:
		account = found
	case !httpx.IsNotFound(err):
		return httpx.Reply{}, fmt.Errorf("identity by ID number: %w", err)
	}
	sess, err := m.cmd.Login(c.Ctx(), sessionMeta(c, account), commands.Login{Account: account, Password: req.Password})
	if err != nil {
		return httpx.Reply{}, err
	}
	return httpx.OK(wire.Session{Token: sess.Token, Account: sess.Account, Role: wire.Role(sess.Role)})
}

// sessionMeta is the metadata of register and login. Their command id is always fresh, even
// when the client sent a key: a replay could not hand back the earlier token (only its hash is
// stored), so a repeated register answers account_exists and a repeated login opens another
// session, which is what a user pressing the button twice expects.
func sessionMeta(c *httpx.Call, account string) commands.Meta {
	return commands.Meta{CommandID: uuid.NewString(), Actor: "member:" + account, CorrelationID: c.IdemKey, Request: c.Request}
}

func (m *Module) logout(c *httpx.Call) (httpx.Reply, error) {
	res, err := m.cmd.Logout(c.Ctx(), c.Meta(), commands.Logout{MemberID: c.Sess.MemberID, Token: c.R.Header.Get("token")})
	if err != nil {
		return httpx.Reply{}, err
	}
	// The token must stop working as soon as the client hears so.
	c.CatchUpTo(res.Position)
	return httpx.OK(wire.Empty{})
}

// userInfo reads the profile, cash, positions and profit in one snapshot: an order being filled
// is counted once, in frozen cash or in positions, never in both or neither.
func (m *Module) userInfo(c *httpx.Call) (httpx.Reply, error) {
	var (
		mem      projections.Member
		bals     map[string]projections.Balance
		score    int
		status   map[string]string
		realised decimal.Decimal
		held     []trading.Position
	)
	id := c.Sess.MemberID
	err := c.Snapshot(func(rd *projections.Reader) error {
		var err error
		if mem, err = rd.MemberByID(c.Ctx(), id); err != nil {
			return fmt.Errorf("member %s: %w", id, err)
		}
		if bals, err = rd.Balances(c.Ctx(), id); err != nil {
			return fmt.Errorf("balances of %s: %w", id, err)
		}
		if score, err = creditScore(c.Ctx(), rd, id); err != nil {
			return err
		}
		if status, err = funds.RealNameStatuses(c.Ctx(), rd, []string{id}); err != nil {
			return fmt.Errorf("realname status of %s: %w", id, err)
		}
		if realised, err = trading.RealisedProfit(c.Ctx(), rd, id); err != nil {
			return fmt.Errorf("realised profit of %s: %w", id, err)
		}
		if held, _, err = trading.Positions(c.Ctx(), rd, id, trading.Held, 0, 0); err != nil {
			return fmt.Errorf("positions of %s: %w", id, err)
		}
		return nil
	})
	if err != nil {
		return httpx.Reply{}, err
	}
	assets, err := valuation.Total(bals, realised, held, m.prices.Market(), m.cmd, engine.TradingDay(m.now()))
	if err != nil {
		return httpx.Reply{}, fmt.Errorf("assets of %s: %w", id, err)
	}
	flags := make([]wire.AccountFlag, 0, len(mem.Flags))
	for _, f := range mem.Flags {
		flags = append(flags, wire.AccountFlag(f))
	}
	return httpx.OK(wire.UserInfo{
		Account:         mem.Account,
		Avatar:          mem.Avatar,
		Role:            wire.Role(mem.Role),
		RealNameStatus:  wire.RealNameStatus(cmp.Or(status[id], events.RealNameStatusUnverified)), // none submitted yet
		InviteCode:      mem.InviteCode,
		FundPasswordSet: mem.FundPasswordSet,
		CreditScore:     score,
		Flags:           flags,
		Assets: wire.Assets{Available: httpx.Money(assets.Available), Frozen: httpx.Money(assets.Frozen), Total: httpx.Money(assets.Total),
			Profit: httpx.Money(assets.Profit), Usd: httpx.Money(assets.USD)},
	})
}

func (m *Module) changePassword(c *httpx.Call) (httpx.Reply, error) {
	var req wire.ChangePasswordRequest
	if err := c.Decode("ChangePasswordRequest", &req); err != nil {
		return httpx.Reply{}, err
	}
	res, err := m.cmd.ChangeLoginPassword(c.Ctx(), c.Meta(), commands.ChangePassword{MemberID: c.Sess.MemberID, Old: req.OldPassword, New: req.NewPassword, Confirm: req.ConfirmPassword})
	if err != nil {
		return httpx.Reply{}, err
	}
	c.CatchUpTo(res.Position) // every session ends before the client hears so
	return httpx.Reply{Key: wire.MessageKeyPasswordChanged, Data: wire.CommandResult{Position: res.Position}}, nil
}

func (m *Module) setFundPassword(c *httpx.Call) (httpx.Reply, error) {
	var req wire.SetFundPasswordRequest
	if err := c.Decode("SetFundPasswordRequest", &req); err != nil {
		return httpx.Reply{}, err
	}
	res, err := m.cmd.SetFundPassword(c.Ctx(), c.Meta(), commands.SetFundPassword{MemberID: c.Sess.MemberID, LoginPassword: req.LoginPassword, FundPassword: req.FundPassword, Confirm: req.ConfirmFundPassword})
	if err != nil {
		return httpx.Reply{}, err
	}
	return httpx.OK(wire.CommandResult{Position: res.Position})
}

func (m *Module) changeFundPassword(c *httpx.Call) (httpx.Reply, error) {
	var req wire.ChangeFundPasswordRequest
	if err := c.Decode("ChangeFundPasswordRequest", &req); err != nil {
		return httpx.Reply{}, err
	}
	res, err := m.cmd.ChangeFundPassword(c.Ctx(), c.Meta(), commands.ChangePassword{MemberID: c.Sess.MemberID, Old: req.OldFundPassword, New: req.FundPassword, Confirm: req.ConfirmFundPassword})
	if err != nil {
		return httpx.Reply{}, err
	}
	return httpx.OK(wire.CommandResult{Position: res.Position})
}

// creditScore is the member's score: the start value until an event changed it.
func creditScore(ctx context.Context, rd *projections.Reader, memberID string) (int, error) {
	score, found, err := funds.CreditScoreOf(ctx, rd, memberID)
	if err != nil {
		return 0, err
	}
	if !found {
		return credit.Start, nil
	}
	return score, nil
}

func (m *Module) creditRule(c *httpx.Call) (httpx.Reply, error) {
	score, err := creditScore(c.Ctx(), m.read.Reader, c.Sess.MemberID)
	if err != nil {
		return httpx.Reply{}, err
	}
	rule := fundscmd.PublishedCreditRule()
	changes := make([]wire.CreditChange, 0, len(rule.Changes))
	for _, ch := range rule.Changes {
		changes = append(changes, wire.CreditChange{Reason: wire.CreditChangeReason(ch.Reason), Delta: ch.Delta})
	}
	return httpx.OK(wire.CreditRule{Score: score, Start: rule.Start, Min: rule.Min, Max: rule.Max,
		WithdrawThreshold: rule.WithdrawThreshold, Changes: changes})
}
