// Package api is lotbook's HTTP core: the stack, sessions and roles, idempotency,
// read-your-writes, the envelope, the WebSocket, the contract (openapi.yaml) and the embedded web
// build. The capabilities' handlers are modules under it (api/<capability>), listed in
// capabilities.go.
package api

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/lotbook/lotbook/api/files"
	"github.com/lotbook/lotbook/api/httpx"
	"github.com/lotbook/lotbook/commands"
	fundscmd "github.com/lotbook/lotbook/commands/funds"
	"github.com/lotbook/lotbook/commands/process"
	"github.com/lotbook/lotbook/commands/rules/secret"
	"github.com/lotbook/lotbook/commands/trading"
	"github.com/lotbook/lotbook/commands/trading/engine"
	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/events/backend"
	"github.com/lotbook/lotbook/market"
	"github.com/lotbook/lotbook/market/calendar"
	"github.com/lotbook/lotbook/projections"
	"github.com/lotbook/lotbook/web"
)

// Config opens a Stack. Only DataDir is required: with no URLs everything is SQLite in DataDir.
type Config struct {
	DataDir     string // SQLite files and uploads (DataDir/files)
	DatabaseURL string // PostgreSQL for read models, and for events unless EventsURL is set
	EventsURL   string // events only: postgres://, esdb:// or kurrentdb://
	Demo        bool   // the app says so (config "demo"); seeding is ops/seed's job
	// SecretKey (LOTBOOK_SECRET_KEY, 32 bytes) encrypts ID and card numbers and keys their
	// hashes. Required unless Demo, which falls back to a public development key.
	SecretKey []byte
	// MarketSeed picks the simulated market (0: DefaultMarketSeed). One seed always gives the
	// same prices for the same instants, across restarts and instances.
	MarketSeed uint64
	Logger     *slog.Logger
	// Trading are the broker's rules on closing positions (lock minutes, holding days); none by
	// default. GET /api/vue/trade/rules shows them.
	Trading trading.TradingRules
	// UploadQuota is the bytes of uploads one member may store; commands.DefaultUploadQuota.
	UploadQuota int64
	// BlockAnyHour takes block trade applications at any hour (lotbook serve --demo, whose market
	// trades around the clock); otherwise only in the exchange's block hours (rules/block.Hours).
	BlockAnyHour bool
	// Role is the share of the work this instance does (RoleAll by default); every role but
	// RoleAll needs DatabaseURL, the database the instances share.
	Role Role
	// NATSURL carries the socket frames that are no event (chat typing) between API instances;
	// RoleAPI requires it, RoleAll may have it.
	NATSURL string
	// NATSSubject is the NATS subject of those frames (DefaultNATSSubject): one per deployment.
	NATSSubject string
	// RequestTimeout bounds a request (DefaultRequestTimeout; more than the read-your-writes
	// wait's 2 s): its session lookup, wait and handler's reads and command. Past it the request
	// answers 503 system_busy, so that a database gone silent fails requests clearly instead of
	// holding them.
	RequestTimeout time.Duration
	// Partition is the projector instance's share of the partitioned read models (role
	// projector; the whole by default); Repartition resets those split another way.
	Partition   projections.Partition
	Repartition bool

	// Tests and tools may override these; zero values are production defaults.
	PasswordCost commands.PasswordCost
	Clock        func() time.Time
	RateLimits   RateLimits
	Web          fs.FS // the web build; default the one embedded in the binary
	// Market is a market built by the caller (tests share one), who then runs it; nil builds
	// the simulator (Demo: trading around the clock) and runs it with the stack.
	Market *market.Service
}

// DefaultMetricsAddr is where `lotbook serve` serves /metrics unless told otherwise: loopback,
// so that only the host (or a scraper given access to it) reads the figures; not 9090, which a
// Prometheus on the same host takes.
const DefaultMetricsAddr = "127.0.0.1:9464"

// DefaultRequestTimeout is Config.RequestTimeout's default: a command takes milliseconds, and
// seconds only on a machine loaded far past its capacity.
const DefaultRequestTimeout = 5 * time.Second

// Role is the share of a deployment's work an instance does (lotbook serve --role).
type Role string

const (
	// RoleAll does everything in one process: HTTP and sockets, projections, process managers.
	RoleAll Role = "all"
	// RoleAPI serves HTTP and sockets and sends commands; it reads the read models a projector
	// instance writes and waits for that instance's checkpoints.
	RoleAPI Role = "api"
	// RoleProjector runs the projectors into the shared read database, and nothing else.
	RoleProjector Role = "projector"
	// RoleProcess runs the matching engine and the registered process managers.
	RoleProcess Role = "process"
)

