package api

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/mux"
	"github.com/klauspost/compress/gzhttp"
	"github.com/klauspost/compress/gzip"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/lotbook/lotbook/api/files"
	"github.com/lotbook/lotbook/api/httpx"
	"github.com/lotbook/lotbook/api/wire"
	"github.com/lotbook/lotbook/commands"
	fundscmd "github.com/lotbook/lotbook/commands/funds"
	"github.com/lotbook/lotbook/commands/rules/secret"
	"github.com/lotbook/lotbook/commands/trading"
	"github.com/lotbook/lotbook/commands/trading/engine"
	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/market"
	"github.com/lotbook/lotbook/projections"
)

// waitBound caps every read-your-writes wait (Lotbook-Position, session lookups after login).
const waitBound = 2 * time.Second

// server is the HTTP core: sessions and roles, idempotency, read-your-writes, the answer
// envelope, static files and the WebSocket. It serves the capabilities' modules
// (capabilities.go) and holds what they are built from.
type server struct {
	role     Role
	cmd      *commands.Service
	funds    *fundscmd.Commands
	trading  *trading.Commands
	read     *projections.ReadDB
	runner   *projections.Runner
	store    events.Store
	log      *slog.Logger
	dataDir  string // uploads live in dataDir/files
	web      fs.FS
	demo     bool
	blockAny bool // block applications at any hour (Config.BlockAnyHour)
	now      func() time.Time
	calendar commands.Calendar
	sealer   *secret.Sealer // keys request fingerprints; api/identity opens ID numbers with it
	mkt      *market.Service
	ws       *wsHub
	trade    *engine.Engine
	limits   RateLimits
	decodes  files.Gate    // image decodes running at once, server-wide
	timeout  time.Duration // Config.RequestTimeout

	idemLocks *keyedLocks
	idem      *idemRecords
	written   *sessionPositions
	metrics   *httpMetrics
}

// router builds the public mux: every module's routes, health, the embedded web app. Metrics
// are not here: they tell an outsider about traffic and internals, so they have their own
// listener (Stack.MetricsHandler, lotbook serve --metrics-addr).
func (s *server) router(modules []httpx.Module) *mux.Router {
	m := mux.NewRouter()
	m.Use(s.recoverPanics, s.accessLog, securityHeaders)
	roles := s.roleRouters(m)
	for _, mod := range modules {
		for _, rt := range mod.Routes() {
			roles[rt.Role].NewRoute().MatcherFunc(literalPrefix(rt.Path)).Path(rt.Path).
				Handler(compressJSON(s.endpoint(rt))).Methods(rt.Method).Name(rt.Method + " " + rt.Path)
		}
	}
	m.HandleFunc("/healthz", s.healthz).Methods("GET").Name("GET /healthz")
	m.HandleFunc("/readyz", s.readyz).Methods("GET").Name("GET /readyz")
	m.HandleFunc("/api/logo.svg", s.logo).Methods("GET").Name("GET /api/logo.svg")
	m.HandleFunc("/api/vue/ws", s.ws.serve).Methods("GET").Name("GET /api/vue/ws")
	api := m.PathPrefix("/api/").Subrouter()
	api.NotFoundHandler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeError(w, r, s.log, httpx.ErrNotFound)
	})
	m.MethodNotAllowedHandler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		httpx.WriteRaw(w, http.StatusMethodNotAllowed, httpx.EncodeEnvelope(0, wire.MessageKeyNotFound, nil))
	})
	m.PathPrefix("/api/").Handler(api.NotFoundHandler)
	m.PathPrefix("/").Handler(s.static()).Methods("GET", "HEAD")
	return m
}

// literalPrefix matches a request whose path starts with the template's text before its first
// variable, as every path the template matches does. The routes are tried one after another, so
// it spares the template's regular expression for nearly every route a request is not for.
func literalPrefix(template string) mux.MatcherFunc {
	prefix, _, _ := strings.Cut(template, "{")
	return func(r *http.Request, _ *mux.RouteMatch) bool { return strings.HasPrefix(r.URL.Path, prefix) }
}

