package api

import (
	"context"
	"errors"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"time"

	"github.com/gorilla/mux"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/lotbook/lotbook/api/wire"
	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/commands/rules/secret"
	"github.com/lotbook/lotbook/commands/trading/engine"
	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/market"
	"github.com/lotbook/lotbook/projections"
	"github.com/lotbook/lotbook/projections/audit"
)

// waitBound caps every read-your-writes wait (Lotbook-Position, session lookups after login).
const waitBound = 2 * time.Second

// access says who may call a route.
type access int

const (
	public      access = iota // no session
	anyUser                   // any logged-in user (member, ops, auditor)
	memberOnly                // role member
	opsOnly                   // role ops
	auditorOnly               // role auditor
)

// idemMode says how a route treats Idempotency-Key.
type idemMode int

const (
	idemNone     idemMode = iota // reads
	idemOptional                 // login, register, logout: the key may be sent and is claimed, no answer is stored (it would hold a token)
	idemRequired                 // every other state-changing request
)

// route is one operation of api/openapi.yaml.
type route struct {
	method, path string
	access       access
	idem         idemMode
	handle       func(c *call) (reply, error)
}

// reply is what a handler answers: the message key (ok unless said) and data, or written when
// the handler wrote a non-envelope body itself (images).
type reply struct {
	key     wire.MessageKey
	data    any
	written bool
}

func ok(data any) (reply, error) { return reply{key: wire.MessageKeyOk, data: data}, nil }

// call is one request as handlers see it.
type call struct {
	w       http.ResponseWriter
	r       *http.Request
	sess    *projections.Session // nil on public routes
	idemKey string
	body    []byte // JSON body of POST routes (read once, hashed for idempotency)
	// request is the request's fingerprint (server.bind), carried to its command's events.
	request string
	// claim is the key's record to store once the handler answered (nil: no key, or answered
	// by bind); replayable says whether a success is stored with it for replays.
	claim      *projections.IdemRecord
	replayable bool
	// position is the log position a snapshot read reflects (0: the answer was not read from
	// one snapshot, and carries how far every projection has come).
	position int64
}

func (c *call) ctx() context.Context { return c.r.Context() }

// meta is the command metadata: the idempotency key is the command id, so a retried command
// re-derives the same event ids and can never write twice; the request's fingerprint binds
// that id to this request on the command side too.
func (c *call) meta() commands.Meta {
	m := commands.Meta{CommandID: c.idemKey, Actor: "system", Request: c.request}
	if m.CommandID == "" {
		m.CommandID = newUUID()
	}
	if c.sess != nil {
		m.Actor = c.sess.Role + ":" + c.sess.Account
	}
	return m
}

// decode reads the JSON body strictly against the request schema named in openapi.yaml.
func (c *call) decode(schema string, dst any) error {
	return decodeStrict(c.body, contract.shape(schema), dst)
}

// server holds what the handlers share.
type server struct {
	cmd      *commands.Service
	read     *projections.ReadDB
	runner   *projections.Runner
	store    events.Store
	log      *slog.Logger
	files    fileStore
	web      fs.FS
	demo     bool
	now      func() time.Time
	calendar commands.Calendar
	sealer   *secret.Sealer // opens ID numbers for ops reviewing them
	mkt      *market.Service
	hot      *hotLists
	ws       *wsHub
	trade    *engine.Engine
	pages    *audit.Pager // the auditor's timeline, with balance checkpoints between pages

	loginAccount, loginIP, registerIP *limiter
	uploadMember                      *limiter
	decodes                           decodeGate // image decodes running at once, server-wide
	idemLocks                         *keyedLocks
	idem                              *idemRecords
	owners                            *orderOwners // deposits taken here, for ops decisions
	written                           *sessionPositions
	metrics                           *httpMetrics
}

