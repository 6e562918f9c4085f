package main

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
)

func TestAppendRows(t *testing.T) {
	out := []byte(`  backend  writers  events/append  events/s  mean batch (events/txn)       p50       p99  runs
   sqlite        1              1      2178                      1.0     241µs    4.018ms     3
   sqlite       64              1     60000                     63.9   1.025ms    6.92ms     3
 postgres       64              1     58183                     32.3   6.025ms   36.92ms     3
`)
	want := []row{
		{"append sqlite", "1 writers: events/s, mean batch, p50 / p99", "2178, 1.0, 241µs / 4.018ms", ""},
		{"append sqlite", "64 writers: events/s, mean batch, p50 / p99", "60000, 63.9, 1.025ms / 6.92ms", "≥60,000 events/s"},
		{"append sqlite", "64 writers: bound, writers × events/append × 1-writer commits/s", "139392", ""},
		{"append postgres", "64 writers: events/s, mean batch, p50 / p99", "58183, 32.3, 6.025ms / 36.92ms", "≥100,000 events/s"},
	}
	if got := appendRows(out); !reflect.DeepEqual(got, want) {
		t.Fatalf("got %#v\nwant %#v", got, want)
	}
	withCPU := []byte(`   backend  writers  events/append  events/s  mean batch (events/txn)      p50       p99  CPU/event (Go)  CPU/event (server)  runs
    sqlite        1              1      4046                      1.0    174µs   1.791ms         132.6µs                   -     3
`)
	want = []row{{"append sqlite", "1 writers: events/s, mean batch, p50 / p99, CPU/event Go / database",
		"4046, 1.0, 174µs / 1.791ms, 132.6µs / -", ""}}
	if got := appendRows(withCPU); !reflect.DeepEqual(got, want) {
		t.Fatalf("got %#v\nwant %#v", got, want)
	}
}

func TestMedian(t *testing.T) {
	rs := []loadResult{{CommandsPerSec: 3}, {CommandsPerSec: 1}, {CommandsPerSec: 2}}
	if got := median(rs, func(r loadResult) float64 { return r.CommandsPerSec }); got != 2 {
		t.Fatalf("median %v, want 2", got)
	}
}

func TestScriptRowsTakeEachFigureLine(t *testing.T) {
	script := filepath.Join(t.TempDir(), "figures.mjs")
	if err := os.WriteFile(script, []byte("console.log(`lighthouse welcome LCP (mobile, median of 3): ${process.env.FIG} ms`);\nconsole.log('');\nconsole.log('no value');\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	rows, err := scriptRows("cold start", func(fig string) string { return "target of " + fig }, []string{"FIG=1234"}, script)
	if err != nil {
		t.Fatal(err)
	}
	want := []row{
		{"cold start", "lighthouse welcome LCP (mobile, median of 3)", "1234 ms", "target of lighthouse welcome LCP (mobile, median of 3)"},
		{"cold start", "no value", "", "target of no value"},
	}
	if !slices.Equal(rows, want) {
		t.Fatalf("rows = %q, want %q", rows, want)
	}
	if _, err := scriptRows("x", func(string) string { return "" }, nil, filepath.Join(t.TempDir(), "missing.mjs")); err == nil {
		t.Fatal("a script that fails gave no error")
	}
}

func TestGrowthLogRowsSetTheEndsSideBySide(t *testing.T) {
	small := []loadResult{{Head: 138000, Members: 128, RestartSeconds: 0.9, RestartRSSMB: 110, RSSLoadMB: 300, ServerCPUPerCmd: 0.5, CommandsPerSec: 1000},
		{Head: 138000, Members: 128, RestartSeconds: 0.7, RestartRSSMB: 100, RSSLoadMB: 290, ServerCPUPerCmd: 0.4, CommandsPerSec: 1200},
		{Head: 138000, Members: 128, RestartSeconds: 0.8, RestartRSSMB: 120, RSSLoadMB: 280, ServerCPUPerCmd: 0.6, CommandsPerSec: 1100}}
	big := []loadResult{{Head: 2000000, Members: 100000, RestartSeconds: 0.75, RestartRSSMB: 105, RSSLoadMB: 400, ServerCPUPerCmd: 0.7, CommandsPerSec: 900}}
	rows := growthLogRows(small, big)
	ends := "138000-event log, 128 members / 2000000-event log, 100000 members"
	want := []row{
		{"growth (median of 1)", "serve start to ready (s): " + ends, "0.80 / 0.75", "<1 s, flat"},
		{"growth (median of 1)", "server RSS once quiet after start / under load (MB): " + ends, "110 / 105, 290 / 400", "flat"},
		{"growth (median of 1)", "server CPU per command, cold cache (ms): " + ends, "0.500 / 0.700", "flat"},
		{"growth (median of 1)", "deposit commands/s: " + ends, "1100 / 900", ""},
	}
	if !slices.Equal(rows, want) {
		t.Fatalf("rows = %q\nwant %q", rows, want)
	}
}
