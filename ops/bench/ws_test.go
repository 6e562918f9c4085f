package main

import (
	"reflect"
	"testing"

	"github.com/lotbook/lotbook/ops/internal/wsresult"
)

func TestWSRows(t *testing.T) {
	r := wsresult.Result{Connected: 10000, Symbols: make([]string, 50), Channels: []string{"quote"}, MessagesPerSec: 61234.4,
		DelayP50ms: 3.24, DelayP99ms: 41.06, KBPerConn: 36.44, IdleCPUPct: 7.25, ServerCPUPct: 98.6, ClientCPUPct: 71.2, LoadAvg: 3.02}
	want := []row{
		{"WebSocket", "10000 clients × 50 symbols (quote): messages/s delivered", "61234", "≥50,000"},
		{"WebSocket", "delivery delay p50 / p99 (ms, from the quote's due time)", "3.2 / 41.1", "p99 ≤50"},
		{"WebSocket", "server memory per connection (KB of Go heap and stacks)", "36.4", "≤30"},
		{"WebSocket", "CPU % of one core: server / wsbench clients", "99 / 71", "2 cores in all"},
		{"WebSocket", "server CPU per delivered message (µs)", "16.10", ""},
		{"WebSocket", "load average (1 min) at the start of the window: other processes share the cores", "3.0", ""},
		{"market", "server CPU % of one core with no client (simulator ticking)", "7.2", "<10"},
	}
	if got := wsRows([]wsresult.Result{r}); !reflect.DeepEqual(got, want) {
		t.Fatalf("got %#v\nwant %#v", got, want)
	}

	// Three runs: each figure is its own median; the worst run's drops are shown.
	slow, fast := r, r
	slow.DelayP99ms, slow.KBPerConn, slow.Dropped = 400, 40, 3
	fast.DelayP99ms, fast.KBPerConn = 20, 20
	got := wsRows([]wsresult.Result{slow, r, fast})
	if len(got) != 8 || got[1].section != "WebSocket (median of 3)" || got[1].value != "3.2 / 41.1" || got[2].value != "36.4" || got[7].value != "3" {
		t.Fatalf("medians: %#v", got)
	}
}
