package offering

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/commands/process"
	"github.com/lotbook/lotbook/events"
)

// Fact is what the process needs of one event of an offering; a capability's Fold says it.
type Fact struct {
	Kind     FactKind
	Offering string
	No       string    // the entry (bid or application number) of Entered, Settled, Delivered
	ResultAt time.Time // Offered: when the result is due (zero: when ops trigger it); Triggered: now due
	Listing  time.Time // Offered: the start of the listing date, when deliveries are due
	Paid     bool      // Settled: the entry was granted shares and paid for them (a delivery follows)
}

// FactKind is the kind of a Fact.
type FactKind int

// Fact kinds.
const (
	Ignored   FactKind = iota
	Offered            // the offering was listed (a seed commitment is Ignored)
	Entered            // a member's entry
	Triggered          // ops asked for the result
	Resulted           // the result is recorded
	Settled            // an entry is settled
	Delivered          // an entry's shares are delivered
)

// Entry names one entry to a step.
type Entry struct{ Offering, No, MemberID string }

// Spec is one capability's offerings: which events are its, what they mean, and its commands.
type Spec struct {
	Name    string                                                                                                   // the process: checkpoint, metrics, command ids
	Prefix  string                                                                                                   // the capability's event types begin with it ("Auction")
	Fold    func(events.Payload) Fact                                                                                // what an event means to the process
	Result  func(ctx context.Context, meta commands.Meta, offering string, entries []Entry) (commands.Result, error) // entries in number order
	Settle  func(ctx context.Context, meta commands.Meta, e Entry) (commands.Result, error)
	Deliver func(ctx context.Context, meta commands.Meta, e Entry) (commands.Result, error)
}

// Process runs one capability's offerings: once a second it sends the result of an offering
// whose result is due (once the fold has caught up with the log, so that every entry is in it),
// then each entry's settlement, and from the listing date each paid entry's delivery.
type Process struct {
	spec  Spec
	store events.Store
	now   func() time.Time
	log   *slog.Logger
	rt    *process.Runtime

	mu        sync.Mutex
	offerings map[string]*tracked
}

// tracked is an offering as the process folds it; the fields are the checkpoint's.
type tracked struct {
	ResultAt  time.Time         `json:"resultAt"`
	Listing   time.Time         `json:"listing"`
	Entries   map[string]string `json:"entries"` // entry -> member id
	Resulted  bool              `json:"resulted,omitempty"`
	Settled   map[string]bool   `json:"settled,omitempty"` // entry -> paid
	Delivered map[string]bool   `json:"delivered,omitempty"`
}

// Config wires a Process.
type Config struct {
	Spec       Spec
	Store      events.Store
	Clock      func() time.Time // time.Now when nil
	Logger     *slog.Logger
	Registerer prometheus.Registerer
}

