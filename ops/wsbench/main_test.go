package main

import (
	"testing"
	"time"
)

func TestDelay(t *testing.T) {
	now := time.Date(2026, 3, 2, 2, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		msg  string
		want time.Duration
		ok   bool
	}{
		{`{"data":{"time":"2026-03-02T01:59:59Z"},"ts":"2026-03-02T01:59:59.987654321Z","type":"quote"}`, 12345679 * time.Nanosecond, true},
		{`{"data":{},"interval":"1m","symbol":"2330","ts":"2026-03-02T02:00:00Z","type":"candle"}`, 0, true},
		{`{"msg":"not_found","symbol":"9999","type":"error"}`, 0, false},
		{`{"ts":"yesterday"}`, 0, false},
		{`{"ts":"2026-03-02T02:00:00Z`, 0, false},
	} {
		got, ok := delay([]byte(tc.msg), now)
		if got != tc.want || ok != tc.ok {
			t.Errorf("delay(%s) = %v %v, want %v %v", tc.msg, got, ok, tc.want, tc.ok)
		}
	}
}

func TestMetricSum(t *testing.T) {
	page := `# HELP go_memstats_heap_inuse_bytes Number of heap bytes that are in use.
# TYPE go_memstats_heap_inuse_bytes gauge
go_memstats_heap_inuse_bytes 1.2e+06
go_memstats_stack_inuse_bytes 524288
lotbook_http_requests_total{route="x",status="200"} 3
`
	got, err := metricSum(page, "go_memstats_heap_inuse_bytes", "go_memstats_stack_inuse_bytes")
	if err != nil || got != 1.2e6+524288 {
		t.Fatalf("got %v %v", got, err)
	}
	if _, err := metricSum(page, "go_memstats_heap_inuse_bytes", "nope"); err == nil {
		t.Fatal("a missing metric went unnoticed")
	}
}

func TestPercentile(t *testing.T) {
	ds := []time.Duration{1 * time.Millisecond, 2 * time.Millisecond, 3 * time.Millisecond, 4 * time.Millisecond, 100 * time.Millisecond}
	if p := percentile(ds, 0.5); p != 3 {
		t.Fatalf("p50 %v", p)
	}
	if p := percentile(ds, 1); p != 100 {
		t.Fatalf("max %v", p)
	}
	if p := percentile(nil, 0.99); p != 0 {
		t.Fatalf("empty %v", p)
	}
}
