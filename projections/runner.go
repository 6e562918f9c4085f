package projections

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ThreeDotsLabs/watermill/message"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/pipeline"
)

const (
	// maxPage bounds the events one projector applies in one transaction.
	maxPage = 5000
	// A page with nothing a projector wants moves its checkpoint in memory only, and in the
	// database with its next applied page or once the unsaved stretch exceeds these bounds: a
	// restart then re-reads at most that stretch (harmlessly: it holds nothing to apply).
	lazyEvents = 20000
	lazyAge    = time.Second
	// pageLinger is how long the projectors' reader gathers the commits that follow one before
	// it hands them on (pipeline.Config.Linger): each page has a fixed cost (a read-model
	// transaction and commit, the checkpoints), which a quiet server paid once per command
	// while a loaded one shared it among the commands that queued meanwhile. It adds at most
	// this much to the projection lag, and nothing to a lone command's.
	pageLinger = 3 * time.Millisecond
)

// Runner runs every projector over the event store's feed and tells readers how far the read
// models have come.
type Runner struct {
	db     *ReadDB
	store  events.Store
	logger *slog.Logger

	mu      sync.Mutex
	pos     map[string]int64 // projector -> checkpoint
	saved   map[string]saved // projector -> checkpoint last written to the database
	changed chan struct{}    // closed and replaced whenever a checkpoint moves

	hubCapacity int          // events the shared feed buffers ahead of the slowest healthy projector
	lag         atomic.Int64 // nanoseconds every page waits before it is applied (SetLag)
	rebuildMu   sync.Mutex   // one rebuild at a time: they share the _rebuild table names

	// The share of the partitioned read models this runner applies (SetPartition).
	part        Partition
	repartition bool                  // reset partitioned read models split another way
	ps          []*Projector          // the projectors it runs
	cps         map[*Projector]string // their checkpoints' names

	// An instance that projects nothing (Watch) learns the positions from the database; its
	// read-your-writes waits make it poll while they last.
	watching atomic.Bool
	waiters  atomic.Int32
	wake     chan struct{}

	reg      prometheus.Registerer // the router's metrics, when not nil
	decoded  *shared               // entries the units share (set by Run)
	units    []*unit               // the units Run runs
	groups   grouper               // units applying pages at the same time share a transaction
	marked   map[string]bool       // unit -> applying a page or failed its last (Runner.mark)
	failures *prometheus.CounterVec
	stalled  *prometheus.GaugeVec
}

// NewRunner prepares the projectors; Run starts them. Metrics are registered on reg when it is
// not nil.
func NewRunner(db *ReadDB, store events.Store, logger *slog.Logger, reg prometheus.Registerer) *Runner {
	if logger == nil {
		logger = slog.Default()
	}
	r := &Runner{
		db: db, store: store, logger: logger.With("component", "projections"),
		pos: map[string]int64{}, saved: map[string]saved{}, changed: make(chan struct{}), wake: make(chan struct{}, 1), hubCapacity: 4 * maxPage, reg: reg,
		marked: map[string]bool{},
		failures: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "lotbook_projection_failures_total",
			Help: "Pages a projector failed to apply (it retries the same page; it never skips).",
		}, []string{"projector"}),
		stalled: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "lotbook_projection_stalled",
			Help: "1 while a projector is stuck on a page that fails to apply.",
		}, []string{"projector"}),
	}
	r.SetPartition(Partition{}, false)
	for _, p := range projectors {
		r.failures.WithLabelValues(p.Name)
		r.stalled.WithLabelValues(p.Name).Set(0)
	}
	if reg != nil {
		for _, c := range []prometheus.Collector{r.failures, r.stalled, &lagCollector{r: r}} {
			if err := reg.Register(c); err != nil {
				r.logger.Error("register projection metrics", "err", err)
			}
		}
	}
	return r
}

// Names lists the read models, each of which Rebuild and Compare accept.
func (r *Runner) Names() []string {
	out := make([]string, len(projectors))
	for i, p := range projectors {
		out[i] = p.Name
	}
	return out
}

