// Command loadgen drives lotbook over HTTP for `make bench`: it starts `lotbook serve` on a fresh
// data folder (or targets a running server with -url), registers members once, then sends deposit
// requests (and ops approvals for a share of them) from concurrent clients for a fixed time. It
// prints commands/s, request latency p50/p99, projection lag p99 (command acknowledged → visible
// in a read that waits for its position), the server's memory, and optionally how fast
// `lotbook rebuild` replays the log that the run wrote. With -api-instances it starts a deployment
// of `serve --role` instances on PostgreSQL instead and spreads the clients over its API instances.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/google/uuid"

	"github.com/lotbook/lotbook/events/postgres/pgtest"
	"github.com/lotbook/lotbook/ops/internal/serve"
)

type config struct {
	bin, url, data  string
	metricsURL      string
	members         int
	clients         int
	duration        time.Duration
	approveShare    float64
	lagEvery        int
	rebuild         string
	jsonOut, keep   bool
	registerWorkers int
	fill            int
	proofs          int
	cpuProfile      string
	allocProfile    string
	pg              string
	apiInstances    int
	nats            string
	restart         bool
	cold            bool
	grow            int64
	reuse           bool
}

// Result is what one run measured; ops/bench reads it as JSON.
type Result struct {
	APIInstances    int            `json:"apiInstances,omitempty"` // of a deployment (-api-instances); 0: one serve doing everything
	Members         int            `json:"members"`
	Clients         int            `json:"clients"`
	Seconds         float64        `json:"seconds"`
	Commands        int64          `json:"commands"`
	Deposits        int64          `json:"deposits"`
	Approvals       int64          `json:"approvals"`
	CommandsPerSec  float64        `json:"commandsPerSec"`
	P50ms           float64        `json:"p50ms"`
	P99ms           float64        `json:"p99ms"`
	Errors          map[string]int `json:"errors"`
	LagSamples      int            `json:"lagSamples"`
	LagP50ms        float64        `json:"lagP50ms"`
	LagP99ms        float64        `json:"lagP99ms"`
	MetricLagP99ms  float64        `json:"metricLagP99ms"` // lotbook_projection_lag_seconds (worst projector), sampled every 100 ms
	MetricLagMaxms  float64        `json:"metricLagMaxMs"`
	Head            int64          `json:"head"`
	RSSIdleMB       float64        `json:"rssIdleMB,omitempty"`
	RSSLoadMB       float64        `json:"rssLoadMB,omitempty"`
	HWMMB           float64        `json:"hwmMB,omitempty"`
	ServerCPUPct    float64        `json:"serverCpuPct,omitempty"`      // of one core, during the load
	ServerCPUPerCmd float64        `json:"serverCpuPerCmdMs,omitempty"` // server CPU milliseconds per command
	AllocKBPerCmd   float64        `json:"allocKbPerCmd,omitempty"`     // server heap allocations per command, KB (one server only)
	AllocsPerCmd    float64        `json:"allocsPerCmd,omitempty"`      // and objects
	LoadgenCPUPct   float64        `json:"loadgenCpuPct"`               // this tool's own share of the machine
	Rebuilds        []Rebuild      `json:"rebuilds,omitempty"`
	// -restart: the server started again on the run's log, from its checkpoints
	RestartSeconds float64 `json:"restartSeconds,omitempty"` // start until /readyz answers
	RestartRSSMB   float64 `json:"restartRssMB,omitempty"`   // when it went quiet after
	// -grow: the log's making through the command side, and the server's first start on it
	// (ready once its projections caught up with the whole log)
	GrowSeconds       float64 `json:"growSeconds,omitempty"`
	FirstStartSeconds float64 `json:"firstStartSeconds,omitempty"`
}

// Rebuild is one `lotbook rebuild NAME` over the run's log.
type Rebuild struct {
	Name         string  `json:"name"`
	Events       int64   `json:"events"`
	Seconds      float64 `json:"seconds"`
	EventsPerSec float64 `json:"eventsPerSec"`
}

