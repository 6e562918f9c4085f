package offering

import (
	"context"
	"errors"
	"log/slog"
	"maps"
	"slices"
	"strings"
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
	No       string               // the entry (bid or application number) of Entered and Done
	ResultAt time.Time            // Offered: when the result is due (zero: when ops trigger it); Triggered: now due
	At       map[string]time.Time // Offered: when each entry step is due (a step not named: with the result)
	Won      []string             // Resulted: the entries the result granted (what Progress.Won tells)
	Step     string               // Done: the entry step the event records
	Paid     bool                 // Done: the entry paid for shares it was granted (Progress.Paid)
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
	Done               // an entry step is recorded for an entry
)

// Entry names one entry to a step.
type Entry struct{ Offering, No, MemberID string }

// Progress is what the fold knows of one entry after the result: what it won, whether it paid,
// which steps are recorded for it.
type Progress struct {
	Won, Paid bool
	done      map[string]bool
}

// Done tells whether step is recorded for the entry.
func (p Progress) Done(step string) bool { return p.done[step] }

// EntryStep is one step the process runs for each entry after the result, in the order of
// Spec.Steps (their times must not decrease).
type EntryStep struct {
	Name string
	// Concerns tells whether the step has anything to do for the entry, as far as the fold knows;
	// nil: every entry. An entry is finished once no step concerns it that is not done.
	Concerns func(Progress) bool
	Run      func(ctx context.Context, meta commands.Meta, e Entry) (commands.Result, error)
}

// Spec is one capability's offerings: which events are its, what they mean, and its commands.
type Spec struct {
	Name       string                                                                                                   // the process: checkpoint, metrics, command ids
	Prefix     string                                                                                                   // the capability's event types begin with it ("Auction")
	Fold       func(events.Payload) Fact                                                                                // what an event means to the process
	ResultStep string                                                                                                   // the result's name in command ids ("result" when empty)
	Result     func(ctx context.Context, meta commands.Meta, offering string, entries []Entry) (commands.Result, error) // entries in number order
	Steps      []EntryStep                                                                                              // each entry's steps after the result
}

// Settled is the step name of SettleThenDeliver's settlement, Delivered of its delivery.
const (
	Settled   = "settle"
	Delivered = "deliver"
)

// SettleThenDeliver are the steps of the auction and the placement: every entry is settled with
// the result (Done Settled, Paid when granted shares), then each paid entry's shares are
// delivered (Done Delivered) at the Offered fact's At[Delivered], the listing.
func SettleThenDeliver(settle, deliver func(ctx context.Context, meta commands.Meta, e Entry) (commands.Result, error)) []EntryStep {
	return []EntryStep{{Name: Settled, Run: settle}, {Name: Delivered, Concerns: func(p Progress) bool { return p.Paid }, Run: deliver}}
}

// Process runs one capability's offerings: once a second it sends the result of an offering
// whose result is due (once the fold has caught up with the log, so that every entry is in it),
// then each entry's steps as they fall due. An offering whose every entry is finished is
// forgotten: the fold, and the checkpoint, hold only the offerings in progress.
type Process struct {
	*process.Runtime
	process.Fold[checkpoint]

	spec  Spec
	store events.Store
	now   func() time.Time
}

// tracked is an offering as the process folds it; the fields are the checkpoint's.
type tracked struct {
	ResultAt time.Time                  `json:"resultAt"`
	At       map[string]time.Time       `json:"at,omitempty"`
	Entries  map[string]string          `json:"entries"` // entry -> member id
	Resulted bool                       `json:"resulted,omitempty"`
	Won      map[string]bool            `json:"won,omitempty"`
	Paid     map[string]bool            `json:"paid,omitempty"`
	Done     map[string]map[string]bool `json:"done,omitempty"` // step -> entries it is recorded for
}

func (t *tracked) progress(no string) Progress {
	p := Progress{Won: t.Won[no], Paid: t.Paid[no], done: map[string]bool{}}
	for step, nos := range t.Done {
		p.done[step] = nos[no]
	}
	return p
}

// at is when step is due.
func (t *tracked) at(step string) time.Time {
	if at, ok := t.At[step]; ok {
		return at
	}
	return t.ResultAt
}

