package process_test

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"

	"github.com/lotbook/lotbook/commands/process"
	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/events/sqlite"
	"github.com/lotbook/lotbook/events/sqlite/sqlitetest"
)

func openStore(t *testing.T) *sqlite.Store { return sqlitetest.Open(t) }

func add(t *testing.T, st events.Store, symbols ...string) {
	t.Helper()
	for _, s := range symbols {
		typ, data, err := events.Encode(events.FavoriteAdded{Symbol: s})
		if err != nil {
			t.Fatal(err)
		}
		appendRaw(t, st, "account-m1", typ, data)
	}
}

func appendRaw(t *testing.T, st events.Store, stream, typ string, data []byte) {
	t.Helper()
	ev := events.EventData{ID: events.EventID(typ+string(data)+time.Now().String(), stream, 0), Type: typ, Data: data,
		Metadata: events.Metadata{CommandID: "test", Actor: "system", ServerTime: time.Now()}}
	if _, err := st.Append(context.Background(), stream, events.AnyVersion, []events.EventData{ev}); err != nil {
		t.Fatal(err)
	}
}

// favorites is a manager that folds the symbols added, remembering where it handled them; react,
// when set, runs for each one.
type favorites struct {
	mu       sync.Mutex
	Symbols  []string `json:"symbols"`
	handled  []int64  // positions handled by this instance
	failures int      // Handle fails this many times first
	react    func(ctx context.Context, ev events.RecordedEvent) error
}

func (f *favorites) Wants(typ string) bool { return typ == "FavoriteAdded.v1" }

func (f *favorites) Handle(ctx context.Context, ev events.RecordedEvent, p events.Payload) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.failures > 0 {
		f.failures--
		return errors.New("not now")
	}
	if f.react != nil {
		if err := f.react(ctx, ev); err != nil {
			return err
		}
	}
	f.Symbols = append(f.Symbols, p.(events.FavoriteAdded).Symbol)
	f.handled = append(f.handled, ev.Position)
	return nil
}

func (f *favorites) Snapshot() ([]byte, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return json.Marshal(f)
}

func (f *favorites) Restore(state []byte) error {
	if len(state) == 0 {
		return nil
	}
	return json.Unmarshal(state, f)
}

func (f *favorites) seen() ([]string, []int64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.Symbols), slices.Clone(f.handled)
}

// running is a runtime started in the background; stop ends it and waits for its last save.
type running struct {
	rt   *process.Runtime
	stop func()
}

func start(t *testing.T, cfg process.Config) running {
	t.Helper()
	if cfg.Name == "" {
		cfg.Name = "favorites"
	}
	rt := process.New(cfg)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- rt.Run(ctx) }()
	var once sync.Once
	stop := func() {
		once.Do(func() {
			cancel()
			if err := <-done; err != nil {
				t.Error(err)
			}
		})
	}
	t.Cleanup(stop)
	return running{rt: rt, stop: stop}
}

