package api

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/api/wire"
	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/commands/trading/engine"
	"github.com/lotbook/lotbook/projections"
	"github.com/lotbook/lotbook/projections/config"
	"github.com/lotbook/lotbook/projections/valuation"
)

func errRateLimited(wait time.Duration) *apiError {
	return refuse(http.StatusTooManyRequests, wire.MessageKeyRateLimited, fmt.Errorf("retry after %v", wait))
}

// limit takes a token from each limiter; the first refusal answers 429 with Retry-After.
func (s *server) limit(c *call, checks ...func() (bool, time.Duration)) error {
	for _, check := range checks {
		if allowed, wait := check(); !allowed {
			secs := int(wait/time.Second) + 1
			c.w.Header().Set("Retry-After", fmt.Sprint(secs))
			return errRateLimited(wait)
		}
	}
	return nil
}

func (s *server) register(c *call) (reply, error) {
	var req wire.RegisterRequest
	if err := c.decode("RegisterRequest", &req); err != nil {
		return reply{}, err
	}
	ip := clientIP(c.r)
	if err := s.limit(c, func() (bool, time.Duration) { return s.registerIP.allow(ip) }); err != nil {
		return reply{}, err
	}
	sess, err := s.cmd.Register(c.ctx(), sessionMeta(c, req.Account), commands.RegisterInput{
		Account: req.Account, Password: req.Password, ConfirmPassword: req.ConfirmPassword, InviteCode: req.InviteCode,
	})
	if err != nil {
		return reply{}, err
	}
	return ok(wire.RegisterResult{Token: sess.Token, Account: sess.Account, Role: wire.Role(sess.Role), Position: sess.Position})
}

func (s *server) login(c *call) (reply, error) {
	var req wire.LoginRequest
	if err := c.decode("LoginRequest", &req); err != nil {
		return reply{}, err
	}
	ip := clientIP(c.r)
	if err := s.limit(c,
		func() (bool, time.Duration) { return s.loginIP.allow(ip) },
		// Normalised so that case or spaces do not open another bucket for the same account.
		func() (bool, time.Duration) {
			return s.loginAccount.allow(strings.ToUpper(strings.TrimSpace(req.Account)))
		},
	); err != nil {
		return reply{}, err
	}
	meta := sessionMeta(c, req.Account)
	if m, err := s.read.MemberByAccount(c.ctx(), req.Account); err == nil {
		meta.Actor = m.Role + ":" + m.Account // staff log in here too
	}
	sess, err := s.cmd.Login(c.ctx(), meta, commands.Login{Account: req.Account, Password: req.Password})
	if err != nil {
		return reply{}, err
	}
	return ok(wire.Session{Token: sess.Token, Account: sess.Account, Role: wire.Role(sess.Role)})
}

// sessionMeta is the metadata of register and login. Their command id is always fresh, even
// when the client sent a key: a replay could not hand back the earlier token (only its hash is
// stored), so a repeated register answers account_exists and a repeated login opens another
// session, which is what a user pressing the button twice expects.
func sessionMeta(c *call, account string) commands.Meta {
	return commands.Meta{CommandID: newUUID(), Actor: "member:" + account, CorrelationID: c.idemKey, Request: c.request}
}

func (s *server) logout(c *call) (reply, error) {
	res, err := s.cmd.Logout(c.ctx(), c.meta(), commands.Logout{MemberID: c.sess.MemberID, Token: c.r.Header.Get("token")})
	if err != nil {
		return reply{}, err
	}
	// The token must stop working as soon as the client hears so.
	s.catchUpTo(c.ctx(), res.Position)
	return ok(wire.Empty{})
}