func main() {
	var c config
	flag.StringVar(&c.bin, "bin", "bin/lotbook", "lotbook binary to start (ignored with -url)")
	flag.StringVar(&c.url, "url", "", "target a running server instead of starting one (registration then obeys its rate limits)")
	flag.StringVar(&c.metricsURL, "metrics-url", serve.DefaultMetricsURL, "with -url: the server's metrics listener (its --metrics-addr), for projection lag")
	flag.StringVar(&c.data, "data", "", "data folder of the started server (default: a fresh temporary folder)")
	flag.IntVar(&c.members, "members", 128, "members to register")
	flag.IntVar(&c.clients, "clients", 64, "concurrent clients")
	flag.DurationVar(&c.duration, "duration", 15*time.Second, "how long to send commands (0: none, for a rebuild timing only)")
	flag.Float64Var(&c.approveShare, "approve", 0.3, "share of deposits an ops user approves right away")
	flag.IntVar(&c.lagEvery, "lag-every", 20, "measure projection lag on every n-th command")
	flag.StringVar(&c.rebuild, "rebuild", "", "comma-separated read models to rebuild after the run, timed, or all (needs the started server)")
	flag.BoolVar(&c.jsonOut, "json", false, "print the result as JSON")
	flag.BoolVar(&c.keep, "keep", false, "keep the temporary data folder")
	flag.IntVar(&c.registerWorkers, "register-workers", 4, "concurrent registrations (each costs an argon2id hash)")
	flag.StringVar(&c.cpuProfile, "cpuprofile", "", "write the started server's CPU profile during the load to this file (go tool pprof)")
	flag.StringVar(&c.allocProfile, "allocprofile", "", "write the started server's allocations during the load to this file (go tool pprof -sample_index=alloc_space)")
	flag.IntVar(&c.proofs, "proofs", 1000, "deposit proofs recorded per member before the load (one proof backs one deposit; with -url each member uploads one)")
	flag.StringVar(&c.pg, "pg", "", "run the started server on a fresh PostgreSQL database created on this server (dropped after), e.g. "+pgtest.DefaultDSN)
	flag.IntVar(&c.apiInstances, "api-instances", 0, "with -pg: start a deployment of this many API instances, a projector and a process instance (serve --role) instead of one serve; clients spread over the API instances")
	flag.StringVar(&c.nats, "nats", "nats://127.0.0.1:4222", "with -api-instances: the NATS server the API instances relay typing over")
	flag.BoolVar(&c.restart, "restart", false, "after the run, stop the server and time its start again on the same log (from its checkpoints), with its memory once quiet")
	flag.BoolVar(&c.cold, "cold", false, "after each member's first read, start the server again on the same log, so that the load begins on an empty aggregate cache (each member's first command loads its streams, from their snapshots when stored)")
	flag.IntVar(&c.fill, "fill", 0, "deposit events appended straight to the log before the server starts (a big log for the rebuild timing)")
	flag.Int64Var(&c.grow, "grow", 0, "grow the log to this many events through the command side before the server starts (deposits requested and approved over all the members, member by member), time the server's first start on it, and keep it with its members in -data for -reuse")
	flag.BoolVar(&c.reuse, "reuse", false, "run on the log a -grow run left in -data, with its members, instead of preparing one: the server's start on it is timed as a restart, and the load begins on an empty aggregate cache")
	flag.DurationVar(&readyWait, "ready-wait", readyWait, "how long a started server may take to answer ready (its first start on a big log projects the whole log)")
	flag.Parse()

	serve.Main("loadgen", c.jsonOut, func(ctx context.Context, log *slog.Logger) (*Result, error) { return run(ctx, c, log) }, printResult)
}