// ParseRole reads a role's name; "" is RoleAll.
func ParseRole(s string) (Role, error) {
	switch r := Role(s); r {
	case "":
		return RoleAll, nil
	case RoleAll, RoleAPI, RoleProjector, RoleProcess:
		return r, nil
	}
	return "", fmt.Errorf("unknown role %q (all, api, projector or process)", s)
}

// serves tells whether the role serves HTTP and sockets.
func (r Role) serves() bool { return r == RoleAll || r == RoleAPI }

// processes tells whether the role runs the matching engine and the process managers.
func (r Role) processes() bool { return r == RoleAll || r == RoleProcess }

// DefaultNATSSubject is the subject API instances relay socket frames on unless configured.
const DefaultNATSSubject = "lotbook.sockets"

// DefaultMarketSeed is the simulated market's seed unless configured (LOTBOOK_MARKET_SEED).
const DefaultMarketSeed = 1

// Stack is one running lotbook: store, read models, command service, projection runner.
type Stack struct {
	Store    events.Store
	Read     *projections.ReadDB
	Commands *commands.Service // the write side's kernel; capabilities' commands below
	Funds    *fundscmd.Commands
	Trading  *trading.Commands
	Runner   *projections.Runner
	Registry *prometheus.Registry
	Market   *market.Service // the only source of prices

	cfg     Config
	sealer  *secret.Sealer
	ownsMkt bool
	ws      *wsHub
	trade   *engine.Engine
	// processes are the capabilities' process managers (process.Register), run with the stack;
	// they and the matching engine read the log through feed.
	processes []registeredProcess
	feed      *process.Feed
	pushers   []httpx.Pusher // modules that push to sockets while the stack runs
	relay     *socketRelay   // socket frames to and from the other API instances; nil without NATS
	handler   http.Handler
	idem      *idemRecords
	decodes   files.Gate
	once      sync.Once
	closeErr  error
}

// registeredProcess is a built process manager and its name.
type registeredProcess struct {
	name string
	run  process.Runner
}

// OpenStack opens the event store and the read models and wires the command service and the
// projection runner. Call Run to start projecting and Handler to serve.
func OpenStack(ctx context.Context, cfg Config) (*Stack, error) {
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.Clock == nil {
		cfg.Clock = time.Now
	}
	if cfg.Web == nil {
		cfg.Web = web.Dist()
	}
	if cfg.Role == "" {
		cfg.Role = RoleAll
	}
	if cfg.NATSSubject == "" {
		cfg.NATSSubject = DefaultNATSSubject
	}
	if cfg.RequestTimeout == 0 {
		cfg.RequestTimeout = DefaultRequestTimeout
	}
	if cfg.RequestTimeout <= waitBound {
		// The read-your-writes wait runs within the request's deadline and must fit in it.
		return nil, fmt.Errorf("request timeout %s: must be more than the read-your-writes bound %s", cfg.RequestTimeout, waitBound)
	}
	if cfg.Role != RoleAll && cfg.DatabaseURL == "" {
		return nil, fmt.Errorf("api: role %s shares the read models: it needs a PostgreSQL database (DatabaseURL)", cfg.Role)
	}
	if cfg.Partition.Count > 1 && cfg.Role != RoleProjector {
		return nil, fmt.Errorf("api: partition %s: only role projector runs a partition of the read models", cfg.Partition)
	}
	if cfg.Role == RoleAPI && cfg.NATSURL == "" {
		return nil, fmt.Errorf("api: role api relays chat typing to the other API instances: it needs NATS (NATSURL)")
	}
	sealer, err := sealerFor(cfg)
	if err != nil {
		return nil, err
	}
	eventsURL := cfg.EventsURL
	if eventsURL == "" {
		eventsURL = cfg.DatabaseURL
	}
	store, err := backend.Open(ctx, cfg.DataDir, eventsURL)
	if err != nil {
		return nil, fmt.Errorf("api: open event store: %w", err)
	}
	read, err := projections.OpenReadDB(ctx, cfg.DataDir, cfg.DatabaseURL)
	if err != nil {
		store.Close()
		return nil, fmt.Errorf("api: open read models: %w", err)
	}
	mkt, owns := cfg.Market, false
	if mkt == nil {
		seed := cfg.MarketSeed
		if seed == 0 {
			seed = DefaultMarketSeed
		}
		if mkt, err = market.New(market.Config{Seed: seed, Demo: cfg.Demo, Now: cfg.Clock}); err != nil {
			read.Close()
			store.Close()
			return nil, fmt.Errorf("api: market: %w", err)
		}
		owns = true
	}
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	cmd := commands.New(store, commands.Options{
		Clock:        cfg.Clock,
		Calendar:     calendar.Taiwan(),
		PasswordCost: cfg.PasswordCost,
		Logger:       cfg.Logger,
		Sealer:       sealer,
		UploadQuota:  cfg.UploadQuota,
	})
	tr := trading.New(cmd, cfg.Trading)
	feed := process.NewFeed(store, cfg.Logger)
	st := &Stack{
		Store:    store,
		Read:     read,
		Commands: cmd,
		Funds:    fundscmd.New(cmd),
		Trading:  tr,
		Runner:   projections.NewRunner(read, store, cfg.Logger, reg),
		Registry: reg,
		Market:   mkt,
		cfg:      cfg,
		sealer:   sealer,
		ownsMkt:  owns,
		feed:     feed,
		trade: engine.New(engine.Config{Commands: tr, Store: store, Feed: feed, Market: mkt, Clock: cfg.Clock, Logger: cfg.Logger,
			Registerer: reg}),
	}
	st.Runner.SetPartition(cfg.Partition, cfg.Repartition)
	if cfg.Role.processes() {
		deps := process.Deps{Commands: cmd, Market: mkt, Store: store, Feed: feed, Clock: cfg.Clock, Logger: cfg.Logger, Registerer: reg}
		for _, p := range process.Registered() {
			st.processes = append(st.processes, registeredProcess{name: p.Name, run: p.Build(deps)})
		}
	}
	srv := st.newServer()
	st.idem = srv.idem
	st.decodes = srv.decodes
	st.ws = srv.ws
	modules := srv.capabilities()
	st.handler = srv.router(modules)
	if !cfg.Role.serves() {
		st.handler = srv.healthRouter()
	}
	if cfg.NATSURL != "" && cfg.Role.serves() {
		relay, err := openSocketRelay(ctx, cfg.NATSURL, cfg.NATSSubject, string(cfg.Role), srv.ws, cfg.Logger)
		if err != nil {
			st.idem.close()
			read.Close()
			store.Close()
			return nil, err
		}
		st.relay = relay
		srv.ws.out = relay
	}
	srv.ws.auth, srv.ws.now = srv.session, srv.now
	for _, m := range modules {
		if r, ok := m.(httpx.SocketReceiver); ok {
			srv.ws.receivers = append(srv.ws.receivers, r)
		}
		if p, ok := m.(httpx.Pusher); ok {
			st.pushers = append(st.pushers, p)
		}
	}
	return st, nil
}

