package api

import (
	"context"
	"errors"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"

	"github.com/lotbook/lotbook/commands/process"
	"github.com/lotbook/lotbook/events"
)

// withoutCheckpoints hides the backend's checkpoints from a process manager: it starts from
// position 0, so every event of the log reaches it a second time.
type withoutCheckpoints struct{ events.Store }

// Duplicate delivery to the process managers, on SQLite and PostgreSQL. A mentor's buy is
// mirrored into a follower's account by the copy-trade manager (commands with ids derived from
// the mentor's events). Then a second instance of every registered manager, built as the stack
// builds them but blind to their checkpoints, handles the whole log again: each command it sends
// again has the id of the first and applies once, so the log does not change and the follower
// still has one order.
func TestProcessManagersRedeliveredApplyOnce(t *testing.T) {
	forEachBackend(t, func(t *testing.T, h *harness) {
		th := newTradeHarness(t, h, "")
		th.mkt.book("2603", "20", "20", lvls("19.9", 50000), lvls("20", 100000))
		mentor, follower, _, fid := copyFollow(t, h, "Ann", "0955300001", "1000000", "0955300002", "300000", "200000")
		if buy := mentor.placed(map[string]any{"symbol": "2603", "direction": "long", "type": "market", "lots": 10}); buy.Filled != 10000 {
			t.Fatalf("mentor's buy %+v", buy)
		}
		h.until("the mirrored buy", func() bool {
			f := follower.follow(fid)
			return len(f.Orders) == 1 && f.Orders[0].Filled == 2000
		})

		h.unchanged(func() {
			reg := prometheus.NewRegistry()
			deps := process.Deps{Commands: h.st.Commands, Market: h.st.Market, Store: withoutCheckpoints{h.st.Store}, Clock: h.clock.Now,
				Logger: testLogger(t), Registerer: reg}
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan error, len(process.Registered()))
			for _, p := range process.Registered() {
				r := p.Build(deps)
				go func() { done <- r.Run(ctx) }()
			}
			head := h.head()
			h.until("every manager handled the log again", func() bool {
				pos, err := processPositions(reg)
				if err != nil {
					t.Fatal(err)
				}
				for _, p := range process.Registered() {
					if pos[p.Name] < head {
						return false
					}
				}
				return true
			})
			cancel()
			for range process.Registered() {
				if err := <-done; err != nil && !errors.Is(err, context.Canceled) {
					t.Fatal(err)
				}
			}
		})
		if f := follower.follow(fid); len(f.Orders) != 1 || f.Orders[0].Filled != 2000 {
			t.Fatalf("follow after the managers handled the log again %+v", f)
		}
	})
}

// processPositions is lotbook_process_position by process.
func processPositions(g prometheus.Gatherer) (map[string]int64, error) {
	mfs, err := g.Gather()
	if err != nil {
		return nil, err
	}
	out := map[string]int64{}
	for _, mf := range mfs {
		if mf.GetName() != "lotbook_process_position" {
			continue
		}
		for _, m := range mf.GetMetric() {
			out[label(m, "process")] = int64(m.GetGauge().GetValue())
		}
	}
	return out, nil
}

func label(m *dto.Metric, name string) string {
	for _, l := range m.GetLabel() {
		if l.GetName() == name {
			return l.GetValue()
		}
	}
	return ""
}