func run(ctx context.Context, c config, log *slog.Logger) (*Result, error) {
	if c.members < 1 || c.clients < 1 {
		return nil, errors.New("need at least one member and one client")
	}
	if c.apiInstances > 0 && (c.pg == "" || c.url != "" || c.cpuProfile != "" || c.allocProfile != "") {
		return nil, errors.New("-api-instances needs -pg, and takes neither -url nor -cpuprofile nor -allocprofile")
	}
	if (c.restart || c.cold || c.grow > 0 || c.reuse) && (c.url != "" || c.apiInstances > 0) {
		return nil, errors.New("-restart, -cold, -grow and -reuse need the one server the tool starts (no -url, no -api-instances)")
	}
	if (c.grow > 0 || c.reuse) && (c.data == "" || c.pg != "" || c.fill > 0) {
		return nil, errors.New("-grow and -reuse need -data (the log is kept there), and take neither -pg nor -fill")
	}
	// A run-specific prefix keeps accounts fresh when targeting a server that has seen earlier runs;
	// 20–59 stays clear of the demo seed's accounts (0912…, 0966…), which --demo registers.
	prefix := 20 + rand.IntN(40)
	accounts := make([]string, c.members)
	for i := range accounts {
		accounts[i] = fmt.Sprintf("09%02d%06d", prefix, i)
	}
	const password = "load1234"

	res := &Result{APIInstances: c.apiInstances, Members: c.members, Clients: c.clients, Errors: map[string]int{}}
	var fl fleet
	var members []*member
	var registered int64
	base, metrics := strings.TrimRight(c.url, "/"), strings.TrimRight(c.metricsURL, "/")
	if base == "" {
		dir := c.data
		if dir == "" {
			tmp, err := os.MkdirTemp("", "lotbook-load-")
			if err != nil {
				return nil, err
			}
			dir = tmp
			if !c.keep {
				defer os.RemoveAll(tmp)
			}
		}
		if c.pg != "" {
			dsn, drop, err := pgtest.CreateDatabase(ctx, c.pg)
			if err != nil {
				return nil, err
			}
			defer func() {
				if err := drop(context.WithoutCancel(ctx)); err != nil {
					log.Warn("drop the run's database", "err", err)
				}
			}()
			// The offline registration below and the server it starts (which inherits the
			// environment) both use it.
			if err := os.Setenv("LOTBOOK_DATABASE_URL", dsn); err != nil {
				return nil, err
			}
			os.Unsetenv("LOTBOOK_EVENTS_URL")
		}
		var err error
		if c.reuse {
			if members, registered, err = readMembers(dir); err != nil {
				return nil, err
			}
			res.Members = len(members)
		} else {
			log.Info("registering members through the command side", "n", c.members, "data", dir)
			grown := time.Now()
			if members, registered, err = prepareOffline(ctx, log, dir, accounts, password, c.registerWorkers, c.fill, c.proofs, c.grow); err != nil {
				return nil, err
			}
			if c.grow > 0 {
				res.GrowSeconds = time.Since(grown).Seconds()
				log.Info("log grown", "head", registered, "seconds", res.GrowSeconds)
				// Kept before the first start too, which projects the whole log and may be cut.
				if err := writeMembers(dir, members, registered); err != nil {
					return nil, err
				}
			}
		}
		started := time.Now()
		if c.apiInstances > 0 {
			fl, err = startDeployment(ctx, c.bin, dir, c.nats, c.apiInstances, log)
		} else {
			var srv *server
			srv, err = startServer(ctx, c.bin, dir, "serve", c.cpuProfile != "" || c.allocProfile != "", log)
			fl = fleet{srv}
		}
		if err != nil {
			return nil, err
		}
		defer fl.stop()
		switch {
		case c.reuse:
			fl[0].started(ctx, started, res)
			res.RSSIdleMB = res.RestartRSSMB
		case c.grow > 0:
			res.FirstStartSeconds = time.Since(started).Seconds()
			log.Info("first start on the grown log", "seconds", res.FirstStartSeconds)
		}
		if c.grow > 0 || c.reuse {
			// The next -reuse run deposits with the proofs this one leaves unused.
			defer func() {
				if err := writeMembers(dir, members, max(registered, res.Head)); err != nil {
					log.Warn("keep the members for -reuse", "err", err)
				}
			}()
		}
		metrics = fl.metrics()
	}
	var cls []*client
	if fl == nil {
		cls = []*client{newClient(base, metrics, c.clients)}
	}
	for _, s := range fl.apis() {
		cls = append(cls, newClient(s.base, metrics, c.clients))
	}
	cl := cls[0]
	ops, err := cl.login(ctx, "ops", "opsdemo1")
	if err != nil {
		return nil, fmt.Errorf("the server needs the demo ops user (serve --demo): %w", err)
	}
	if members == nil {
		log.Info("registering members over HTTP (rate limited)", "n", c.members)
		sessions, err := registerHTTP(ctx, cl, accounts, password, c.registerWorkers)
		if err != nil {
			return nil, err
		}
		if members, err = uploadProofs(ctx, cl, sessions, c.registerWorkers); err != nil {
			return nil, err
		}
	} else if err := cl.waitProjected(ctx, ops, registered, 10*time.Minute); err != nil {
		return nil, fmt.Errorf("waiting for the server to project the registrations: %w", err)
	}

	// Each member's first request loads its streams into the server's aggregate cache (a member
	// stream holding the proofs is a thousand events): a cost once per member and process, not
	// per command, so it is paid before the load as start-up work. With -cold the balances are
	// read too, which loads each account stream, so that the restart below finds the account
	// snapshots that load wrote as well as the members'. A -reuse run measures the cold cache of
	// a server just started on a big log, whose first touches are the load's; without a load
	// there is nothing to warm.
	if !c.reuse && c.duration > 0 {
		if err := parallel(ctx, len(members), c.registerWorkers, func(i int) error {
			if err := cl.readAt(ctx, members[i].s, 0); err != nil || !c.cold {
				return err
			}
			return cl.balances(ctx, members[i].s)
		}); err != nil {
			return nil, fmt.Errorf("first read of each member: %w", err)
		}
	}
	res.Head = registered
	if fl != nil && !c.reuse {
		// Start-up work (projections catching up, the market simulator building its history,
		// the cache's first loads) must not count against the load, nor its memory as the idle
		// reading.
		if !fl.quiet(ctx, 60*time.Second) {
			log.Warn("the server never went quiet; measuring anyway")
		}
		res.RSSIdleMB = float64(fl.kb("VmRSS")) / 1024
		if c.cold {
			if err := fl[0].restart(ctx, "-cold", c.cpuProfile != "", res); err != nil {
				return nil, err
			}
			cl.base, cl.metrics = fl[0].base, fl[0].metrics
		}
	}

	if c.duration > 0 {
		log.Info("sending deposit commands", "clients", c.clients, "duration", c.duration)
		profiles := []struct{ kind, file string }{{"profile", c.cpuProfile}, {"allocs", c.allocProfile}}
		profiled := make(chan error, len(profiles))
		for _, p := range profiles {
			if p.file != "" && fl != nil {
				go func() { profiled <- fl[0].profile(ctx, p.kind, c.duration, p.file) }()
			} else {
				profiled <- nil
			}
		}
		drive(ctx, cls, ops, members, c, res, fl)
		for range profiles {
			if err := <-profiled; err != nil {
				return nil, err
			}
		}
	}

	if fl != nil {
		res.HWMMB = float64(fl.kb("VmHWM")) / 1024
		if c.restart {
			if err := fl[0].restart(ctx, "-restart", false, res); err != nil {
				return nil, err
			}
		}
		if c.rebuild != "" {
			if err := fl.stop(); err != nil {
				return nil, err
			}
			names, err := fl[0].readModels(ctx, c.rebuild)
			if err != nil {
				return nil, err
			}
			for _, name := range names {
				rb, err := fl[0].rebuild(ctx, name)
				if err != nil {
					return nil, err
				}
				res.Rebuilds = append(res.Rebuilds, rb)
			}
		}
	}
	return res, nil
}