func (st *Stack) newServer() *server {
	return &server{
		cmd:       st.Commands,
		funds:     st.Funds,
		trading:   st.Trading,
		read:      st.Read,
		runner:    st.Runner,
		store:     st.Store,
		log:       st.cfg.Logger,
		dataDir:   st.cfg.DataDir,
		web:       st.cfg.Web,
		demo:      st.cfg.Demo,
		blockAny:  st.cfg.BlockAnyHour,
		now:       st.cfg.Clock,
		calendar:  calendar.Taiwan(),
		sealer:    st.sealer,
		limits:    st.cfg.RateLimits.withDefaults(),
		decodes:   files.NewGate(files.MaxDecodes),
		idemLocks: newKeyedLocks(),
		written:   newSessionPositions(maxSessionPositions),
		idem:      newIdemRecords(st.Read, st.cfg.Logger),
		metrics:   newHTTPMetrics(st.Registry),
		mkt:       st.Market,
		ws:        newWSHub(st.Market, st.cfg.Logger, st.Registry),
		trade:     st.trade,
		role:      st.cfg.Role,
		timeout:   st.cfg.RequestTimeout,
	}
}

// Handler is the public HTTP surface: /api/vue/..., /healthz, /readyz and the web app.
func (st *Stack) Handler() http.Handler { return st.handler }

// MetricsHandler serves the Prometheus page at /metrics (404 elsewhere), for a listener of its
// own that only the monitoring network reaches.
func (st *Stack) MetricsHandler() http.Handler {
	m := http.NewServeMux()
	m.Handle("GET /metrics", promhttp.HandlerFor(st.Registry, promhttp.HandlerOpts{Registry: st.Registry}))
	return m
}

