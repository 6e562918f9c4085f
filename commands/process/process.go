// Package process is the write side's runtime for process managers and schedules: code that
// reacts to events and to the clock by sending commands (the matching engine; the offerings'
// process, commands/process/offering, for the lottery, the auction and the placement; loan
// interest, lending fees, dividends and copy-trade mirroring next). A capability's manager is
// registered in its own package (Register, registry.go) and every stack runs it.
//
// A Runtime feeds one Manager the event log in order, from its own checkpoint, and fires its
// Timers. What it guarantees:
//
//   - Checkpoint: the position handled and the manager's folded state are saved together beside
//     the log (events.Checkpoints, kept by the store backend; commands never read the read
//     models), at most SaveEvery or SaveEvents apart and when the runtime stops. A restart
//     restores the state and reads only the events after the checkpoint. With a backend that
//     keeps no checkpoints it starts from position 0, as a fold of the whole log.
//   - Stalling, never skipping: the manager runs as the handler of a Watermill router over the
//     log (package pipeline: retry with backoff, recoverer, metrics). An event the manager wants
//     but cannot decode or handle is tried again, with a growing pause, until it succeeds; the
//     events after it wait. The stall shows
//     in lotbook_process_stalled, lotbook_process_failures_total and a growing lag.
//   - Deterministic command ids (EventCommandID, TimerCommandID): a command caused by an event or
//     by a timer's occurrence has an id derived from it, so that an event handled again (after a
//     restart from an older checkpoint) or an occurrence fired by two instances applies once.
//   - Timers fire only once the manager has caught up with the log as it was at start; each
//     occurrence is fired with the time it was due. The last fired occurrence is saved with the
//     checkpoint: after a restart an occurrence missed while the process was down fires once.
//   - Lag metrics per process, like the projections': lotbook_process_position,
//     lotbook_process_lag_events and lotbook_process_lag_seconds.
package process

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"sync"
	"time"

	"github.com/ThreeDotsLabs/watermill/message"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/pipeline"
)

// Manager is a process manager: it folds the events it wants and decides, on that fold, which
// commands to send. Handle is called for the wanted events in log order, one at a time; an error
// stalls the runtime on that event (it is handled again until it succeeds). Snapshot and
// Restore carry the fold across restarts; Snapshot is never called while Handle runs. A manager
// embeds EventSet for Wants and Fold for Snapshot and Restore (fold.go).
type Manager interface {
	Wants(eventType string) bool
	Handle(ctx context.Context, ev events.RecordedEvent, p events.Payload) error
	Snapshot() ([]byte, error)
	Restore(state []byte) error
}

// ErrRefold is what a Manager's Restore returns for a checkpoint state of a form it no longer
// reads: the runtime then restores the empty state and folds the log again from position 0
// (commands it sends have deterministic ids, so steps it sends again apply once).
var ErrRefold = errors.New("process: the checkpoint's state is of an older form")

// Config configures a Runtime. Name names the checkpoint, the metrics' process label and the
// command ids; it must not change while checkpoints exist.
type Config struct {
	Name       string
	Store      events.Store
	Manager    Manager
	Timers     []Timer
	Clock      Clock // SystemClock(nil) when nil
	Logger     *slog.Logger
	Registerer prometheus.Registerer // metrics are registered on it when not nil
	SaveEvery  time.Duration         // default 1 s
	SaveEvents int64                 // default 10000
	// Feed is the log's reader shared with other runtimes (NewFeed); nil: the runtime reads the
	// log alone.
	Feed *Feed
}

// Runtime runs one Manager; see the package documentation.
type Runtime struct {
	cfg Config
	log *slog.Logger

	mu        sync.Mutex // held while the manager handles an event and while its state is saved
	pos       int64      // handled up to here
	savedPos  int64
	savedAt   time.Time
	lastFired map[string]time.Time // timer -> its last fired occurrence

	ready     chan struct{}
	readyOnce sync.Once

	failures prometheus.Counter
	stalled  prometheus.Gauge
}

