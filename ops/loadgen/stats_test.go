package main

import (
	"testing"
	"time"
)

func TestPercentile(t *testing.T) {
	var ds []time.Duration
	for i := 1; i <= 100; i++ {
		ds = append(ds, time.Duration(i)*time.Millisecond)
	}
	tests := []struct {
		q    float64
		want float64
	}{{0, 1}, {0.5, 51}, {0.99, 99}, {1, 100}}
	for _, tc := range tests {
		if got := percentile(ds, tc.q); got != tc.want {
			t.Errorf("p%v = %v, want %v", tc.q*100, got, tc.want)
		}
	}
	if percentile(nil, 0.5) != 0 {
		t.Error("percentile of nothing is not 0")
	}
}

func TestMaxLagSeconds(t *testing.T) {
	page := `# HELP lotbook_projection_lag_seconds Age of the oldest event a projector has not applied yet.
# TYPE lotbook_projection_lag_seconds gauge
lotbook_projection_lag_seconds{projector="balances"} 0.012
lotbook_projection_lag_seconds{projector="members"} 0.25
lotbook_projection_lag_events{projector="members"} 40
`
	if got, err := maxLagSeconds(page); err != nil || got != 250*time.Millisecond {
		t.Fatalf("got %v, %v; want 250ms", got, err)
	}
	if _, err := maxLagSeconds("go_goroutines 8\n"); err == nil {
		t.Fatal("a page without the metric is not an error")
	}
}
