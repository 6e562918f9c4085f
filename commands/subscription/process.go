package subscription

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
	"github.com/lotbook/lotbook/commands/rules/ipo"
	"github.com/lotbook/lotbook/events"
)

// ProcessName names the calendar's checkpoint, metrics and command ids.
const ProcessName = "subscription-calendar"

// Calendar is the process manager that runs every issue's dated steps: it folds the issues, their
// applications and what each step did, and once a second sends the steps that are due. Each
// command's id is derived from the issue, the step, the application and the step's published time
// (process.TimerCommandID), so a restart or a second instance applies each once; the commands
// decide on the streams' own state and check the published time themselves.
type Calendar struct {
	cmd   *Commands
	store events.Store
	now   func() time.Time
	log   *slog.Logger
	rt    *process.Runtime

	mu     sync.Mutex
	issues map[string]*tracked
	closed map[string]bool // issues whose every application has had its last step: forgotten
}

// tracked is an issue as the calendar folds it; exported fields are the checkpoint's.
type tracked struct {
	Cal      ipo.Calendar        `json:"cal"`
	Apps     map[string]string   `json:"apps"` // application number -> member id
	Drawn    bool                `json:"drawn,omitempty"`
	Winners  map[string]bool     `json:"winners,omitempty"`
	Done     map[string][]string `json:"done,omitempty"` // step -> applications it is done for (the checkpoint's form of finished)
	finished map[string]map[string]bool
}

func (t *tracked) done(step, no string) bool { return t.finished[step][no] }

func (t *tracked) markDone(step, no string) {
	if t.finished == nil {
		t.finished = map[string]map[string]bool{}
	}
	if t.finished[step] == nil {
		t.finished[step] = map[string]bool{}
	}
	t.finished[step][no] = true
}

// CalendarConfig wires a Calendar.
type CalendarConfig struct {
	Commands   *Commands
	Store      events.Store
	Clock      func() time.Time // time.Now when nil
	Logger     *slog.Logger
	Registerer prometheus.Registerer
}

// NewCalendar prepares the calendar; Run runs it.
func NewCalendar(cfg CalendarConfig) *Calendar {
	if cfg.Clock == nil {
		cfg.Clock = time.Now
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	c := &Calendar{cmd: cfg.Commands, store: cfg.Store, now: cfg.Clock, log: cfg.Logger.With("process", ProcessName),
		issues: map[string]*tracked{}, closed: map[string]bool{}}
	c.rt = process.New(process.Config{Name: ProcessName, Store: cfg.Store, Manager: c, Clock: process.SystemClock(cfg.Clock),
		Logger: cfg.Logger, Registerer: cfg.Registerer,
		Timers: []process.Timer{{Name: "steps", Next: process.Every(time.Second),
			Fire: func(ctx context.Context, _ time.Time, _ string) error { return c.RunDue(ctx) }}}})
	return c
}

// Run folds the log and runs the due steps until ctx ends.
func (c *Calendar) Run(ctx context.Context) error {
	if err := c.rt.Run(ctx); err != nil {
		return fmt.Errorf("subscription calendar: %w", err)
	}
	return nil
}

// WaitReady waits until the log at start is folded.
func (c *Calendar) WaitReady(ctx context.Context) error { return c.rt.WaitReady(ctx) }

// Wants implements process.Manager.
func (c *Calendar) Wants(typ string) bool { return strings.HasPrefix(typ, "Subscription") }

// Handle implements process.Manager.
func (c *Calendar) Handle(_ context.Context, r events.RecordedEvent, p events.Payload) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	issueOf := func(id string) (*tracked, error) {
		t := c.issues[id]
		if t == nil {
			return nil, fmt.Errorf("event %s at %d: issue %s not listed", r.Type, r.Position, id)
		}
		return t, nil
	}
	switch e := p.(type) {
	case events.SubscriptionIssueListed:
		c.issues[e.IssueID] = &tracked{Cal: ipo.Calendar{OpensAt: e.OpensAt, ClosesAt: e.ClosesAt, DrawDate: e.DrawDate,
			DeductionDate: e.DeductionDate, RefundDate: e.RefundDate, ListingDate: e.ListingDate}, Apps: map[string]string{}}
	case events.SubscriptionSeedCommitted:
	case events.SubscriptionDrawn:
		t, err := issueOf(e.IssueID)
		if err != nil {
			return err
		}
		t.Drawn, t.Winners = true, map[string]bool{}
		for _, w := range e.Winners {
			t.Winners[w] = true
		}
	case events.SubscriptionApplied:
		t, err := issueOf(e.IssueID)
		if err != nil {
			return err
		}
		t.Apps[e.ApplicationNo] = strings.TrimPrefix(r.Stream, "account-")
	case events.SubscriptionPaid:
		return c.stepDone(e.IssueID, ipo.StepDeduct, e.ApplicationNo)
	case events.SubscriptionUnpaid:
		return c.stepDone(e.IssueID, ipo.StepDeduct, e.ApplicationNo)
	case events.SubscriptionRefunded:
		return c.stepDone(e.IssueID, ipo.StepRefund, e.ApplicationNo)
	case events.SubscriptionAllotted:
		return c.stepDone(e.IssueID, ipo.StepAllot, e.ApplicationNo)
	default:
		return fmt.Errorf("event %s at %d is not one the calendar folds", r.Type, r.Position)
	}
	return nil
}