// Run does the role's share until ctx ends: projects events, moves the market (when the stack
// built it) and streams it to sockets, runs the matching engine and the process managers; it
// returns when all of them stopped.
func (st *Stack) Run(ctx context.Context) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	role := st.cfg.Role
	var wg sync.WaitGroup
	if role.serves() {
		st.runSockets(ctx, &wg)
	}
	if role != RoleProjector {
		// Commands are sent here (by handlers or by process managers): keep their cache current.
		wg.Go(func() {
			if err := st.Commands.Follow(ctx); err != nil {
				st.cfg.Logger.Error("command cache follower stopped: views read the store", "err", err)
			}
		})
	}
	if role.processes() {
		wg.Go(func() { st.feed.Run(ctx) })
		wg.Go(func() {
			if err := st.trade.Run(ctx); err != nil {
				st.cfg.Logger.Error("matching engine stopped", "err", err)
			}
		})
		for _, p := range st.processes {
			wg.Go(func() {
				if err := p.run.Run(ctx); err != nil {
					st.cfg.Logger.Error("process manager stopped", "process", p.name, "err", err)
				}
			})
		}
	}
	if st.ownsMkt && role != RoleProjector {
		wg.Go(func() {
			if err := st.Market.Run(ctx); err != nil && !errors.Is(err, context.Canceled) {
				st.cfg.Logger.Error("market stopped", "err", err)
			}
		})
	}
	var err error
	switch role {
	case RoleAll:
		err = st.Runner.Run(ctx)
	case RoleProjector:
		wg.Go(func() {
			if err := st.Runner.Publish(ctx); err != nil {
				st.cfg.Logger.Error("projection progress stopped", "err", err)
			}
		})
		err = st.Runner.Run(ctx)
	default:
		// The read models are the projector instance's: follow its checkpoints.
		err = st.Runner.Watch(ctx)
	}
	cancel()
	wg.Wait()
	if err != nil && !errors.Is(err, context.Canceled) {
		return fmt.Errorf("api: projections: %w", err)
	}
	return nil
}

// runSockets starts the socket hub, its session follower and the modules' pushes.
func (st *Stack) runSockets(ctx context.Context, wg *sync.WaitGroup) {
	wg.Go(func() { st.ws.run(ctx) })
	wg.Go(func() {
		if err := st.ws.followSessions(ctx, st.Store); err != nil && !errors.Is(err, context.Canceled) {
			st.cfg.Logger.Error("socket sessions stopped", "err", err)
		}
	})
	for _, p := range st.pushers {
		wg.Go(func() {
			if err := p.Push(ctx, st.ws); err != nil && !errors.Is(err, context.Canceled) {
				st.cfg.Logger.Error("socket pushes stopped", "err", err)
			}
		})
	}
}

// Close writes the queued idempotency records, then closes the read models and the store.
// Stop serving first.
func (st *Stack) Close() error {
	st.once.Do(func() {
		st.idem.close()
		if st.relay != nil {
			st.relay.close()
		}
		st.closeErr = errors.Join(st.Read.Close(), st.Store.Close())
	})
	return st.closeErr
}

// Serve serves h on addr until ctx ends, then shuts down gracefully (in-flight requests get
// up to 10 s to finish).
func Serve(ctx context.Context, addr string, h http.Handler) error {
	srv := &http.Server{
		Addr:              addr,
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       60 * time.Second,
		WriteTimeout:      60 * time.Second,
		IdleTimeout:       120 * time.Second,
		MaxHeaderBytes:    64 << 10,
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.ListenAndServe() }()
	select {
	case err := <-errc:
		return fmt.Errorf("api: serve %s: %w", addr, err)
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		return fmt.Errorf("api: shutdown: %w", err)
	}
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("api: serve %s: %w", addr, err)
	}
	return nil
}

// readyLag is how far behind the store projections may be for the instance to take traffic.
const readyLag = 10000

func (s *server) healthz(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	_, _ = w.Write([]byte("ok\n"))
}

// readyz: the store answers and the instance's work is within readyLag events of its head: the
// read models it serves or writes (every role but process: an API instance's are the projector
// instance's checkpoints), or the matching engine (process).
func (s *server) readyz(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
	defer cancel()
	head, err := s.store.Head(ctx)
	if err != nil {
		w.WriteHeader(http.StatusServiceUnavailable)
		fmt.Fprintf(w, "event store unreachable\n")
		return
	}
	what, pos := "projections", s.runner.Position()
	if s.role == RoleProcess {
		what, pos = "matching engine", s.trade.Position()
	}
	if head-pos > readyLag {
		w.WriteHeader(http.StatusServiceUnavailable)
		fmt.Fprintf(w, "%s behind: %d of %d\n", what, pos, head)
		return
	}
	fmt.Fprintf(w, "ok %d/%d\n", pos, head)
}

// healthRouter is the HTTP surface of an instance that serves no API (projector, process): the
// probes only.
func (s *server) healthRouter() http.Handler {
	m := http.NewServeMux()
	m.HandleFunc("GET /healthz", s.healthz)
	m.HandleFunc("GET /readyz", s.readyz)
	return m
}