// New prepares the process; Run runs it.
func New(cfg Config) *Process {
	if cfg.Clock == nil {
		cfg.Clock = time.Now
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	p := &Process{spec: cfg.Spec, store: cfg.Store, now: cfg.Clock, log: cfg.Logger.With("process", cfg.Spec.Name),
		offerings: map[string]*tracked{}}
	p.rt = process.New(process.Config{Name: cfg.Spec.Name, Store: cfg.Store, Manager: p, Clock: process.SystemClock(cfg.Clock),
		Logger: cfg.Logger, Registerer: cfg.Registerer,
		Timers: []process.Timer{{Name: "steps", Next: process.Every(time.Second),
			Fire: func(ctx context.Context, _ time.Time, _ string) error { return p.RunDue(ctx) }}}})
	return p
}

// Run folds the log and runs the due steps until ctx ends.
func (p *Process) Run(ctx context.Context) error {
	if err := p.rt.Run(ctx); err != nil {
		return fmt.Errorf("%s: %w", p.spec.Name, err)
	}
	return nil
}

// WaitReady waits until the log at start is folded.
func (p *Process) WaitReady(ctx context.Context) error { return p.rt.WaitReady(ctx) }

// Wants implements process.Manager.
func (p *Process) Wants(typ string) bool { return strings.HasPrefix(typ, p.spec.Prefix) }

// Handle implements process.Manager.
func (p *Process) Handle(_ context.Context, r events.RecordedEvent, pl events.Payload) error {
	f := p.spec.Fold(pl)
	if f.Kind == Ignored {
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if f.Kind == Offered {
		p.offerings[f.Offering] = &tracked{ResultAt: f.ResultAt, Listing: f.Listing, Entries: map[string]string{},
			Settled: map[string]bool{}, Delivered: map[string]bool{}}
		return nil
	}
	t := p.offerings[f.Offering]
	if t == nil {
		return fmt.Errorf("event %s at %d: offering %s not listed", r.Type, r.Position, f.Offering)
	}
	switch f.Kind {
	case Entered:
		t.Entries[f.No] = strings.TrimPrefix(r.Stream, "account-")
	case Triggered:
		if t.ResultAt.IsZero() {
			t.ResultAt = f.ResultAt
		}
	case Resulted:
		t.Resulted = true
	case Settled:
		t.Settled[f.No] = f.Paid
	case Delivered:
		t.Delivered[f.No] = true
	}
	return nil
}

// Snapshot implements process.Manager.
func (p *Process) Snapshot() ([]byte, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return json.Marshal(p.offerings)
}

// Restore implements process.Manager.
func (p *Process) Restore(state []byte) error {
	o := map[string]*tracked{}
	if len(state) > 0 {
		if err := json.Unmarshal(state, &o); err != nil {
			return fmt.Errorf("%s state: %w", p.spec.Name, err)
		}
	}
	for _, t := range o {
		for _, m := range []*map[string]bool{&t.Settled, &t.Delivered} {
			if *m == nil {
				*m = map[string]bool{}
			}
		}
	}
	p.mu.Lock()
	p.offerings = o
	p.mu.Unlock()
	return nil
}

// job is one command due.
type job struct {
	step  string
	entry Entry
	id    string  // command id
	all   []Entry // the result's entries
}

// Steps.
const (
	stepResult  = "result"
	stepSettle  = "settle"
	stepDeliver = "deliver"
)

// due lists the commands due at now.
func (p *Process) due(now time.Time) []job {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []job
	for _, id := range slices.Sorted(maps.Keys(p.offerings)) {
		t := p.offerings[id]
		if !t.Resulted {
			if !t.ResultAt.IsZero() && !now.Before(t.ResultAt) {
				var all []Entry
				for _, no := range slices.Sorted(maps.Keys(t.Entries)) {
					all = append(all, Entry{Offering: id, No: no, MemberID: t.Entries[no]})
				}
				out = append(out, job{step: stepResult, entry: Entry{Offering: id}, all: all,
					id: process.TimerCommandID(p.spec.Name, id+"/"+stepResult, t.ResultAt)})
			}
			continue
		}
		for _, no := range slices.Sorted(maps.Keys(t.Entries)) {
			e := Entry{Offering: id, No: no, MemberID: t.Entries[no]}
			paid, settled := t.Settled[no]
			switch {
			case !settled:
				out = append(out, job{step: stepSettle, entry: e, id: process.TimerCommandID(p.spec.Name, id+"/"+stepSettle+"/"+no, t.ResultAt)})
			case paid && !t.Delivered[no] && !now.Before(t.Listing):
				out = append(out, job{step: stepDeliver, entry: e, id: process.TimerCommandID(p.spec.Name, id+"/"+stepDeliver+"/"+no, t.Listing)})
			}
		}
	}
	return out
}

// RunDue sends every command due now. Failures are retried on the next occurrence (every second).
func (p *Process) RunDue(ctx context.Context) error {
	var errs []error
	caught := false
	if head, err := p.store.Head(ctx); err != nil {
		errs = append(errs, err)
	} else {
		caught = p.rt.Position() >= head
	}
	for _, j := range p.due(p.now()) {
		meta := commands.Meta{CommandID: j.id, Actor: "system"}
		var err error
		switch j.step {
		case stepResult:
			if !caught {
				continue
			}
			_, err = p.spec.Result(ctx, meta, j.entry.Offering, j.all)
		case stepSettle:
			_, err = p.spec.Settle(ctx, meta, j.entry)
		case stepDeliver:
			_, err = p.spec.Deliver(ctx, meta, j.entry)
		}
		if err != nil {
			p.log.WarnContext(ctx, "offering step failed; it runs again", "offering", j.entry.Offering, "step", j.step, "entry", j.entry.No, "err", err)
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// Step runs one of the process's commands on an entry's account stream: decide sees the account
// and the command's time.
func Step(ctx context.Context, k *commands.Service, meta commands.Meta, name string, e Entry,
	decide func(a *commands.Account, now time.Time) ([]events.Payload, error)) (commands.Result, error) {
	c, err := k.Begin(meta, name)
	if err != nil {
		return commands.Result{}, err
	}
	if !commands.ValidMemberID(e.MemberID) || !ValidID(e.Offering) {
		return commands.Result{}, commands.NotFound(KeyNotFound)
	}
	rec, err := commands.Execute(ctx, k, c, events.AccountStream(e.MemberID), func(a *commands.Account) ([]events.Payload, error) {
		return decide(a, c.Now)
	})
	if err != nil {
		return commands.Result{}, err
	}
	return commands.Result{Position: rec.Position}, nil
}