func (s *server) routes() []route {
	return []route{
		{"POST", "/api/vue/user/register", public, idemOptional, s.register},
		{"POST", "/api/vue/user/login", public, idemOptional, s.login},
		{"POST", "/api/vue/user/logout", anyUser, idemOptional, s.logout},
		{"GET", "/api/vue/user/info", anyUser, idemNone, s.userInfo},
		{"POST", "/api/vue/user/password", anyUser, idemRequired, s.changePassword},
		{"POST", "/api/vue/user/fundPassword", memberOnly, idemRequired, s.setFundPassword},
		{"POST", "/api/vue/user/fundPassword/change", memberOnly, idemRequired, s.changeFundPassword},
		{"POST", "/api/vue/common/config", public, idemNone, s.config},
		{"POST", "/api/vue/files", anyUser, idemRequired, s.upload},
		{"GET", "/api/vue/files/{id}", anyUser, idemNone, s.file},
		{"GET", "/api/vue/funds/channels", anyUser, idemNone, s.channels},
		{"POST", "/api/vue/funds/deposits", memberOnly, idemRequired, s.requestDeposit},
		{"GET", "/api/vue/funds/records", memberOnly, idemNone, s.fundRecords},
		{"GET", "/api/vue/ops/deposits", opsOnly, idemNone, s.opsDeposits},
		{"POST", "/api/vue/ops/deposits/{orderNo}/approve", opsOnly, idemRequired, s.approveDeposit},
		{"POST", "/api/vue/ops/deposits/{orderNo}/reject", opsOnly, idemRequired, s.rejectDeposit},
		{"GET", "/api/vue/ops/members", opsOnly, idemNone, s.opsMembers},
		{"POST", "/api/vue/ops/members/{account}/flags", opsOnly, idemRequired, s.setFlag},
		{"GET", "/api/vue/audit/accounts/{account}/timeline", auditorOnly, idemNone, s.timeline},
		{"GET", "/api/vue/user/realname", memberOnly, idemNone, s.myRealName},
		{"POST", "/api/vue/user/realname", memberOnly, idemRequired, s.submitRealName},
		{"GET", "/api/vue/user/creditRule", anyUser, idemNone, s.creditRule},
		{"GET", "/api/vue/user/cards", memberOnly, idemNone, s.myCards},
		{"POST", "/api/vue/user/cards", memberOnly, idemRequired, s.bindCard},
		{"DELETE", "/api/vue/user/cards/{id}", memberOnly, idemRequired, s.unbindCard},
		{"GET", "/api/vue/funds/withdrawChannels", anyUser, idemNone, s.withdrawChannels},
		{"POST", "/api/vue/funds/withdrawals", memberOnly, idemRequired, s.requestWithdrawal},
		{"GET", "/api/vue/funds/balances", memberOnly, idemNone, s.balances},
		{"POST", "/api/vue/funds/exchange/quote", memberOnly, idemRequired, s.exchangeQuote},
		{"POST", "/api/vue/funds/exchange", memberOnly, idemRequired, s.exchange},
		{"GET", "/api/vue/ops/realname", opsOnly, idemNone, s.opsRealNames},
		{"POST", "/api/vue/ops/realname/{account}/approve", opsOnly, idemRequired, s.approveRealName},
		{"POST", "/api/vue/ops/realname/{account}/reject", opsOnly, idemRequired, s.rejectRealName},
		{"GET", "/api/vue/ops/withdrawals", opsOnly, idemNone, s.opsWithdrawals},
		{"POST", "/api/vue/ops/withdrawals/{orderNo}/approve", opsOnly, idemRequired, s.approveWithdrawal},
		{"POST", "/api/vue/ops/withdrawals/{orderNo}/reject", opsOnly, idemRequired, s.rejectWithdrawal},
		{"GET", "/api/vue/market/stocks", public, idemNone, s.marketStocks},
		{"GET", "/api/vue/market/stocks/{symbol}", public, idemNone, s.marketQuote},
		{"GET", "/api/vue/market/stocks/{symbol}/candles", public, idemNone, s.marketCandles},
		{"GET", "/api/vue/market/search", public, idemNone, s.marketSearch},
		{"GET", "/api/vue/market/indices", public, idemNone, s.marketIndices},
		{"GET", "/api/vue/market/hot", public, idemNone, s.marketHot},
		{"POST", "/api/vue/user/Optionallist", memberOnly, idemNone, s.optionalList},
		{"POST", "/api/vue/user/favorites", memberOnly, idemRequired, s.addFavorite},
		{"DELETE", "/api/vue/user/favorites/{symbol}", memberOnly, idemRequired, s.removeFavorite},
		{"POST", "/api/vue/trade/orders", memberOnly, idemRequired, s.placeOrder},
		{"GET", "/api/vue/trade/orders", memberOnly, idemNone, s.orders},
		{"DELETE", "/api/vue/trade/orders/{orderNo}", memberOnly, idemRequired, s.cancelOrder},
		{"POST", "/api/vue/trade/orders/{orderNo}/cancel", memberOnly, idemRequired, s.cancelOrder},
		{"GET", "/api/vue/trade/positions", memberOnly, idemNone, s.positions},
		{"GET", "/api/vue/trade/positions/{id}", memberOnly, idemNone, s.position},
		{"POST", "/api/vue/trade/positions/{id}/close", memberOnly, idemRequired, s.closePosition},
		{"GET", "/api/vue/trade/dayTrading", memberOnly, idemNone, s.dayTrading},
		{"GET", "/api/vue/trade/notices", memberOnly, idemNone, s.tradeNotices},
		{"GET", "/api/vue/trade/rules", public, idemNone, s.tradeRules},
	}
}

