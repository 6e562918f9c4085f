package api

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/api/httpx"
	"github.com/lotbook/lotbook/api/wire"
	"github.com/lotbook/lotbook/commands"
	fundscmd "github.com/lotbook/lotbook/commands/funds"
	"github.com/lotbook/lotbook/commands/rules/credit"
	"github.com/lotbook/lotbook/commands/trading/engine"
	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/projections"
	"github.com/lotbook/lotbook/projections/config"
	"github.com/lotbook/lotbook/projections/funds"
	"github.com/lotbook/lotbook/projections/valuation"
)

func errRateLimited(wait time.Duration) *httpx.Error {
	return httpx.Refuse(http.StatusTooManyRequests, wire.MessageKeyRateLimited, fmt.Errorf("retry after %v", wait))
}

// limit takes a token from each limiter; the first refusal answers 429 with Retry-After.
func (s *server) limit(c *httpx.Call, checks ...func() (bool, time.Duration)) error {
	for _, check := range checks {
		if allowed, wait := check(); !allowed {
			secs := int(wait/time.Second) + 1
			c.W.Header().Set("Retry-After", fmt.Sprint(secs))
			return errRateLimited(wait)
		}
	}
	return nil
}

func (s *server) register(c *httpx.Call) (httpx.Reply, error) {
	var req wire.RegisterRequest
	if err := c.Decode("RegisterRequest", &req); err != nil {
		return httpx.Reply{}, err
	}
	ip := clientIP(c.R)
	if err := s.limit(c, func() (bool, time.Duration) { return s.registerIP.allow(ip) }); err != nil {
		return httpx.Reply{}, err
	}
	sess, err := s.cmd.Register(c.Ctx(), sessionMeta(c, req.Account), commands.RegisterInput{
		Account: req.Account, Password: req.Password, ConfirmPassword: req.ConfirmPassword, InviteCode: req.InviteCode,
	})
	if err != nil {
		return httpx.Reply{}, err
	}
	return httpx.OK(wire.RegisterResult{Token: sess.Token, Account: sess.Account, Role: wire.Role(sess.Role), Position: sess.Position})
}

func (s *server) login(c *httpx.Call) (httpx.Reply, error) {
	var req wire.LoginRequest
	if err := c.Decode("LoginRequest", &req); err != nil {
		return httpx.Reply{}, err
	}
	ip := clientIP(c.R)
	if err := s.limit(c,
		func() (bool, time.Duration) { return s.loginIP.allow(ip) },
		// Normalised so that case or spaces do not open another bucket for the same account.
		func() (bool, time.Duration) {
			return s.loginAccount.allow(strings.ToUpper(strings.TrimSpace(req.Account)))
		},
	); err != nil {
		return httpx.Reply{}, err
	}
	meta := sessionMeta(c, req.Account)
	if m, err := s.read.MemberByAccount(c.Ctx(), req.Account); err == nil {
		meta.Actor = m.Role + ":" + m.Account // staff log in here too
	}
	sess, err := s.cmd.Login(c.Ctx(), meta, commands.Login{Account: req.Account, Password: req.Password})
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
	return commands.Meta{CommandID: newUUID(), Actor: "member:" + account, CorrelationID: c.IdemKey, Request: c.Request}
}

func (s *server) logout(c *httpx.Call) (httpx.Reply, error) {
	res, err := s.cmd.Logout(c.Ctx(), c.Meta(), commands.Logout{MemberID: c.Sess.MemberID, Token: c.R.Header.Get("token")})
	if err != nil {
		return httpx.Reply{}, err
	}
	// The token must stop working as soon as the client hears so.
	s.catchUpTo(c.Ctx(), res.Position)
	return httpx.OK(wire.Empty{})
}

// userInfo reads the profile, cash, positions and profit in one snapshot: an order being filled
// is counted once, in frozen cash or in positions, never in both or neither.
func (s *server) userInfo(c *httpx.Call) (httpx.Reply, error) {
	var (
		m        projections.Member
		bals     map[string]projections.Balance
		score    int
		status   map[string]wire.RealNameStatus
		realised decimal.Decimal
		held     []projections.Position
	)
	id := c.Sess.MemberID
	err := s.snapshot(c, func(rd *projections.Reader) error {
		var err error
		if m, err = rd.MemberByID(c.Ctx(), id); err != nil {
			return fmt.Errorf("member %s: %w", id, err)
		}
		if bals, err = rd.Balances(c.Ctx(), id); err != nil {
			return fmt.Errorf("balances of %s: %w", id, err)
		}
		if score, err = creditScore(c.Ctx(), rd, id); err != nil {
			return err
		}
		if status, err = realNameStatuses(c.Ctx(), rd, id); err != nil {
			return err
		}
		if realised, err = rd.RealisedProfit(c.Ctx(), id); err != nil {
			return fmt.Errorf("realised profit of %s: %w", id, err)
		}
		if held, _, err = rd.Positions(c.Ctx(), id, positionStatuses["holding"], 0, 0); err != nil {
			return fmt.Errorf("positions of %s: %w", id, err)
		}
		return nil
	})
	if err != nil {
		return httpx.Reply{}, err
	}
	assets, err := valuation.Total(bals, realised, held, s.trade.Market(), s.funds, engine.TradingDay(s.now()))
	if err != nil {
		return httpx.Reply{}, fmt.Errorf("assets of %s: %w", id, err)
	}
	flags := make([]wire.AccountFlag, 0, len(m.Flags))
	for _, f := range m.Flags {
		flags = append(flags, wire.AccountFlag(f))
	}
	return httpx.OK(wire.UserInfo{
		Account:         m.Account,
		Role:            wire.Role(m.Role),
		RealNameStatus:  status[c.Sess.MemberID],
		InviteCode:      m.InviteCode,
		FundPasswordSet: m.FundPasswordSet,
		CreditScore:     score,
		Flags:           flags,
		Assets: wire.Assets{Available: httpx.Money(assets.Available), Frozen: httpx.Money(assets.Frozen), Total: httpx.Money(assets.Total),
			Profit: httpx.Money(assets.Profit), Usd: httpx.Money(assets.USD)},
	})
}