// New prepares a runtime; Run runs it.
func New(cfg Config) *Runtime {
	if cfg.Clock == nil {
		cfg.Clock = SystemClock(nil)
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.SaveEvery <= 0 {
		cfg.SaveEvery = time.Second
	}
	if cfg.SaveEvents <= 0 {
		cfg.SaveEvents = 10000
	}
	labels := prometheus.Labels{"process": cfg.Name}
	r := &Runtime{cfg: cfg, log: cfg.Logger.With("process", cfg.Name), lastFired: map[string]time.Time{}, ready: make(chan struct{}),
		failures: prometheus.NewCounter(prometheus.CounterOpts{Name: "lotbook_process_failures_total", ConstLabels: labels,
			Help: "Events a process manager failed to handle and timer occurrences that failed (retried, never skipped)."}),
		stalled: prometheus.NewGauge(prometheus.GaugeOpts{Name: "lotbook_process_stalled", ConstLabels: labels,
			Help: "1 while a process manager is stuck on an event it cannot decode or handle."}),
	}
	if cfg.Registerer != nil {
		for _, c := range []prometheus.Collector{r.failures, r.stalled, &lagCollector{r: r, labels: labels}} {
			if err := cfg.Registerer.Register(c); err != nil {
				r.log.Error("register process metrics", "err", err)
			}
		}
	}
	return r
}

// EventCommandID is the id of the n-th command a process sends because of an event.
func EventCommandID(process string, ev events.RecordedEvent, n int) string {
	return process + "/" + ev.ID.String() + "/" + strconv.Itoa(n)
}

// TimerCommandID is the id of the command a process sends for one occurrence of a timer.
func TimerCommandID(process, timer string, at time.Time) string {
	return process + "/" + timer + "/" + strconv.FormatInt(at.Unix(), 10)
}

// state is what a checkpoint holds besides the position.
type state struct {
	Manager json.RawMessage      `json:"manager,omitempty"`
	Timers  map[string]time.Time `json:"timers,omitempty"`
}

// Position is the position up to which the manager has handled the log.
func (r *Runtime) Position() int64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.pos
}

// WaitReady returns once the manager has caught up with the log as it was when Run started.
func (r *Runtime) WaitReady(ctx context.Context) error {
	select {
	case <-r.ready:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("process %s not ready: %w", r.cfg.Name, ctx.Err())
	}
}

// Logger is the runtime's logger, labelled with the process's name: the manager logs with it.
func (r *Runtime) Logger() *slog.Logger { return r.log }

// Ready reports whether WaitReady would return at once.
func (r *Runtime) Ready() bool {
	select {
	case <-r.ready:
		return true
	default:
		return false
	}
}