func eventually(t *testing.T, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting: %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestRestartResumesFromTheCheckpointWithoutHandlingAgain(t *testing.T) {
	st := openStore(t)
	add(t, st, "2330", "2603", "0050")
	first := &favorites{}
	r := start(t, process.Config{Store: st, Manager: first})
	if err := r.rt.WaitReady(context.Background()); err != nil {
		t.Fatal(err)
	}
	eventually(t, "three handled", func() bool { return r.rt.Position() == 3 })
	r.stop()

	add(t, st, "2317", "00679B")
	second := &favorites{}
	r = start(t, process.Config{Store: st, Manager: second})
	eventually(t, "five handled", func() bool { return r.rt.Position() == 5 })
	symbols, handled := second.seen()
	if want := []int64{4, 5}; !slices.Equal(handled, want) {
		t.Fatalf("the restarted process handled positions %v, want only %v", handled, want)
	}
	if want := []string{"2330", "2603", "0050", "2317", "00679B"}; !slices.Equal(symbols, want) {
		t.Fatalf("state after restart = %v, want %v", symbols, want)
	}
}

func TestStallsOnAnUndecodableEventAndLagGrows(t *testing.T) {
	st := openStore(t)
	add(t, st, "2330")
	appendRaw(t, st, "account-m1", "FavoriteAdded.v1", []byte("{not json"))
	add(t, st, "2603")
	reg := prometheus.NewRegistry()
	f := &favorites{}
	r := start(t, process.Config{Store: st, Manager: f, Registerer: reg})
	eventually(t, "stalled", func() bool { return gauge(t, reg, "lotbook_process_stalled") == 1 })
	if lag := gauge(t, reg, "lotbook_process_lag_events"); lag != 2 {
		t.Fatalf("lag = %v events, want 2 (the bad event and the one after it)", lag)
	}
	add(t, st, "0050", "2317")
	time.Sleep(200 * time.Millisecond)
	if lag := gauge(t, reg, "lotbook_process_lag_events"); lag != 4 {
		t.Fatalf("lag = %v events after two more, want 4", lag)
	}
	if pos := r.rt.Position(); pos != 1 {
		t.Fatalf("position = %d, want 1: the process must not skip the bad event", pos)
	}
	if symbols, _ := f.seen(); !slices.Equal(symbols, []string{"2330"}) {
		t.Fatalf("handled %v past the bad event", symbols)
	}
	if n := counter(t, reg, "lotbook_process_failures_total"); n < 1 {
		t.Fatalf("failures = %v", n)
	}
}

func TestAFailingEventIsRetriedInOrderUntilHandled(t *testing.T) {
	st := openStore(t)
	add(t, st, "2330", "2603")
	reg := prometheus.NewRegistry()
	f := &favorites{failures: 3}
	r := start(t, process.Config{Store: st, Manager: f, Registerer: reg})
	eventually(t, "handled", func() bool { return r.rt.Position() == 2 })
	if symbols, _ := f.seen(); !slices.Equal(symbols, []string{"2330", "2603"}) {
		t.Fatalf("handled %v", symbols)
	}
	if n := counter(t, reg, "lotbook_process_failures_total"); n != 3 {
		t.Fatalf("failures = %v, want 3", n)
	}
	if g := gauge(t, reg, "lotbook_process_stalled"); g != 0 {
		t.Fatalf("stalled = %v after recovery", g)
	}
}

// noCheckpoints hides the backend's checkpoints: every start reads the log from position 0, as
// after a crash before the first save.
type noCheckpoints struct{ events.Store }

func TestARedeliveredEventAppliesOnce(t *testing.T) {
	st := openStore(t)
	add(t, st, "2330", "2603")
	react := func(ctx context.Context, ev events.RecordedEvent) error {
		// The reaction is a command: its events' ids derive from the command id, as commands do.
		id := process.EventCommandID("favorites", ev, 0)
		typ, data, err := events.Encode(events.FavoriteRemoved{Symbol: "9999"})
		if err != nil {
			return err
		}
		_, err = st.Append(ctx, "reactions", events.AnyVersion, []events.EventData{{ID: events.EventID(id, "reactions", 0),
			Type: typ, Data: data, Metadata: events.Metadata{CommandID: id, Actor: "system", ServerTime: time.Now()}}})
		return err
	}
	for range 2 {
		f := &favorites{react: react}
		r := start(t, process.Config{Store: noCheckpoints{st}, Manager: f})
		eventually(t, "both handled", func() bool { _, h := f.seen(); return len(h) == 2 })
		r.stop()
	}
	got, err := st.ReadStream(context.Background(), "reactions", 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 {
		t.Fatalf("%d reactions to two events handled twice each, want 2", len(got))
	}
}

type fired struct {
	name, id string
	at       time.Time
}

func TestTimersFireAtTheInjectedClockAndCatchUpAfterARestart(t *testing.T) {
	taipei, err := time.LoadLocation("Asia/Taipei")
	if err != nil {
		t.Fatal(err)
	}
	at := func(day, hour, minute int) time.Time { return time.Date(2026, 11, day, hour, minute, 0, 0, taipei) }
	clock := process.NewManualClock(at(24, 8, 59))
	got := make(chan fired, 10)
	timers := []process.Timer{
		{Name: "open", Next: process.Daily(9, 0, taipei)},
		{Name: "close", Next: process.Daily(13, 30, taipei)},
		{Name: "end-of-day", Next: process.Daily(0, 0, taipei)},
	}
	for i := range timers {
		name := timers[i].Name
		timers[i].Fire = func(_ context.Context, at time.Time, id string) error {
			got <- fired{name: name, id: id, at: at}
			return nil
		}
	}
	st := openStore(t)
	expect := func(name string, when time.Time) {
		t.Helper()
		select {
		case f := <-got:
			if f.name != name || !f.at.Equal(when) || f.id != process.TimerCommandID("market", name, when) {
				t.Fatalf("fired %+v, want %s at %v", f, name, when)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%s did not fire at %v", name, when)
		}
	}
	quiet := func() {
		t.Helper()
		select {
		case f := <-got:
			t.Fatalf("unexpected %+v", f)
		case <-time.After(100 * time.Millisecond):
		}
	}
	r := start(t, process.Config{Name: "market", Store: st, Manager: &favorites{}, Clock: clock, Timers: timers})
	if err := r.rt.WaitReady(context.Background()); err != nil {
		t.Fatal(err)
	}
	quiet()
	clock.Set(at(24, 9, 0))
	expect("open", at(24, 9, 0))
	clock.Set(at(24, 13, 29))
	quiet()
	clock.Set(at(24, 13, 30))
	expect("close", at(24, 13, 30))
	clock.Set(at(25, 0, 0))
	expect("end-of-day", at(25, 0, 0))
	r.stop()

	// Down over the next open: it fires once at start, as the occurrence it missed.
	clock.Set(at(25, 10, 15))
	start(t, process.Config{Name: "market", Store: st, Manager: &favorites{}, Clock: clock, Timers: timers})
	expect("open", at(25, 9, 0))
	quiet()
}

func metric(t *testing.T, reg *prometheus.Registry, name string) *dto.Metric {
	t.Helper()
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		if mf.GetName() == name && len(mf.GetMetric()) == 1 {
			return mf.GetMetric()[0]
		}
	}
	t.Fatalf("metric %s not gathered", name)
	return nil
}

func gauge(t *testing.T, reg *prometheus.Registry, name string) float64 {
	return metric(t, reg, name).GetGauge().GetValue()
}

func counter(t *testing.T, reg *prometheus.Registry, name string) float64 {
	return metric(t, reg, name).GetCounter().GetValue()
}

// newForm is favorites whose checkpoint form changed: it refuses any state saved before.
type newForm struct{ favorites }

func (f *newForm) Restore(state []byte) error {
	if len(state) > 0 {
		return process.ErrRefold
	}
	return nil
}

func TestACheckpointOfAnOlderFormIsFoldedAgainFromTheStart(t *testing.T) {
	st := openStore(t)
	add(t, st, "2330", "2603")
	r := start(t, process.Config{Store: st, Manager: &favorites{}})
	eventually(t, "two handled", func() bool { return r.rt.Position() == 2 })
	r.stop()

	add(t, st, "0050")
	again := &newForm{}
	r = start(t, process.Config{Store: st, Manager: again})
	eventually(t, "three handled", func() bool { return r.rt.Position() == 3 })
	symbols, handled := again.seen()
	if want := []string{"2330", "2603", "0050"}; !slices.Equal(symbols, want) || !slices.Equal(handled, []int64{1, 2, 3}) {
		t.Fatalf("refolded %v at %v, want %v from position 1", symbols, handled, want)
	}
}

func TestRegisteredProcessesAreListedByNameOnce(t *testing.T) {
	build := func(process.Deps) process.Runner { return nil }
	process.Register("test-zz", build)
	process.Register("test-aa", build)
	var names []string
	for _, r := range process.Registered() {
		names = append(names, r.Name)
	}
	if !slices.IsSorted(names) || !slices.Contains(names, "test-aa") || !slices.Contains(names, "test-zz") {
		t.Fatalf("registered %v", names)
	}
	defer func() {
		if recover() == nil {
			t.Fatal("a name registered twice did not panic")
		}
	}()
	process.Register("test-aa", build)
}