// userInfo reads the profile, cash, positions and profit in one snapshot: an order being filled
// is counted once, in frozen cash or in positions, never in both or neither.
func (s *server) userInfo(c *call) (reply, error) {
	var (
		m        projections.Member
		bals     map[string]projections.Balance
		score    int
		status   map[string]wire.RealNameStatus
		realised decimal.Decimal
		held     []projections.Position
	)
	id := c.sess.MemberID
	err := s.snapshot(c, func(rd *projections.Reader) error {
		var err error
		if m, err = rd.MemberByID(c.ctx(), id); err != nil {
			return fmt.Errorf("member %s: %w", id, err)
		}
		if bals, err = rd.Balances(c.ctx(), id); err != nil {
			return fmt.Errorf("balances of %s: %w", id, err)
		}
		if score, err = creditScore(c.ctx(), rd, id); err != nil {
			return err
		}
		if status, err = realNameStatuses(c.ctx(), rd, id); err != nil {
			return err
		}
		if realised, err = rd.RealisedProfit(c.ctx(), id); err != nil {
			return fmt.Errorf("realised profit of %s: %w", id, err)
		}
		if held, _, err = rd.Positions(c.ctx(), id, positionStatuses["holding"], 0, 0); err != nil {
			return fmt.Errorf("positions of %s: %w", id, err)
		}
		return nil
	})
	if err != nil {
		return reply{}, err
	}
	assets, err := valuation.Total(bals, realised, held, s.trade.Market(), s.cmd, engine.TradingDay(s.now()))
	if err != nil {
		return reply{}, fmt.Errorf("assets of %s: %w", id, err)
	}
	flags := make([]wire.AccountFlag, 0, len(m.Flags))
	for _, f := range m.Flags {
		flags = append(flags, wire.AccountFlag(f))
	}
	return ok(wire.UserInfo{
		Account:         m.Account,
		Role:            wire.Role(m.Role),
		RealNameStatus:  status[c.sess.MemberID],
		InviteCode:      m.InviteCode,
		FundPasswordSet: m.FundPasswordSet,
		CreditScore:     score,
		Flags:           flags,
		Assets: wire.Assets{Available: money(assets.Available), Frozen: money(assets.Frozen), Total: money(assets.Total),
			Profit: money(assets.Profit), Usd: money(assets.USD)},
	})
}

func (s *server) changePassword(c *call) (reply, error) {
	var req wire.ChangePasswordRequest
	if err := c.decode("ChangePasswordRequest", &req); err != nil {
		return reply{}, err
	}
	res, err := s.cmd.ChangeLoginPassword(c.ctx(), c.meta(), commands.ChangePassword{MemberID: c.sess.MemberID, Old: req.OldPassword, New: req.NewPassword, Confirm: req.ConfirmPassword})
	if err != nil {
		return reply{}, err
	}
	s.catchUpTo(c.ctx(), res.Position) // every session ends before the client hears so
	return reply{key: wire.MessageKeyPasswordChanged, data: wire.CommandResult{Position: res.Position}}, nil
}

func (s *server) setFundPassword(c *call) (reply, error) {
	var req wire.SetFundPasswordRequest
	if err := c.decode("SetFundPasswordRequest", &req); err != nil {
		return reply{}, err
	}
	res, err := s.cmd.SetFundPassword(c.ctx(), c.meta(), commands.SetFundPassword{MemberID: c.sess.MemberID, LoginPassword: req.LoginPassword, FundPassword: req.FundPassword, Confirm: req.ConfirmFundPassword})
	if err != nil {
		return reply{}, err
	}
	return ok(wire.CommandResult{Position: res.Position})
}

func (s *server) changeFundPassword(c *call) (reply, error) {
	var req wire.ChangeFundPasswordRequest
	if err := c.decode("ChangeFundPasswordRequest", &req); err != nil {
		return reply{}, err
	}
	res, err := s.cmd.ChangeFundPassword(c.ctx(), c.meta(), commands.ChangePassword{MemberID: c.sess.MemberID, Old: req.OldFundPassword, New: req.FundPassword, Confirm: req.ConfirmFundPassword})
	if err != nil {
		return reply{}, err
	}
	return ok(wire.CommandResult{Position: res.Position})
}

// config answers the public site config with defaults for what ops has not set.
func (s *server) config(c *call) (reply, error) {
	body, err := readBody(c.w, c.r)
	if err != nil {
		return reply{}, err
	}
	c.body = body
	var req wire.ConfigRequest
	if err := c.decode("ConfigRequest", &req); err != nil {
		return reply{}, err
	}
	if !req.Type.Valid() {
		return reply{}, errInvalidRequest(fmt.Errorf("config type %q", req.Type))
	}
	entries, err := config.Site(c.ctx(), s.read.Reader)
	if err != nil {
		return reply{}, fmt.Errorf("site config: %w", err)
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
	return ok(out)
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

func money(d decimal.Decimal) string { return d.StringFixed(2) }

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