// Run restores the checkpoint, then handles the log (as the handler of a Watermill router over
// the event store, pipeline.NewRouter and pipeline.Subscriber, or Config.Feed's) and fires the timers until ctx
// ends. It saves the checkpoint before it returns. Its errors name the process: a manager that
// embeds the Runtime passes them on as they are.
func (r *Runtime) Run(ctx context.Context) error {
	if err := r.restore(ctx); err != nil {
		return err
	}
	head, err := r.cfg.Store.Head(ctx)
	if err != nil {
		return fmt.Errorf("process %s: store head: %w", r.cfg.Name, err)
	}
	r.caughtUp(head)
	defer func() {
		ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		if err := r.save(ctx); err != nil {
			r.log.Warn("save checkpoint at stop", "err", err)
		}
	}()
	router, err := pipeline.NewRouter(r.log, r.cfg.Registerer, "process")
	if err != nil {
		return fmt.Errorf("process %s: %w", r.cfg.Name, err)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	defer wg.Wait()
	var sub message.Subscriber
	if r.cfg.Feed != nil {
		fs, err := r.cfg.Feed.subscriber(ctx, r)
		if err != nil {
			if ctx.Err() != nil {
				return nil // stopped before the feed started
			}
			return err
		}
		defer fs.Close()
		sub = fs
	} else {
		own := pipeline.NewSubscriber(pipeline.Config{Store: r.cfg.Store, Logger: r.log, MaxPage: maxPage, After: r.Position(),
			From: func(context.Context, string) (int64, error) { return r.Position(), nil }})
		wg.Go(func() { own.Run(ctx) })
		sub = own
	}
	router.AddConsumerHandler(r.cfg.Name, r.cfg.Name, sub, r.handler(head))
	wg.Go(func() { r.timers(ctx) })
	wg.Go(func() {
		<-ctx.Done()
		if err := router.Close(); err != nil {
			r.log.Error("close process router", "err", err)
		}
	})
	if err := router.Run(ctx); err != nil && ctx.Err() == nil {
		return fmt.Errorf("process %s router: %w", r.cfg.Name, err)
	}
	return nil
}

// maxPage bounds the events of one message.
const maxPage = 1000

func (r *Runtime) caughtUp(head int64) {
	if r.Position() >= head {
		r.readyOnce.Do(func() { close(r.ready) })
	}
}

func (r *Runtime) restore(ctx context.Context) error {
	cps, ok := r.cfg.Store.(events.Checkpoints)
	if !ok {
		r.log.Warn("the event store keeps no checkpoints: the process reads the log from its start")
		return nil
	}
	cp, err := cps.LoadCheckpoint(ctx, r.cfg.Name)
	if err != nil {
		return fmt.Errorf("process %s: load checkpoint: %w", r.cfg.Name, err)
	}
	var st state
	if len(cp.State) > 0 {
		if err := json.Unmarshal(cp.State, &st); err != nil {
			return fmt.Errorf("process %s: checkpoint at %d: %w", r.cfg.Name, cp.Position, err)
		}
	}
	if err := r.cfg.Manager.Restore(st.Manager); errors.Is(err, ErrRefold) {
		// The manager's fold changed form: it is built again from the log, and the checkpoint
		// (saved only once the fold passes the old one) takes the new form.
		r.log.Warn("the checkpoint's state is of an older form: the process folds the log again from its start", "at", cp.Position)
		if err := r.cfg.Manager.Restore(nil); err != nil {
			return fmt.Errorf("process %s: restore empty state: %w", r.cfg.Name, err)
		}
		return nil
	} else if err != nil {
		return fmt.Errorf("process %s: restore state at %d: %w", r.cfg.Name, cp.Position, err)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.pos, r.savedPos, r.savedAt = cp.Position, cp.Position, r.cfg.Clock.Now()
	for name, at := range st.Timers {
		r.lastFired[name] = at
	}
	return nil
}

// handler hands the wanted events of a page to the manager. An event that fails fails the
// message: the router's middleware retries it, then the subscriber sends the page again, and
// the events before it (already handled) are passed over.
func (r *Runtime) handler(head int64) message.NoPublishHandlerFunc {
	return func(msg *message.Message) error {
		page, err := pipeline.Page(msg)
		if err != nil {
			return r.failed(msg, err)
		}
		ctx := msg.Context()
		for _, ev := range page {
			if err := r.handle(ctx, ev); err != nil {
				return r.failed(msg, fmt.Errorf("event at %d (%s): %w", ev.Position, ev.Type, err))
			}
		}
		r.stalled.Set(0)
		r.caughtUp(head)
		if r.due() {
			if err := r.save(ctx); err != nil && ctx.Err() == nil {
				r.log.Warn("save checkpoint", "err", err)
			}
		}
		return nil
	}
}

func (r *Runtime) failed(msg *message.Message, err error) error {
	if msg.Context().Err() == nil {
		r.failures.Inc()
		r.stalled.Set(1)
		r.log.Error("process stalled: event failed, retrying it (never skipped)", "message", msg.UUID, "err", err)
	}
	return err
}

func (r *Runtime) handle(ctx context.Context, ev events.RecordedEvent) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if ev.Position <= r.pos {
		return nil
	}
	if r.cfg.Manager.Wants(ev.Type) {
		p, err := r.decode(ev)
		if err != nil {
			return fmt.Errorf("decode: %w", err)
		}
		if err := r.cfg.Manager.Handle(ctx, ev, p); err != nil {
			return err
		}
	}
	r.pos = ev.Position
	return nil
}

// decode decodes ev once per feed: the other runtimes on it reuse the payload.
func (r *Runtime) decode(ev events.RecordedEvent) (events.Payload, error) {
	if r.cfg.Feed == nil {
		return events.DecodeRecorded(ev)
	}
	return r.cfg.Feed.payloads.get(ev)
}

func (r *Runtime) due() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.pos-r.savedPos >= r.cfg.SaveEvents || r.pos > r.savedPos && r.cfg.Clock.Now().Sub(r.savedAt) >= r.cfg.SaveEvery
}

// save writes the checkpoint: the position and the manager's state at it, and the timers.
func (r *Runtime) save(ctx context.Context) error {
	cps, ok := r.cfg.Store.(events.Checkpoints)
	if !ok {
		return nil
	}
	r.mu.Lock()
	pos := r.pos
	ms, err := r.cfg.Manager.Snapshot()
	st := state{Manager: ms, Timers: make(map[string]time.Time, len(r.lastFired))}
	for name, at := range r.lastFired {
		st.Timers[name] = at
	}
	r.mu.Unlock()
	if err != nil {
		return fmt.Errorf("process %s: state at %d: %w", r.cfg.Name, pos, err)
	}
	data, err := json.Marshal(st)
	if err != nil {
		return fmt.Errorf("process %s: state at %d: %w", r.cfg.Name, pos, err)
	}
	if err := cps.SaveCheckpoint(ctx, r.cfg.Name, events.Checkpoint{Position: pos, State: data}); err != nil {
		return err
	}
	r.mu.Lock()
	r.savedPos, r.savedAt = max(r.savedPos, pos), r.cfg.Clock.Now()
	r.mu.Unlock()
	return nil
}

