package main

import (
	"reflect"
	"testing"
)

func TestTradeRows(t *testing.T) {
	out := []byte(`=== RUN   TestTradeThroughput
trade bench (sqlite): 2000 orders over HTTP by 8 members: 1293 orders/s, p50 4.611ms, p99 23.993ms
trade bench (sqlite): quote update to fill of a resting order: p50 456µs, p99 3.99ms over 200
--- PASS: TestTradeThroughput (6.38s)
`)
	want := []row{
		{"trade sqlite", "orders placed over HTTP/s (8 members, 2000 market orders); p50 / p99", "1293; 4.611ms / 23.993ms", ""},
		{"trade sqlite", "order-to-fill latency, crossing quote update → filled (200 orders): p50 / p99", "456µs / 3.99ms", ""},
	}
	if got := tradeRows(out); !reflect.DeepEqual(got, want) {
		t.Fatalf("got %#v\nwant %#v", got, want)
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