// compressJSON gzips a route's JSON answer of at least 1 KiB when the client accepts gzip (the
// market list and other pages cost seconds on a slow phone link), at a fast level: server CPU per
// command is tracked, and a command's small answer stays as it is. Only JSON: uploaded images are
// compressed already, and the WebSocket and the static files (precompressed) are not module routes.
// Idempotency records keep the plain answer: it is compressed on the way out, replays too.
var compressJSON = func() func(http.Handler) http.HandlerFunc {
	wrap, err := gzhttp.NewWrapper(
		gzhttp.MinSize(1024),
		gzhttp.CompressionLevel(gzip.BestSpeed),
		gzhttp.EnableZstd(false),
		gzhttp.ContentTypes([]string{"application/json"}),
	)
	if err != nil { // the options are constants: only a programming error gets here
		panic(fmt.Sprintf("api: gzip wrapper: %v", err))
	}
	return wrap
}()

// roleRouters makes one subrouter per role, in front of every other route: its middleware
// bounds the request's work (deadline) and admits that role only (and, but for Public, puts the
// session in the request's context), so a route's role is where it is registered, not a check in
// its handler. The subrouters have no not-found or method-not-allowed handler of their own: a
// request none of them serves falls through to the routes after them, as in one flat table.
func (s *server) roleRouters(m *mux.Router) map[httpx.Role]*mux.Router {
	out := map[httpx.Role]*mux.Router{}
	for _, role := range []httpx.Role{httpx.Public, httpx.AnyUser, httpx.Member, httpx.Ops, httpx.Auditor} {
		sub := m.NewRoute().Subrouter()
		sub.Use(s.admit(role))
		out[role] = sub
	}
	return out
}

// admit bounds a route's work, session lookup, read-your-writes wait (waitBound, shorter) and
// handler, by Config.RequestTimeout: a database that stops answering without closing the
// connection fails the request with 503 system_busy (errorAnswer) instead of holding it. The
// socket route, whose life is long, is not on the role subrouters and has no such bound. But for
// Public, it then authenticates the request and admits only the role's sessions (any role for
// AnyUser); the session travels to the handler in the request's context (one copy of the request
// for both).
func (s *server) admit(role httpx.Role) mux.MiddlewareFunc {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			ctx, cancel := context.WithTimeout(r.Context(), s.timeout)
			defer cancel()
			if role != httpx.Public {
				a, err := s.authenticate(ctx, r.Header)
				if err == nil {
					err = roleAllows(role, a.sess.Role)
				}
				if err != nil {
					writeError(w, r, s.log, err)
					return
				}
				ctx = context.WithValue(ctx, sessionKey{}, a)
			}
			next.ServeHTTP(w, r.WithContext(ctx))
		})
	}
}

// sessionKey keys the session (*admitted) a role subrouter admitted in a request's context.
type sessionKey struct{}

func roleAllows(role httpx.Role, sessRole string) error {
	switch {
	case role == httpx.Member && sessRole != events.RoleMember,
		role == httpx.Ops && sessRole != events.RoleOps,
		role == httpx.Auditor && sessRole != events.RoleAuditor:
		return httpx.ErrForbidden
	}
	return nil
}

// endpoint wraps a handler with read-your-writes and idempotency; its role subrouter has
// admitted the caller.
func (s *server) endpoint(rt httpx.Route) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c := httpx.NewCall(w, r, s)
		if a, ok := r.Context().Value(sessionKey{}).(*admitted); ok {
			c.Sess = &a.sess
		}
		if err := s.waitForPosition(c, rt); err != nil {
			writeError(w, r, s.log, err)
			return
		}
		if rt.Idem == httpx.IdemNone {
			rep, err := rt.Handle(c)
			s.finish(c, rep, err)
			return
		}
		s.command(c, rt)
	})
}

// Decode decodes a body strictly against the request schema named in openapi.yaml.
func (s *server) Decode(schema string, body []byte, dst any) error {
	return decodeStrict(body, contract.shape(schema), dst)
}