// stepDone records that a step's event for an application is in the log. Called with mu.
func (c *Calendar) stepDone(issueID, step, no string) error {
	if c.closed[issueID] {
		return nil // a restart from an older checkpoint folds the issue's last events again
	}
	t := c.issues[issueID]
	if t == nil {
		return fmt.Errorf("step %s of %s: issue %s not listed", step, no, issueID)
	}
	t.markDone(step, no)
	return nil
}

// checkpoint is the fold as the checkpoint keeps it.
type checkpoint struct {
	Issues map[string]*tracked `json:"issues"`
	Closed []string            `json:"closed,omitempty"`
}

// Snapshot implements process.Manager.
func (c *Calendar) Snapshot() ([]byte, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, t := range c.issues {
		t.Done = map[string][]string{}
		for step, nos := range t.finished {
			t.Done[step] = slices.Sorted(maps.Keys(nos))
		}
	}
	return json.Marshal(checkpoint{Issues: c.issues, Closed: slices.Sorted(maps.Keys(c.closed))})
}

// Restore implements process.Manager.
func (c *Calendar) Restore(state []byte) error {
	cp := checkpoint{Issues: map[string]*tracked{}}
	if len(state) > 0 {
		if err := json.Unmarshal(state, &cp); err != nil {
			return fmt.Errorf("subscription calendar state: %w", err)
		}
	}
	for _, t := range cp.Issues {
		for step, nos := range t.Done {
			for _, no := range nos {
				t.markDone(step, no)
			}
		}
	}
	closed := map[string]bool{}
	for _, id := range cp.Closed {
		closed[id] = true
	}
	c.mu.Lock()
	c.issues, c.closed = cp.Issues, closed
	c.mu.Unlock()
	return nil
}

// settled tells whether every application of a drawn issue has had its last step: a refund
// (losers and waived winners) or the allotment (paid winners). Nothing more can happen to it.
func (t *tracked) settled() bool {
	if !t.Drawn {
		return false
	}
	for no := range t.Apps {
		if !t.done(ipo.StepRefund, no) && !t.done(ipo.StepAllot, no) {
			return false
		}
	}
	return true
}

// job is one command a due step sends.
type job struct {
	issueID, step, no, member string
	id                        string   // command id
	apps                      []string // the draw's applications
}

// due lists the commands due at now, and forgets the issues that are settled. A step runs for an
// application once the draw is done and what it depends on is folded: the refund of a winner only
// once its deduction is recorded.
func (c *Calendar) due(now time.Time) []job {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []job
	for _, id := range slices.Sorted(maps.Keys(c.issues)) {
		t := c.issues[id]
		if t.settled() {
			// Forgotten, so that the fold (and the checkpoint) holds only issues in progress.
			delete(c.issues, id)
			c.closed[id] = true
			continue
		}
		if !t.Drawn {
			if at := t.Cal.At(ipo.StepDraw); !now.Before(at) {
				out = append(out, job{issueID: id, step: ipo.StepDraw, id: process.TimerCommandID(ProcessName, id+"/draw", at),
					apps: slices.Sorted(maps.Keys(t.Apps))})
			}
			continue
		}
		for _, step := range ipo.Steps[1:] {
			at := t.Cal.At(step)
			if now.Before(at) {
				break
			}
			for _, no := range slices.Sorted(maps.Keys(t.Apps)) {
				if t.done(step, no) || !t.concerns(step, no) {
					continue
				}
				out = append(out, job{issueID: id, step: step, no: no, member: t.Apps[no],
					id: process.TimerCommandID(ProcessName, id+"/"+step+"/"+no, at)})
			}
		}
	}
	return out
}

// concerns tells whether step has anything to do for application no, as far as the fold knows.
func (t *tracked) concerns(step, no string) bool {
	won := t.Winners[no]
	switch step {
	case ipo.StepDeduct:
		return won
	case ipo.StepRefund:
		// A winner is refunded (waived) only when its deduction is recorded; the command tells
		// paid from unpaid, the fold only knows it was deducted.
		return !won || t.done(ipo.StepDeduct, no)
	case ipo.StepAllot:
		return won && t.done(ipo.StepDeduct, no) && !t.done(ipo.StepRefund, no)
	}
	return false
}

// RunDue sends every step due now. The draw waits until the fold has caught up with the log, so
// that every application is in it. Failures are retried on the next occurrence (every second).
func (c *Calendar) RunDue(ctx context.Context) error {
	var errs []error
	caught := false
	if head, err := c.store.Head(ctx); err != nil {
		errs = append(errs, err)
	} else {
		caught = c.rt.Position() >= head
	}
	for _, j := range c.due(c.now()) {
		meta := commands.Meta{CommandID: j.id, Actor: "system"}
		var err error
		switch j.step {
		case ipo.StepDraw:
			if !caught {
				continue
			}
			_, err = c.cmd.Draw(ctx, meta, j.issueID, j.apps)
		default:
			_, err = c.cmd.RunStep(ctx, meta, Step{MemberID: j.member, IssueID: j.issueID, ApplicationNo: j.no, Step: j.step})
		}
		if err != nil && ctx.Err() != nil {
			return ctx.Err()
		}
		if err != nil {
			c.log.WarnContext(ctx, "subscription step failed; it runs again", "issue", j.issueID, "step", j.step, "application", j.no, "err", err)
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