// router builds the public mux: API routes, health, the embedded web app. Metrics are not here:
// they tell an outsider about traffic and internals, so they have their own listener
// (Stack.MetricsHandler, lotbook serve --metrics-addr).
func (s *server) router() *mux.Router {
	m := mux.NewRouter()
	m.Use(s.recoverPanics, s.accessLog, securityHeaders)
	for _, rt := range s.routes() {
		m.Handle(rt.path, s.endpoint(rt)).Methods(rt.method).Name(rt.method + " " + rt.path)
	}
	m.HandleFunc("/healthz", s.healthz).Methods("GET").Name("GET /healthz")
	m.HandleFunc("/readyz", s.readyz).Methods("GET").Name("GET /readyz")
	m.HandleFunc("/api/logo.svg", s.logo).Methods("GET").Name("GET /api/logo.svg")
	m.HandleFunc("/api/vue/ws", s.ws.serve).Methods("GET").Name("GET /api/vue/ws")
	api := m.PathPrefix("/api/").Subrouter()
	api.NotFoundHandler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeError(w, r, s.log, errNotFound)
	})
	m.MethodNotAllowedHandler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeRaw(w, http.StatusMethodNotAllowed, encodeEnvelope(0, wire.MessageKeyNotFound, nil))
	})
	m.PathPrefix("/api/").Handler(api.NotFoundHandler)
	m.PathPrefix("/").Handler(s.static()).Methods("GET", "HEAD")
	return m
}

// endpoint wraps a handler with authentication, role checks, read-your-writes and idempotency.
func (s *server) endpoint(rt route) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c := &call{w: w, r: r}
		if err := s.admit(c, rt); err != nil {
			writeError(w, r, s.log, err)
			return
		}
		if rt.idem == idemNone {
			rep, err := rt.handle(c)
			s.finish(c, rep, err)
			return
		}
		s.command(c, rt)
	})
}

// admit runs the checks common to every route before its handler.
func (s *server) admit(c *call, rt route) error {
	if rt.access != public {
		sess, err := s.authenticate(c.r)
		if err != nil {
			return err
		}
		if err := roleAllows(rt.access, sess.Role); err != nil {
			return err
		}
		c.sess = &sess
	}
	return s.waitForPosition(c, rt)
}