// waitForPosition waits (bounded) until projections reached Lotbook-Position and, before a read,
// the highest position this session's own writes answered with, so that a client that sends no
// header still reads its own writes (writes decide on the log, not on read models, and do not
// wait for them). On time-out the request is served as it is; the client sees the position in
// the answer's header.
func (s *server) waitForPosition(c *httpx.Call, rt httpx.Route) error {
	var pos int64
	if v := c.R.Header.Get("Lotbook-Position"); v != "" {
		p, err := strconv.ParseInt(v, 10, 64)
		if err != nil || p < 0 {
			return httpx.InvalidRequest(errors.New("bad Lotbook-Position"))
		}
		pos = p
	}
	if c.Sess != nil && rt.Idem == httpx.IdemNone {
		pos = max(pos, s.written.get(sessionTokenHash(c)))
	}
	if pos > 0 {
		s.CatchUpTo(c.Ctx(), pos)
	}
	return nil
}

// noteWrite remembers the position a session's write answered with, for its next requests.
func (s *server) noteWrite(c *httpx.Call, rep httpx.Reply) {
	if c.Sess == nil {
		return
	}
	if pos := answerPosition(rep.Data); pos > 0 {
		s.written.note(sessionTokenHash(c), pos)
	}
}

// sessionTokenHash is the token hash of the call's admitted session.
func sessionTokenHash(c *httpx.Call) string {
	return c.R.Context().Value(sessionKey{}).(*admitted).tokenHash
}

// Snapshot runs read over one snapshot of the read models and returns the log position that
// snapshot reflects.
func (s *server) Snapshot(ctx context.Context, read func(rd *projections.Reader) error) (int64, error) {
	return s.runner.Snapshot(ctx, read)
}

// CatchUpTo waits, at most waitBound, until the projections reached pos. On time-out the caller
// goes on with what the read models hold.
func (s *server) CatchUpTo(ctx context.Context, pos int64) {
	if s.runner.Position() >= pos {
		return
	}
	wctx, cancel := context.WithTimeout(ctx, waitBound)
	defer cancel()
	if err := s.runner.WaitFor(wctx, pos); err != nil && ctx.Err() == nil {
		s.log.WarnContext(ctx, "read-your-writes wait timed out", "want", pos, "have", s.runner.Position())
	}
}

// CatchUpHead waits (bounded) until the projections reached the store's head. Used on a miss
// that may only be projection lag: a session just opened, an order or file just written.
func (s *server) CatchUpHead(ctx context.Context) {
	head, err := s.store.Head(ctx)
	if err != nil {
		s.log.WarnContext(ctx, "store head", "err", err)
		return
	}
	s.CatchUpTo(ctx, head)
}

// finish writes a handler's answer.
func (s *server) finish(c *httpx.Call, rep httpx.Reply, err error) {
	if err != nil {
		writeError(c.W, c.R, s.log, err)
		return
	}
	if rep.Written {
		return
	}
	pos := c.Position
	if pos == 0 {
		pos = s.runner.Position()
	}
	c.W.Header().Set("Lotbook-Position", strconv.FormatInt(pos, 10))
	httpx.WriteOKKey(c.W, rep.Key, rep.Data)
}

// httpMetrics counts requests per route template (never per raw path, which would explode).
type httpMetrics struct {
	requests *prometheus.CounterVec
	latency  *prometheus.HistogramVec

	// The series of each route and status, found once: looking them up by their label values
	// on every request hashed and formatted them again.
	mu     sync.RWMutex
	series map[routeStatus]routeSeries
}

type routeStatus struct {
	route  string
	status int
}

type routeSeries struct {
	requests prometheus.Counter
	latency  prometheus.Observer
}

// of returns the series of route and status.
func (m *httpMetrics) of(route string, status int) routeSeries {
	k := routeStatus{route, status}
	m.mu.RLock()
	s, ok := m.series[k]
	m.mu.RUnlock()
	if ok {
		return s
	}
	s = routeSeries{requests: m.requests.WithLabelValues(route, strconv.Itoa(status)), latency: m.latency.WithLabelValues(route)}
	m.mu.Lock()
	m.series[k] = s
	m.mu.Unlock()
	return s
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
		series: map[routeStatus]routeSeries{},
	}
	reg.MustRegister(m.requests, m.latency)
	return m
}
