package main

import (
	"reflect"
	"testing"
)

func TestTradeRows(t *testing.T) {
	run := func(perSec, p99, cpu, fillP99 string) []byte {
		return []byte(`=== RUN   TestTradeThroughput
trade bench (sqlite): 2000 orders over HTTP by 8 members: ` + perSec + ` orders/s, p50 4.611ms, p99 ` + p99 + `, cpu ` + cpu + ` per order
trade bench (sqlite): quote update to fill of a resting order: p50 456µs, p99 ` + fillP99 + ` over 200
--- PASS: TestTradeThroughput (6.38s)
`)
	}
	var results []tradeResult
	for _, out := range [][]byte{
		run("1293", "23.993ms", "1.2ms", "3.99ms"),
		run("900", "40ms", "2ms", "1ms"),
		run("1500", "10ms", "1ms", "50ms"),
	} {
		r, ok := parseTrade(out)
		if !ok {
			t.Fatalf("not parsed: %s", out)
		}
		results = append(results, r)
	}
	want := []row{
		{"trade sqlite (median of 3)", "orders placed over HTTP/s (8 members, 2000 market orders)", "1293", "≥3,000"},
		{"trade sqlite (median of 3)", "order latency over HTTP, placed → filled (a market order fills in its command): p50 / p99", "4.61 ms / 23.99 ms", "p99 ≤10 ms"},
		{"trade sqlite (median of 3)", "CPU per order (test process: server and clients, projections and engine caught up)", "1.20 ms", ""},
		{"trade sqlite (median of 3)", "order-to-fill latency, crossing quote update → filled (200 resting orders): p50 / p99", "0.46 ms / 3.99 ms", "p99 ≤10 ms"},
	}
	if got := tradeRows(results); !reflect.DeepEqual(got, want) {
		t.Fatalf("got %#v\nwant %#v", got, want)
	}
	if _, ok := parseTrade([]byte("trade bench (sqlite): quote update to fill of a resting order: p50 1ms, p99 2ms over 200\n")); ok {
		t.Fatal("parsed an output without the orders line")
	}
}

func TestMatchRows(t *testing.T) {
	out := []byte(`goos: linux
BenchmarkCheck-2   	16667119	        68.58 ns/op
BenchmarkCross-2   	 5839254	       200 ns/op
PASS
`)
	want := []row{
		{"match", "match checks/s per symbol, one goroutine (resting limit vs best price)", "14581511", "≥300,000"},
		{"match", "full crosses/s, one goroutine (3-lot order over 5 levels)", "5000000", ""},
	}
	if got := matchRows(out); !reflect.DeepEqual(got, want) {
		t.Fatalf("got %#v\nwant %#v", got, want)
	}
}
