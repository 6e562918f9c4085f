package main

import (
	"reflect"
	"testing"

	"github.com/lotbook/lotbook/ops/internal/wsresult"
)

func TestWSRows(t *testing.T) {
	r := wsresult.Result{Connected: 10000, Symbols: make([]string, 50), Channels: []string{"quote"}, MessagesPerSec: 61234.4,
		DelayP50ms: 3.24, DelayP99ms: 41.06, KBPerConn: 36.44, IdleCPUPct: 7.25, ServerCPUPct: 98.6, ClientCPUPct: 71.2}
	want := []row{
		{"WebSocket", "10000 clients × 50 symbols (quote): messages/s delivered", "61234", "≥50,000"},
		{"WebSocket", "delivery delay p50 / p99 (ms, from the frame's ts)", "3.2 / 41.1", "p99 ≤50"},
		{"WebSocket", "server memory per connection (KB of Go heap and stacks)", "36.4", ""},
		{"WebSocket", "CPU % of one core: server / wsbench clients", "99 / 71", "2 cores in all"},
		{"market", "server CPU % of one core with no client (simulator ticking)", "7.2", "<10"},
	}
	if got := wsRows(r); !reflect.DeepEqual(got, want) {
		t.Fatalf("got %#v\nwant %#v", got, want)
	}
	r.Dropped = 3
	if got := wsRows(r); len(got) != 6 || got[5].value != "3" {
		t.Fatalf("dropped row: %#v", got)
	}
}