// member is a registered member with proof images for its deposits, each backing one.
type member struct {
	s      *session
	id     string
	proofs []string
	next   atomic.Int64
}

// raise sets a to v if v is larger, under concurrent raises.
func raise(a *atomic.Int64, v int64) {
	for h := a.Load(); v > h && !a.CompareAndSwap(h, v); h = a.Load() {
	}
}

// proof is the next unused proof; when none is left the deposit is refused (deposit_proof_used),
// which the run counts as an error.
func (m *member) proof() string {
	return m.proofs[int(m.next.Add(1)-1)%len(m.proofs)]
}

// parallel runs fn for 0..n-1 on workers goroutines and returns the first error.
func parallel(ctx context.Context, n, workers int, fn func(i int) error) error {
	jobs := make(chan int)
	var once sync.Once
	var first error
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for i := range jobs {
				if err := fn(i); err != nil {
					once.Do(func() { first = err; cancel() })
				}
			}
		})
	}
feed:
	for i := range n {
		select {
		case jobs <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(jobs)
	wg.Wait()
	if first == nil {
		first = ctx.Err()
	}
	return first
}

func registerHTTP(ctx context.Context, cl *client, accounts []string, password string, workers int) ([]*session, error) {
	out := make([]*session, len(accounts))
	err := parallel(ctx, len(accounts), workers, func(i int) error {
		s, err := cl.register(ctx, accounts[i], password, "LOTBOOK")
		out[i] = s
		return err
	})
	return out, err
}

func uploadProofs(ctx context.Context, cl *client, sessions []*session, workers int) ([]*member, error) {
	out := make([]*member, len(sessions))
	err := parallel(ctx, len(sessions), workers, func(i int) error {
		proof, err := cl.upload(ctx, sessions[i], i)
		out[i] = &member{s: sessions[i], proofs: []string{proof}}
		return err
	})
	return out, err
}

// probeWorkers is how many lag probes read at once: enough that one is free for most offers
// (every lag-every-th command) while each waits out its projection lag.
const probeWorkers = 32

// ack is an acknowledged command handed to the lag probes.
type ack struct {
	position int64
	at       time.Time
	s        *session
}

type clientStats struct {
	latencies []time.Duration
	deposits  int64
	approvals int64
	errors    map[string]int
}

// drive sends the load from c.clients clients spread over cls (one per API instance), and lag
// probes that read on every instance in turn.
func drive(ctx context.Context, cls []*client, ops *session, members []*member, c config, res *Result, fl fleet) {
	allocated := func() (bytes, objects float64, err error) {
		// A fresh context: the count after the load is read once the load's context ended.
		actx, acancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer acancel()
		return cls[0].allocated(actx)
	}
	ctx, cancel := context.WithTimeout(ctx, c.duration)
	defer cancel()
	// Unbuffered, with a command's offer dropped when every probe is busy: a queued ack would
	// add its wait in the queue to the lag it reports (up to seconds once the probes fall behind
	// a faster server).
	probes := make(chan ack)
	var lagMu sync.Mutex
	var lags []time.Duration
	var probeWG sync.WaitGroup
	for j := range probeWorkers {
		cl := cls[j%len(cls)]
		probeWG.Go(func() {
			for a := range probes {
				// A fresh context: the last probes finish after the load stops.
				pctx, pcancel := context.WithTimeout(context.Background(), 5*time.Second)
				err := cl.readAt(pctx, a.s, a.position)
				pcancel()
				if err == nil {
					d := time.Since(a.at)
					lagMu.Lock()
					lags = append(lags, d)
					lagMu.Unlock()
				}
			}
		})
	}
	var metricLags []time.Duration
	metricsDone := make(chan struct{})
	go func() {
		defer close(metricsDone)
		serve.Every(ctx, 100*time.Millisecond, func() bool {
			if lag, err := cls[0].projectionLag(ctx); err == nil {
				metricLags = append(metricLags, lag)
			}
			return true
		})
	}()
	var peakRSS atomic.Int64
	if fl != nil {
		go serve.Every(ctx, 200*time.Millisecond, func() bool {
			if kb := fl.kb("VmRSS"); kb > peakRSS.Load() {
				peakRSS.Store(kb)
			}
			return true
		})
	}
	var head atomic.Int64
	stats := make([]clientStats, c.clients)
	var cpu0 time.Duration
	if fl != nil {
		cpu0 = fl.cpu()
	}
	// Allocations are read from one server's metrics, so a fleet of several is not counted.
	countAllocs := len(fl) == 1
	var bytes0, objects0 float64
	if countAllocs {
		var err error
		if bytes0, objects0, err = allocated(); err != nil {
			slog.Warn("server allocations not counted", "err", err)
			countAllocs = false
		}
	}
	self0 := serve.CPU(os.Getpid())
	start := time.Now()
	var wg sync.WaitGroup
	for i := range c.clients {
		st := &stats[i]
		st.errors = map[string]int{}
		cl := cls[i%len(cls)]
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(i), uint64(start.UnixNano())))
			n := 0
			record := func(t0 time.Time, pos int64, s *session, err error) bool {
				if err != nil {
					if ctx.Err() != nil {
						return false
					}
					var ae *apiError
					if errors.As(err, &ae) {
						st.errors[ae.Msg]++
					} else {
						st.errors["transport"]++
					}
					return false
				}
				now := time.Now()
				st.latencies = append(st.latencies, now.Sub(t0))
				raise(&head, pos)
				n++
				if c.lagEvery > 0 && n%c.lagEvery == 0 {
					select {
					case probes <- ack{position: pos, at: now, s: s}:
					default:
					}
				}
				return true
			}
			for k := i; ctx.Err() == nil; k += c.clients {
				m := members[k%len(members)]
				amount := fmt.Sprint(1000 + rng.IntN(9000))
				t0 := time.Now()
				order, err := cl.deposit(ctx, m.s, uuid.NewString(), amount, m.proof())
				if !record(t0, order.Position, m.s, err) {
					continue
				}
				st.deposits++
				if rng.Float64() < c.approveShare {
					t0 = time.Now()
					ap, err := cl.approve(ctx, ops, order.OrderNo)
					if record(t0, ap.Position, ops, err) {
						st.approvals++
					}
				}
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	if fl != nil {
		used := fl.cpu() - cpu0
		res.ServerCPUPct = 100 * used.Seconds() / elapsed.Seconds()
		defer func() {
			if res.Commands > 0 {
				res.ServerCPUPerCmd = used.Seconds() * 1000 / float64(res.Commands)
			}
		}()
	}
	if countAllocs {
		if bytes1, objects1, err := allocated(); err != nil {
			slog.Warn("server allocations not counted", "err", err)
		} else {
			defer func() {
				if res.Commands > 0 {
					res.AllocKBPerCmd = (bytes1 - bytes0) / 1024 / float64(res.Commands)
					res.AllocsPerCmd = (objects1 - objects0) / float64(res.Commands)
				}
			}()
		}
	}
	res.LoadgenCPUPct = 100 * (serve.CPU(os.Getpid()) - self0).Seconds() / elapsed.Seconds()
	close(probes)
	probeWG.Wait()
	<-metricsDone
	metricLags = sortedCopy(metricLags)
	res.MetricLagP99ms, res.MetricLagMaxms = percentile(metricLags, 0.99), percentile(metricLags, 1)

	var all []time.Duration
	for _, st := range stats {
		all = append(all, st.latencies...)
		res.Deposits += st.deposits
		res.Approvals += st.approvals
		for k, v := range st.errors {
			res.Errors[k] += v
		}
	}
	all = sortedCopy(all)
	lags = sortedCopy(lags)
	res.Seconds = elapsed.Seconds()
	res.Commands = res.Deposits + res.Approvals
	res.CommandsPerSec = float64(res.Commands) / elapsed.Seconds()
	res.P50ms, res.P99ms = percentile(all, 0.50), percentile(all, 0.99)
	res.LagSamples = len(lags)
	res.LagP50ms, res.LagP99ms = percentile(lags, 0.50), percentile(lags, 0.99)
	res.Head = head.Load()
	res.RSSLoadMB = float64(peakRSS.Load()) / 1024
}

func printResult(r *Result) {
	fmt.Printf("members %d, clients %d, %.1f s\n", r.Members, r.Clients, r.Seconds)
	if r.APIInstances > 0 {
		fmt.Printf("deployment: %d API instances, a projector and a process instance (server figures: all of them)\n", r.APIInstances)
	}
	fmt.Printf("%-34s %12s\n", "figure", "value")
	row := func(name, format string, v any) { fmt.Printf("%-34s %12s\n", name, fmt.Sprintf(format, v)) }
	row("HTTP commands/s", "%.0f", r.CommandsPerSec)
	row("commands (deposits + approvals)", "%s", fmt.Sprintf("%d+%d", r.Deposits, r.Approvals))
	row("command latency p50 (ms)", "%.2f", r.P50ms)
	row("command latency p99 (ms)", "%.2f", r.P99ms)
	row("projection lag p50 (ms)", "%.2f", r.LagP50ms)
	row("projection lag p99 (ms)", "%.2f", r.LagP99ms)
	row("lag samples", "%d", r.LagSamples)
	row("lag metric p99 / max (ms)", "%s", fmt.Sprintf("%.1f / %.1f", r.MetricLagP99ms, r.MetricLagMaxms))
	if r.RSSIdleMB > 0 {
		row("server RSS idle (MB)", "%.0f", r.RSSIdleMB)
		row("server RSS under load (MB)", "%.0f", r.RSSLoadMB)
		row("server peak RSS (MB)", "%.0f", r.HWMMB)
		row("server CPU (% of a core)", "%.0f", r.ServerCPUPct)
		row("server CPU per command (ms)", "%.2f", r.ServerCPUPerCmd)
	}
	if r.AllocsPerCmd > 0 {
		row("server allocated per command (KB)", "%.1f", r.AllocKBPerCmd)
		row("server allocations per command", "%.0f", r.AllocsPerCmd)
	}
	row("loadgen CPU (% of a core)", "%.0f", r.LoadgenCPUPct)
	if r.RestartSeconds > 0 {
		row("restart to ready (s)", "%.2f", r.RestartSeconds)
		row("server RSS after restart (MB)", "%.0f", r.RestartRSSMB)
	}
	for _, rb := range r.Rebuilds {
		row("rebuild "+rb.Name+" (events/s)", "%.0f", rb.EventsPerSec)
	}
	for k, v := range r.Errors {
		row("refused: "+k, "%d", v)
	}
}
