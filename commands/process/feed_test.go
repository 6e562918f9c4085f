package process_test

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/lotbook/lotbook/commands/process"
	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/events/sqlite"
)

// subscriptions counts the store subscriptions opened: the reads of the log's tail.
type subscriptions struct {
	*sqlite.Store
	n atomic.Int32
}

func (s *subscriptions) Subscribe(ctx context.Context, after int64, handle func(context.Context, []events.RecordedEvent) error) error {
	s.n.Add(1)
	return s.Store.Subscribe(ctx, after, handle)
}

func TestRuntimesOnAFeedShareOneReaderAndAStalledOneHoldsNobodyBack(t *testing.T) {
	st := &subscriptions{Store: openStore(t)}
	add(t, st, "2330", "2603")
	// "behind" restarts from a checkpoint at 1, before the feed's start.
	behind := start(t, process.Config{Name: "behind", Store: st, Manager: &favorites{}})
	eventually(t, "behind handled two", func() bool { return behind.rt.Position() == 2 })
	behind.stop()
	add(t, st, "0050")

	feed := process.NewFeed(st, nil)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go feed.Run(ctx)
	reg := prometheus.NewRegistry()
	// stuck fails on the first event after the feed started (position 4) until it is let go.
	var blocked atomic.Bool
	blocked.Store(true)
	stuck := &favorites{react: func(_ context.Context, ev events.RecordedEvent) error {
		if ev.Position == 4 && blocked.Load() {
			return errors.New("not now")
		}
		return nil
	}}
	ok, late := &favorites{}, &favorites{}
	rs := map[string]running{
		"ok":     start(t, process.Config{Name: "ok", Store: st, Feed: feed, Manager: ok}),
		"stuck":  start(t, process.Config{Name: "stuck", Store: st, Feed: feed, Manager: stuck, Registerer: reg}),
		"behind": start(t, process.Config{Name: "behind", Store: st, Feed: feed, Manager: late}),
	}
	for name, r := range rs {
		eventually(t, name+" caught up", func() bool { return r.rt.Position() == 3 })
	}
	// More events than the reader buffers ahead of a runtime it waits for: the others get them
	// all only if the reader does not wait for the stalled one.
	all := []string{"2330", "2603", "0050"}
	for range 6 {
		var batch []events.EventData
		for range 1000 {
			sym := strconv.Itoa(len(all))
			all = append(all, sym)
			typ, data, err := events.Encode(events.FavoriteAdded{Symbol: sym})
			if err != nil {
				t.Fatal(err)
			}
			batch = append(batch, events.EventData{ID: events.EventID(sym, "account-m1", 0), Type: typ, Data: data,
				Metadata: events.Metadata{CommandID: "test", Actor: "system", ServerTime: time.Now()}})
		}
		if _, err := st.Append(context.Background(), "account-m1", events.AnyVersion, batch); err != nil {
			t.Fatal(err)
		}
	}
	last := int64(len(all))
	eventually(t, "stuck stalled", func() bool { return gauge(t, reg, "lotbook_process_stalled") == 1 })
	eventually(t, "ok and behind handled all", func() bool {
		return rs["ok"].rt.Position() == last && rs["behind"].rt.Position() == last
	})
	if symbols, _ := ok.seen(); !slices.Equal(symbols, all) {
		t.Fatalf("ok handled %d symbols, want the %d appended in order", len(symbols), len(all))
	}
	if _, handled := late.seen(); len(handled) != len(all)-2 || handled[0] != 3 {
		t.Fatalf("behind handled %d events from position %v, want %d from 3 (after its checkpoint)", len(handled), handled[:1], len(all)-2)
	}
	if pos := rs["stuck"].rt.Position(); pos != 3 {
		t.Fatalf("stuck at %d: it must not skip the event it fails on", pos)
	}

	blocked.Store(false)
	eventually(t, "stuck recovered", func() bool { return rs["stuck"].rt.Position() == last })
	if symbols, _ := stuck.seen(); !slices.Equal(symbols, all) {
		t.Fatalf("stuck handled %d symbols after recovering, want the %d appended, once each in order", len(symbols), len(all))
	}
	if n := st.n.Load(); n != 2 {
		t.Fatalf("%d store subscriptions, want 2: the first runtime's own and the feed's", n)
	}
}