func (s *server) changePassword(c *httpx.Call) (httpx.Reply, error) {
	var req wire.ChangePasswordRequest
	if err := c.Decode("ChangePasswordRequest", &req); err != nil {
		return httpx.Reply{}, err
	}
	res, err := s.cmd.ChangeLoginPassword(c.Ctx(), c.Meta(), commands.ChangePassword{MemberID: c.Sess.MemberID, Old: req.OldPassword, New: req.NewPassword, Confirm: req.ConfirmPassword})
	if err != nil {
		return httpx.Reply{}, err
	}
	s.catchUpTo(c.Ctx(), res.Position) // every session ends before the client hears so
	return httpx.Reply{Key: wire.MessageKeyPasswordChanged, Data: wire.CommandResult{Position: res.Position}}, nil
}

func (s *server) setFundPassword(c *httpx.Call) (httpx.Reply, error) {
	var req wire.SetFundPasswordRequest
	if err := c.Decode("SetFundPasswordRequest", &req); err != nil {
		return httpx.Reply{}, err
	}
	res, err := s.cmd.SetFundPassword(c.Ctx(), c.Meta(), commands.SetFundPassword{MemberID: c.Sess.MemberID, LoginPassword: req.LoginPassword, FundPassword: req.FundPassword, Confirm: req.ConfirmFundPassword})
	if err != nil {
		return httpx.Reply{}, err
	}
	return httpx.OK(wire.CommandResult{Position: res.Position})
}

func (s *server) changeFundPassword(c *httpx.Call) (httpx.Reply, error) {
	var req wire.ChangeFundPasswordRequest
	if err := c.Decode("ChangeFundPasswordRequest", &req); err != nil {
		return httpx.Reply{}, err
	}
	res, err := s.cmd.ChangeFundPassword(c.Ctx(), c.Meta(), commands.ChangePassword{MemberID: c.Sess.MemberID, Old: req.OldFundPassword, New: req.FundPassword, Confirm: req.ConfirmFundPassword})
	if err != nil {
		return httpx.Reply{}, err
	}
	return httpx.OK(wire.CommandResult{Position: res.Position})
}

// config answers the public site config with defaults for what ops has not set.
func (s *server) config(c *httpx.Call) (httpx.Reply, error) {
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
	entries, err := config.Site(c.Ctx(), s.read.Reader)
	if err != nil {
		return httpx.Reply{}, fmt.Errorf("site config: %w", err)
	}
	out := make([]wire.ConfigEntry, 0, len(entries)+3)
	seen := map[string]bool{}
	for _, e := range entries {
		if e.Name == "demo" {
			continue // the server's mode, not data
		}
		out = append(out, wire.ConfigEntry{Name: e.Name, Value: e.Value})
		seen[e.Name] = true
	}
	for _, d := range []wire.ConfigEntry{{Name: "logo", Value: "logo.svg"}, {Name: "title", Value: "lotbook"}} {
		if !seen[d.Name] {
			out = append(out, d)
		}
	}
	out = append(out, wire.ConfigEntry{Name: "demo", Value: fmt.Sprint(s.demo)})
	return httpx.OK(out)
}

// commandErrorAnswer maps refusals of the write side and misses of the read side.
func commandErrorAnswer(err error) (int, wire.MessageKey, bool) {
	var ce *commands.Error
	if errors.As(err, &ce) {
		return ce.Kind.HTTPStatus(), wire.MessageKey(ce.Key), true
	}
	if errors.Is(err, projections.ErrNotFound) {
		return http.StatusNotFound, wire.MessageKeyNotFound, true
	}
	return 0, "", false
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// realNameStatus is a member's identity status for /user/info and the ops member list: the
// member_funds read model knows it once they submitted.
func realNameStatuses(ctx context.Context, rd *projections.Reader, memberIDs ...string) (map[string]wire.RealNameStatus, error) {
	st, err := funds.RealNameStatuses(ctx, rd, memberIDs)
	if err != nil {
		return nil, fmt.Errorf("realname statuses: %w", err)
	}
	out := make(map[string]wire.RealNameStatus, len(memberIDs))
	for _, id := range memberIDs {
		out[id] = wire.RealNameStatus(orDefault(st[id], events.RealNameStatusUnverified))
	}
	return out, nil
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

func (s *server) creditRule(c *httpx.Call) (httpx.Reply, error) {
	score, err := creditScore(c.Ctx(), s.read.Reader, c.Sess.MemberID)
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