// Run runs the projectors as handlers on a Watermill router (pipeline.NewRouter: retry,
// recoverer, metrics) until ctx ends. Every unit of projectors has its own subscription, and
// every projector its own checkpoint: a failing unit stalls alone while the others go on, and one
// behind the others catches up on its own. Units that keep up share one reader of the log.
func (r *Runner) Run(ctx context.Context) error {
	if err := r.claim(ctx); err != nil {
		return err
	}
	if err := r.loadCheckpoints(ctx); err != nil {
		return err
	}
	router, err := pipeline.NewRouter(r.logger, r.reg, "projections")
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	us := map[string]*unit{}
	for _, u := range units(r.own()) {
		us[u.Name] = u
	}
	// The shared reader starts at the furthest checkpoint; units behind it read the store
	// directly until they reach it.
	sub := pipeline.NewSubscriber(pipeline.Config{Store: r.store, Logger: r.logger, MaxPage: maxPage, HubCapacity: r.hubCapacity,
		Linger: pageLinger, After: r.highest(), From: func(ctx context.Context, topic string) (int64, error) {
			u, ok := us[topic]
			if !ok {
				return 0, fmt.Errorf("no unit of projectors named %q", topic)
			}
			cps, err := r.db.checkpoints(ctx)
			if err != nil {
				return 0, err
			}
			return u.from(r.mine(cps)), nil
		}})
	r.decoded = &shared{max: r.hubCapacity}
	go sub.Run(ctx)
	r.units = units(r.own())
	for _, u := range r.units {
		router.AddConsumerHandler(u.Name, u.Name, sub, r.handler(u))
	}
	go func() {
		<-ctx.Done()
		if err := router.Close(); err != nil {
			r.logger.Error("close projections router", "err", err)
		}
	}()
	err = router.Run(ctx)
	if ferr := r.flush(context.WithoutCancel(ctx)); ferr != nil {
		r.logger.Warn("save skipped checkpoints", "err", ferr)
	}
	if err != nil && ctx.Err() == nil {
		return fmt.Errorf("projections router: %w", err)
	}
	return nil
}

// flush writes the checkpoints that moved in memory only (over pages with nothing to apply).
func (r *Runner) flush(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	r.mu.Lock()
	behind := map[string]int64{}
	for _, p := range r.own() {
		if cp := r.cp(p); r.pos[cp] > r.saved[cp].pos {
			behind[cp] = r.pos[cp]
		}
	}
	r.mu.Unlock()
	if len(behind) == 0 {
		return nil
	}
	return r.db.writeTx(ctx, func(w *Wtx) error {
		for _, p := range r.own() {
			pos, ok := behind[r.cp(p)]
			if !ok {
				continue
			}
			cp, err := lockCheckpoint(ctx, w, r.cp(p))
			if err != nil {
				return err
			}
			if cp < pos {
				if err := setCheckpoint(ctx, w, r.cp(p), p.schemaHash(), pos); err != nil {
					return err
				}
			}
		}
		return nil
	})
}

func (r *Runner) loadCheckpoints(ctx context.Context) error {
	cps, err := r.db.checkpoints(ctx)
	if err != nil {
		return err
	}
	r.mu.Lock()
	for _, p := range r.own() {
		r.saved[r.cp(p)] = saved{pos: cps[r.cp(p)], at: time.Now()}
	}
	r.mu.Unlock()
	for _, p := range r.own() {
		r.advance(r.cp(p), cps[r.cp(p)])
	}
	return nil
}

type saved struct {
	pos int64
	at  time.Time
}

func (r *Runner) highest() int64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	var high int64
	for _, pos := range r.pos {
		high = max(high, pos)
	}
	return high
}

// skippable reports whether a page ending at last, with nothing the unit wants, may move its
// checkpoints in memory only.
func (r *Runner) skippable(u *unit, last int64) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, p := range u.ps {
		s := r.saved[r.cp(p)]
		if last-s.pos >= lazyEvents || time.Since(s.at) >= lazyAge {
			return false
		}
	}
	return true
}

// handler applies each page to every projector of u in one read-model transaction (shared with
// the other units applying a page at the time, see grouper).
func (r *Runner) handler(u *unit) message.NoPublishHandlerFunc {
	return func(msg *message.Message) error {
		evs, err := pipeline.Page(msg)
		if err != nil {
			return err
		}
		page := r.decoded.entries(evs)
		ctx := msg.Context()
		last := page[len(page)-1].Ev.Position
		if r.done(u, last) {
			return nil
		}
		wanted := false
		for _, p := range u.ps {
			evs, serr := p.selectEvents(share(r.cp(p), page))
			wanted = wanted || len(evs) > 0
			err = errors.Join(err, serr)
		}
		if err == nil && !wanted && r.skippable(u, last) {
			for _, p := range u.ps {
				r.advance(r.cp(p), last)
			}
			return nil
		}
		var pos []int64
		if err == nil {
			err = r.lagBehind(ctx)
		}
		if err == nil {
			// Marked until the page is applied: a failure (or a panic) leaves it marked.
			pos, err = r.apply(ctx, u, page, r.mark(u, true))
		}
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			for _, p := range u.ps {
				r.failures.WithLabelValues(p.Name).Inc()
				r.stalled.WithLabelValues(p.Name).Set(1)
			}
			r.logger.Error("projection stalled: page failed, retrying it (never skipped)", "unit", u.Name,
				"from", page[0].Ev.Position, "to", last, "err", err)
			return err
		}
		r.mark(u, false)
		r.appliedUnit(u, pos, time.Now())
		return nil
	}
}

