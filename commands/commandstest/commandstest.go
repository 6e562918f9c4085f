// Package commandstest is the write side's test bed: a kernel over a fresh SQLite store with a
// settable clock, the platform's members, and the checks every event of the log must pass. The
// kernel's and every capability's tests use it; only tests import it.
package commandstest

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/commands/process"
	"github.com/lotbook/lotbook/commands/rules/secret"
	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/events/sqlite/sqlitetest"
)

// T0 is the tests' start time: Monday 11:00 in Taipei.
var T0 = time.Date(2026, 11, 23, 3, 0, 0, 0, time.UTC)

// Clock is a settable test clock.
type Clock struct {
	mu sync.Mutex
	t  time.Time
}

// Now is the clock's time.
func (c *Clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }

// Set puts the clock at t.
func (c *Clock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = t
}

// Add moves the clock on.
func (c *Clock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// Fixture is a kernel (Svc) over a fresh store, at T0 on Clock.
type Fixture struct {
	T     testing.TB
	Ctx   context.Context
	Store events.Store
	Clock *Clock
	Svc   *commands.Service
}

// New is a fixture over a fresh SQLite store; opts adjust the kernel's options.
func New(t testing.TB, opts ...func(*commands.Options)) *Fixture {
	t.Helper()
	return Over(t, sqlitetest.Open(t), opts...)
}

// Over is a fixture over store.
func Over(t testing.TB, store events.Store, opts ...func(*commands.Options)) *Fixture {
	f := &Fixture{T: t, Ctx: context.Background(), Store: store, Clock: &Clock{t: T0}}
	f.Svc = f.Service(opts...)
	return f
}

// WithSealer gives the kernel the development key for personal numbers.
func WithSealer(o *commands.Options) {
	s, err := secret.NewSealer(secret.DevKey())
	if err != nil {
		panic(err)
	}
	o.Sealer = s
}

// Service is another kernel over the same store (own cache), as a second API process would be.
func (f *Fixture) Service(opts ...func(*commands.Options)) *commands.Service {
	o := commands.Options{Clock: f.Clock.Now, PasswordCost: secret.TestCost, SessionTTL: 24 * time.Hour}
	for _, fn := range opts {
		fn(&o)
	}
	return commands.New(f.Store, o)
}

// Meta is a fresh command of actor.
func Meta(actor string) commands.Meta {
	return commands.Meta{CommandID: uuid.NewString(), Actor: actor}
}

// Must fails the test on err.
func (f *Fixture) Must(err error) {
	f.T.Helper()
	if err != nil {
		f.T.Fatal(err)
	}
}

// SeedMembers is the demo's platform: the root invite code LOTBOOK, the ops user "ops" and the
// auditor "audit".
func (f *Fixture) SeedMembers() {
	f.T.Helper()
	_, err := f.Svc.IssueRootInviteCode(f.Ctx, Meta("system"), "LOTBOOK")
	f.Must(err)
	_, err = f.Svc.AddStaff(f.Ctx, Meta("system"), commands.AddStaff{Account: "ops", Role: events.RoleOps, Password: "opsdemo1"})
	f.Must(err)
	_, err = f.Svc.AddStaff(f.Ctx, Meta("system"), commands.AddStaff{Account: "audit", Role: events.RoleAuditor, Password: "auditdemo1"})
	f.Must(err)
}

// Register registers a member with password demo1234 and the invite code.
func (f *Fixture) Register(account, code string) commands.Session {
	f.T.Helper()
	s, err := f.Svc.Register(f.Ctx, Meta("member:"+account), commands.RegisterInput{Account: account, Password: "demo1234", ConfirmPassword: "demo1234", InviteCode: code})
	f.Must(err)
	return s
}

// Upload records a fresh upload of the member's and returns its file id.
func (f *Fixture) Upload(memberID string) string {
	f.T.Helper()
	id := secret.SHA256Hex(uuid.NewString())
	_, err := f.Svc.RecordUpload(f.Ctx, Meta("member"), memberID, events.FileUploaded{FileID: id, ContentType: "image/png", Size: 100, Width: 10, Height: 10})
	f.Must(err)
	return id
}

// All is the whole log.
func (f *Fixture) All() []events.RecordedEvent {
	f.T.Helper()
	var out []events.RecordedEvent
	for {
		page, err := f.Store.ReadAll(f.Ctx, int64(len(out)), 1000)
		f.Must(err)
		if len(page) == 0 {
			return out
		}
		out = append(out, page...)
	}
}

// CheckLog asserts what every event must satisfy: metadata complete and consistent, event ids
// derived from the command id, postings balanced on every money event. It returns the log.
func (f *Fixture) CheckLog() []events.RecordedEvent {
	f.T.Helper()
	all := f.All()
	perCommand := map[string]int{}
	for _, r := range all {
		md := r.Metadata
		if md.CommandID == "" || md.Actor == "" || md.CausationID != md.CommandID || md.CorrelationID == "" || md.ServerTime.IsZero() || md.ServerTime.Location() != time.UTC {
			f.T.Errorf("event %s/%d metadata %+v", r.Stream, r.Version, md)
		}
		key := md.CommandID + "\x00" + r.Stream
		if want := events.EventID(md.CommandID, r.Stream, perCommand[key]); r.ID != want {
			f.T.Errorf("event %s/%d id %s, want %s", r.Stream, r.Version, r.ID, want)
		}
		perCommand[key]++
		p, err := events.DecodeRecorded(r)
		f.Must(err)
		if m, ok := p.(events.MovesMoney); ok {
			if err := events.CheckBalanced(m.MoneyPostings()); err != nil {
				f.T.Errorf("event %s/%d: %v", r.Stream, r.Version, err)
			}
		}
	}
	return all
}

// Count is how many events of type typ (any version) all holds.
func Count(all []events.RecordedEvent, typ string) int {
	n := 0
	for _, r := range all {
		if strings.HasPrefix(r.Type, typ+".v") {
			n++
		}
	}
	return n
}

// Build applies payloads to st as if recorded at the given times (all at T0 when at is nil).
func Build[S commands.State](st S, at []time.Time, ps ...events.Payload) S {
	for i, p := range ps {
		when := T0
		if at != nil {
			when = at[i]
		}
		st.Apply(events.RecordedEvent{Version: int64(i + 1), Metadata: events.Metadata{ServerTime: when}}, p)
	}
	return st
}

// Registered is member m1 (account 0912345678, password hash "h:demo1234") after extra.
func Registered(extra ...events.Payload) *commands.Member {
	ps := append([]events.Payload{events.MemberRegistered{MemberID: "m1", Account: "0912345678", Role: events.RoleMember, PasswordHash: "h:demo1234"}}, extra...)
	return Build(commands.NewMember("m1"), nil, ps...)
}

// WantKey checks that err is an *Error with key (or nil when key is "").
func WantKey(t testing.TB, err error, key string) {
	t.Helper()
	if key == "" {
		if err != nil {
			t.Fatalf("unexpected error %v", err)
		}
		return
	}
	e, ok := commands.AsError(err)
	if !ok {
		t.Fatalf("error %v, want key %s", err, key)
	}
	if e.Key != key {
		t.Fatalf("key %s, want %s", e.Key, key)
	}
}

// Checkpoints checks a process manager's checkpoint states: each of saved, in the form the
// manager writes, restores and is saved again byte for byte (so a checkpoint written before a
// change of the manager's code still restores); each of older is refused with process.ErrRefold
// (the runtime then folds the log again from its start).
func Checkpoints(t *testing.T, m process.Manager, saved []string, older ...string) {
	t.Helper()
	for _, state := range saved {
		if err := m.Restore([]byte(state)); err != nil {
			t.Fatalf("restore %s: %v", state, err)
		}
		if got, err := m.Snapshot(); err != nil || string(got) != state {
			t.Fatalf("restored %s, saved %s (%v)", state, got, err)
		}
	}
	for _, state := range older {
		if err := m.Restore([]byte(state)); !errors.Is(err, process.ErrRefold) {
			t.Fatalf("restore of the older form %s: %v, want process.ErrRefold", state, err)
		}
	}
}