// Config wires a Process.
type Config struct {
	Spec       Spec
	Store      events.Store
	Feed       *process.Feed    // the log reader shared by the stack's processes (nil: its own)
	Clock      func() time.Time // time.Now when nil
	Logger     *slog.Logger
	Registerer prometheus.Registerer
}

// New prepares the process; Run runs it.
func New(cfg Config) *Process {
	if cfg.Clock == nil {
		cfg.Clock = time.Now
	}
	if cfg.Spec.ResultStep == "" {
		cfg.Spec.ResultStep = "result"
	}
	p := &Process{spec: cfg.Spec, store: cfg.Store, now: cfg.Clock, Fold: process.NewFold(emptyCheckpoint, restored)}
	p.Runtime = process.New(process.Config{Name: cfg.Spec.Name, Store: cfg.Store, Feed: cfg.Feed, Manager: p, Clock: process.SystemClock(cfg.Clock),
		Logger: cfg.Logger, Registerer: cfg.Registerer,
		Timers: []process.Timer{{Name: "steps", Next: process.Every(time.Second),
			Fire: func(ctx context.Context, _ time.Time, _ string) error { return p.RunDue(ctx) }}}})
	return p
}

// Wants implements process.Manager.
func (p *Process) Wants(typ string) bool { return strings.HasPrefix(typ, p.spec.Prefix) }

// Handle implements process.Manager. An event of an offering the fold does not hold is of one
// forgotten once finished (a restart from an older checkpoint folds its last events again) and
// changes nothing.
func (p *Process) Handle(_ context.Context, r events.RecordedEvent, pl events.Payload) error {
	f := p.spec.Fold(pl)
	if f.Kind == Ignored {
		return nil
	}
	offerings := p.Lock().Offerings
	defer p.Unlock()
	if f.Kind == Offered {
		offerings[f.Offering] = &tracked{ResultAt: f.ResultAt, At: f.At, Entries: map[string]string{}}
		return nil
	}
	t := offerings[f.Offering]
	if t == nil {
		p.Logger().Debug("event of an offering not in progress", "type", r.Type, "position", r.Position, "offering", f.Offering)
		return nil
	}
	switch f.Kind {
	case Entered:
		t.Entries[f.No] = strings.TrimPrefix(r.Stream, "account-")
	case Triggered:
		if t.ResultAt.IsZero() {
			t.ResultAt = f.ResultAt
		}
	case Resulted:
		t.Resulted, t.Won = true, map[string]bool{}
		for _, no := range f.Won {
			t.Won[no] = true
		}
	case Done:
		if t.Done == nil {
			t.Done = map[string]map[string]bool{}
		}
		if t.Done[f.Step] == nil {
			t.Done[f.Step] = map[string]bool{}
		}
		t.Done[f.Step][f.No] = true
		if f.Paid {
			if t.Paid == nil {
				t.Paid = map[string]bool{}
			}
			t.Paid[f.No] = true
		}
	}
	return nil
}

// checkpoint is the fold, as the checkpoint keeps it. Form tells it from the forms before it
// (which restored refuses with process.ErrRefold: the log is folded again).
type checkpoint struct {
	Form      int                 `json:"form"`
	Offerings map[string]*tracked `json:"offerings"`
}

// checkpointForm is the form of checkpoint this code writes.
const checkpointForm = 2

func emptyCheckpoint() checkpoint {
	return checkpoint{Form: checkpointForm, Offerings: map[string]*tracked{}}
}

func restored(cp *checkpoint) error {
	if cp.Form != checkpointForm {
		return process.ErrRefold
	}
	process.EnsureMap(&cp.Offerings)
	for _, t := range cp.Offerings {
		process.EnsureMap(&t.Entries)
	}
	return nil
}

// Offerings is the number of offerings in progress the fold holds.
func (p *Process) Offerings() int {
	n := len(p.Lock().Offerings)
	p.Unlock()
	return n
}

// job is one command due.
type job struct {
	step  *EntryStep // nil: the result
	entry Entry
	id    string  // command id
	all   []Entry // the result's entries
}