// SetLag makes every page wait d before it is applied, as a loaded server's projections do: tests
// use it to show that reads wait for the writes they must reflect. The default, 0, does not wait.
func (r *Runner) SetLag(d time.Duration) { r.lag.Store(int64(d)) }

func (r *Runner) lagBehind(ctx context.Context) error {
	d := time.Duration(r.lag.Load())
	if d <= 0 {
		return nil
	}
	if !sleep(ctx, d) {
		return ctx.Err()
	}
	return nil
}

func (r *Runner) advance(name string, pos int64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if cur, ok := r.pos[name]; ok && cur >= pos {
		return
	}
	r.pos[name] = pos
	close(r.changed)
	r.changed = make(chan struct{})
}

// Position is the lowest checkpoint over all projectors: every read model reflects at least the
// events up to it.
func (r *Runner) Position() int64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.lowest()
}

func (r *Runner) lowest() int64 {
	low := int64(-1)
	for _, p := range r.own() {
		pos := r.pos[r.cp(p)]
		if low < 0 || pos < low {
			low = pos
		}
	}
	return low
}

// Snapshot runs read over one snapshot of the read models (see ReadDB.snapshot) and returns the
// log position the account unit's tables reflect in it. That is at least the unit's checkpoint
// in the snapshot, and at least the position this runner had reached before the snapshot began:
// a position beyond the stored checkpoint was reached over pages with nothing for the unit (kept
// in memory only), so the tables equal the log there too.
func (r *Runner) Snapshot(ctx context.Context, read func(*Reader) error) (int64, error) {
	u, err := unitNamed(AccountUnit)
	if err != nil {
		return 0, err
	}
	r.mu.Lock()
	reached := int64(-1)
	for _, p := range u.ps {
		if pos := r.pos[r.cp(p)]; reached < 0 || pos < reached {
			reached = pos
		}
	}
	r.mu.Unlock()
	stored, err := r.db.snapshot(ctx, read)
	if err != nil {
		return 0, err
	}
	return max(stored, reached), nil
}

// WaitFor returns when every projector has applied the events up to position (read-your-writes),
// or with ctx's error; the caller bounds ctx.
func (r *Runner) WaitFor(ctx context.Context, position int64) error {
	for waiting := false; ; {
		r.mu.Lock()
		reached, changed := r.lowest() >= position, r.changed
		r.mu.Unlock()
		if reached {
			return nil
		}
		if !waiting && r.watching.Load() {
			waiting = true
			r.waiters.Add(1)
			defer r.waiters.Add(-1)
			r.poke()
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return fmt.Errorf("wait for projections to reach %d: %w", position, ctx.Err())
		}
	}
}

// lagCollector reports each projector's position and lag at scrape time, against the store's
// head. lag_seconds is the age of the oldest event a projector has not applied yet (0 when caught
// up): unlike the age of the newest applied event, it does not grow while nothing is written.
type lagCollector struct{ r *Runner }

var (
	positionDesc   = prometheus.NewDesc("lotbook_projection_position", "Global position up to which a projector has applied the log.", []string{"projector"}, nil)
	lagEventsDesc  = prometheus.NewDesc("lotbook_projection_lag_events", "Events committed to the log that a projector has not applied yet.", []string{"projector"}, nil)
	lagSecondsDesc = prometheus.NewDesc("lotbook_projection_lag_seconds", "Age of the oldest event a projector has not applied yet (0 when caught up).", []string{"projector"}, nil)
)

func (c *lagCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- positionDesc
	ch <- lagEventsDesc
	ch <- lagSecondsDesc
}

func (c *lagCollector) Collect(ch chan<- prometheus.Metric) {
	c.r.mu.Lock()
	pos := make(map[string]int64, len(c.r.pos))
	for k, v := range c.r.pos {
		pos[k] = v
	}
	c.r.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	head, headErr := c.r.store.Head(ctx)
	ages := map[int64]float64{}
	for _, p := range c.r.own() {
		at := pos[c.r.cp(p)]
		ch <- prometheus.MustNewConstMetric(positionDesc, prometheus.GaugeValue, float64(at), p.Name)
		if headErr != nil {
			continue
		}
		ch <- prometheus.MustNewConstMetric(lagEventsDesc, prometheus.GaugeValue, float64(max(0, head-at)), p.Name)
		age, known := ages[at]
		if !known && at < head {
			if next, err := c.r.store.ReadAll(ctx, at, 1); err == nil && len(next) == 1 {
				age = max(0, time.Since(next[0].Metadata.ServerTime).Seconds())
			}
			ages[at] = age
		}
		ch <- prometheus.MustNewConstMetric(lagSecondsDesc, prometheus.GaugeValue, age, p.Name)
	}
	if headErr != nil && !errors.Is(headErr, context.Canceled) {
		c.r.logger.Warn("projection lag: store head unknown", "err", headErr)
	}
}