func roleAllows(a access, role string) error {
	switch {
	case a == memberOnly && role != events.RoleMember,
		a == opsOnly && role != events.RoleOps,
		a == auditorOnly && role != events.RoleAuditor:
		return errForbidden
	}
	return nil
}

// waitForPosition waits (bounded) until projections reached Lotbook-Position and, before a read,
// the highest position this session's own writes answered with, so that a client that sends no
// header still reads its own writes (writes decide on the log, not on read models, and do not
// wait for them). On time-out the request is served as it is; the client sees the position in
// the answer's header.
func (s *server) waitForPosition(c *call, rt route) error {
	var pos int64
	if v := c.r.Header.Get("Lotbook-Position"); v != "" {
		p, err := strconv.ParseInt(v, 10, 64)
		if err != nil || p < 0 {
			return errInvalidRequest(errors.New("bad Lotbook-Position"))
		}
		pos = p
	}
	if c.sess != nil && rt.idem == idemNone {
		pos = max(pos, s.written.get(tokenHash(c.r.Header.Get("token"))))
	}
	if pos > 0 {
		s.catchUpTo(c.ctx(), pos)
	}
	return nil
}

// noteWrite remembers the position a session's write answered with, for its next requests.
func (s *server) noteWrite(c *call, rep reply) {
	if c.sess == nil {
		return
	}
	if pos := answerPosition(rep.data); pos > 0 {
		s.written.note(tokenHash(c.r.Header.Get("token")), pos)
	}
}

// snapshot runs read over one snapshot of the read models; the answer carries the log position
// that snapshot reflects.
func (s *server) snapshot(c *call, read func(rd *projections.Reader) error) error {
	pos, err := s.runner.Snapshot(c.ctx(), read)
	if err != nil {
		return err
	}
	c.position = pos
	return nil
}

// catchUpTo waits, at most waitBound, until the projections reached pos. On time-out the caller
// goes on with what the read models hold.
func (s *server) catchUpTo(ctx context.Context, pos int64) {
	if s.runner.Position() >= pos {
		return
	}
	wctx, cancel := context.WithTimeout(ctx, waitBound)
	defer cancel()
	if err := s.runner.WaitFor(wctx, pos); err != nil && ctx.Err() == nil {
		s.log.WarnContext(ctx, "read-your-writes wait timed out", "want", pos, "have", s.runner.Position())
	}
}

// catchUpHead waits (bounded) until the projections reached the store's head. Used on a miss
// that may only be projection lag: a session just opened, an order or file just written.
func (s *server) catchUpHead(ctx context.Context) {
	head, err := s.store.Head(ctx)
	if err != nil {
		s.log.WarnContext(ctx, "store head", "err", err)
		return
	}
	s.catchUpTo(ctx, head)
}

// finish writes a handler's answer.
func (s *server) finish(c *call, rep reply, err error) {
	if err != nil {
		writeError(c.w, c.r, s.log, err)
		return
	}
	if rep.written {
		return
	}
	pos := c.position
	if pos == 0 {
		pos = s.runner.Position()
	}
	c.w.Header().Set("Lotbook-Position", strconv.FormatInt(pos, 10))
	writeOKKey(c.w, rep.key, rep.data)
}

func clientIP(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// httpMetrics counts requests per route template (never per raw path, which would explode).
type httpMetrics struct {
	requests *prometheus.CounterVec
	latency  *prometheus.HistogramVec
}

func newHTTPMetrics(reg prometheus.Registerer) *httpMetrics {
	m := &httpMetrics{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "lotbook_http_requests_total", Help: "HTTP requests by route and status.",
		}, []string{"route", "status"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "lotbook_http_request_seconds", Help: "HTTP request latency by route.",
			Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5},
		}, []string{"route"}),
	}
	reg.MustRegister(m.requests, m.latency)
	return m
}