// timers fires the timers' occurrences once the manager is ready, and saves a checkpoint that
// moved over a quiet log.
func (r *Runtime) timers(ctx context.Context) {
	select {
	case <-r.ready:
	case <-ctx.Done():
		return
	}
	clock := r.cfg.Clock
	now := clock.Now()
	next := make(map[string]time.Time, len(r.cfg.Timers))
	r.mu.Lock()
	for _, t := range r.cfg.Timers {
		if last, ok := r.lastFired[t.Name]; ok {
			next[t.Name] = t.Next(last) // an occurrence missed while down is due at once
		} else {
			next[t.Name] = t.Next(now)
		}
	}
	r.mu.Unlock()
	failed := map[string]*backoff{}
	for {
		wake := now.Add(r.cfg.SaveEvery)
		for _, at := range next {
			if at.Before(wake) {
				wake = at
			}
		}
		select {
		case <-clock.Until(wake):
		case <-ctx.Done():
			return
		}
		now = clock.Now()
		for _, t := range r.cfg.Timers {
			due := next[t.Name]
			if due.After(now) {
				continue
			}
			at := latest(t.Next, due, now)
			if err := t.Fire(ctx, at, TimerCommandID(r.cfg.Name, t.Name, at)); err != nil {
				if ctx.Err() != nil {
					return
				}
				r.failures.Inc()
				b := failed[t.Name]
				if b == nil {
					b = newBackoff()
					failed[t.Name] = b
				}
				r.log.Error("timer failed; firing it again", "timer", t.Name, "at", at, "err", err)
				next[t.Name] = now.Add(b.next())
				continue
			}
			delete(failed, t.Name)
			r.mu.Lock()
			r.lastFired[t.Name] = at
			r.mu.Unlock()
			next[t.Name] = t.Next(now)
		}
		if r.due() {
			if err := r.save(ctx); err != nil && ctx.Err() == nil {
				r.log.Warn("save checkpoint", "err", err)
			}
		}
	}
}

// lagCollector reports the process's position and lag at scrape time, against the store's head.
type lagCollector struct {
	r      *Runtime
	labels prometheus.Labels
}

func (c *lagCollector) descs() (pos, events, seconds *prometheus.Desc) {
	return prometheus.NewDesc("lotbook_process_position", "Global position up to which a process manager has handled the log.", nil, c.labels),
		prometheus.NewDesc("lotbook_process_lag_events", "Events committed to the log that a process manager has not handled yet.", nil, c.labels),
		prometheus.NewDesc("lotbook_process_lag_seconds", "Age of the oldest event a process manager has not handled yet (0 when caught up).", nil, c.labels)
}

func (c *lagCollector) Describe(ch chan<- *prometheus.Desc) {
	pos, evs, secs := c.descs()
	ch <- pos
	ch <- evs
	ch <- secs
}

func (c *lagCollector) Collect(ch chan<- prometheus.Metric) {
	posDesc, evsDesc, secsDesc := c.descs()
	at := c.r.Position()
	ch <- prometheus.MustNewConstMetric(posDesc, prometheus.GaugeValue, float64(at))
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	head, err := c.r.cfg.Store.Head(ctx)
	if err != nil {
		if !errors.Is(err, context.Canceled) {
			c.r.log.Warn("process lag: store head unknown", "err", err)
		}
		return
	}
	ch <- prometheus.MustNewConstMetric(evsDesc, prometheus.GaugeValue, float64(max(0, head-at)))
	var age float64
	if at < head {
		if next, err := c.r.cfg.Store.ReadAll(ctx, at, 1); err == nil && len(next) == 1 {
			age = max(0, c.r.cfg.Clock.Now().Sub(next[0].Metadata.ServerTime).Seconds())
		}
	}
	ch <- prometheus.MustNewConstMetric(secsDesc, prometheus.GaugeValue, age)
}

// backoff doubles a pause from 50 ms up to 10 s.
type backoff struct{ d time.Duration }

func newBackoff() *backoff { return &backoff{d: 50 * time.Millisecond} }

func (b *backoff) next() time.Duration {
	d := b.d
	b.d = min(2*b.d, 10*time.Second)
	return d
}
