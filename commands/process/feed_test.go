package process_test

import (
	"context"
	"slices"
	"sync/atomic"
	"testing"

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
	stuck := &favorites{failures: 1 << 30}
	ok, late := &favorites{}, &favorites{}
	rs := map[string]running{
		"ok":     start(t, process.Config{Name: "ok", Store: st, Feed: feed, Manager: ok}),
		"stuck":  start(t, process.Config{Name: "stuck", Store: st, Feed: feed, Manager: stuck, Registerer: reg}),
		"behind": start(t, process.Config{Name: "behind", Store: st, Feed: feed, Manager: late}),
	}
	add(t, st, "2317", "00679B")
	eventually(t, "stuck stalled", func() bool { return gauge(t, reg, "lotbook_process_stalled") == 1 })
	eventually(t, "ok and behind handled all five", func() bool {
		return rs["ok"].rt.Position() == 5 && rs["behind"].rt.Position() == 5
	})
	all := []string{"2330", "2603", "0050", "2317", "00679B"}
	if symbols, _ := ok.seen(); !slices.Equal(symbols, all) {
		t.Fatalf("ok handled %v, want %v", symbols, all)
	}
	if _, handled := late.seen(); !slices.Equal(handled, []int64{3, 4, 5}) {
		t.Fatalf("behind handled positions %v, want 3, 4, 5 (after its checkpoint)", handled)
	}
	if pos := rs["stuck"].rt.Position(); pos != 0 {
		t.Fatalf("stuck at %d: it must not skip the event it fails on", pos)
	}

	stuck.mu.Lock()
	stuck.failures = 0
	stuck.mu.Unlock()
	eventually(t, "stuck recovered", func() bool { return rs["stuck"].rt.Position() == 5 })
	if symbols, _ := stuck.seen(); !slices.Equal(symbols, all) {
		t.Fatalf("stuck handled %v after recovering, want %v once each in order", symbols, all)
	}
	if n := st.n.Load(); n != 2 {
		t.Fatalf("%d store subscriptions, want 2: the first runtime's own and the feed's", n)
	}
}