// finished tells whether every entry of a resulted offering has had every step that concerns it.
func (p *Process) finished(t *tracked) bool {
	if !t.Resulted {
		return false
	}
	for no := range t.Entries {
		pr := t.progress(no)
		for _, s := range p.spec.Steps {
			if !pr.Done(s.Name) && (s.Concerns == nil || s.Concerns(pr)) {
				return false
			}
		}
	}
	return true
}

// due lists the commands due at now, and forgets the offerings that are finished.
func (p *Process) due(now time.Time) []job {
	offerings := p.Lock().Offerings
	defer p.Unlock()
	var out []job
	for _, id := range slices.Sorted(maps.Keys(offerings)) {
		t := offerings[id]
		if p.finished(t) {
			delete(offerings, id)
			continue
		}
		nos := slices.Sorted(maps.Keys(t.Entries))
		if !t.Resulted {
			if !t.ResultAt.IsZero() && !now.Before(t.ResultAt) {
				all := make([]Entry, 0, len(nos))
				for _, no := range nos {
					all = append(all, Entry{Offering: id, No: no, MemberID: t.Entries[no]})
				}
				out = append(out, job{entry: Entry{Offering: id}, all: all,
					id: process.TimerCommandID(p.spec.Name, id+"/"+p.spec.ResultStep, t.ResultAt)})
			}
			continue
		}
		for i := range p.spec.Steps {
			s := &p.spec.Steps[i]
			at := t.at(s.Name)
			if now.Before(at) {
				break
			}
			for _, no := range nos {
				pr := t.progress(no)
				if pr.Done(s.Name) || s.Concerns != nil && !s.Concerns(pr) {
					continue
				}
				out = append(out, job{step: s, entry: Entry{Offering: id, No: no, MemberID: t.Entries[no]},
					id: process.TimerCommandID(p.spec.Name, id+"/"+s.Name+"/"+no, at)})
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
		caught = p.Position() >= head
	}
	for _, j := range p.due(p.now()) {
		meta := commands.Meta{CommandID: j.id, Actor: "system"}
		var err error
		step := p.spec.ResultStep
		if j.step == nil {
			if !caught {
				continue
			}
			_, err = p.spec.Result(ctx, meta, j.entry.Offering, j.all)
		} else {
			step = j.step.Name
			_, err = j.step.Run(ctx, meta, j.entry)
		}
		if err != nil && ctx.Err() != nil {
			return ctx.Err()
		}
		if err != nil {
			p.Logger().WarnContext(ctx, "offering step failed; it runs again", "offering", j.entry.Offering, "step", step, "entry", j.entry.No, "err", err)
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// Step runs one of the process's commands on an entry's account stream: decide sees the account,
// the offering's facts (facts reads them from the offering's stream, for each attempt) and the
// command's time.
func Step[F any](ctx context.Context, k *commands.Service, meta commands.Meta, name string, e Entry,
	facts func(ctx context.Context, offeringID string) (F, error),
	decide func(a *commands.Account, f F, now time.Time) ([]events.Payload, error)) (commands.Result, error) {
	c, err := k.Begin(meta, name)
	if err != nil {
		return commands.Result{}, err
	}
	if !commands.ValidMemberID(e.MemberID) || !ValidID(e.Offering) {
		return commands.Result{}, commands.NotFound(KeyNotFound)
	}
	rec, err := commands.Execute(ctx, k, c, events.AccountStream(e.MemberID), func(a *commands.Account) ([]events.Payload, error) {
		f, err := facts(ctx, e.Offering)
		if err != nil {
			return nil, err
		}
		return decide(a, f, c.Now)
	})
	if err != nil {
		return commands.Result{}, err
	}
	return commands.Result{Position: rec.Position}, nil
}

// Register registers the offering process of a capability (process.Register): every stack runs
// it over its own kernel, with the commands spec builds there. One line in the capability's init.
func Register(name string, spec func(k *commands.Service) Spec) {
	process.Register(name, func(d process.Deps) process.Runner {
		return New(Config{Spec: spec(d.Commands), Store: d.Store, Feed: d.Feed, Clock: d.Clock, Logger: d.Logger, Registerer: d.Registerer})
	})
}
