package main

import (
	"context"
	"slices"
	"time"

	"github.com/lotbook/lotbook/ops/internal/serve"
)

// percentile of sorted durations, in milliseconds (q in 0..1).
func percentile(sorted []time.Duration, q float64) float64 {
	if len(sorted) == 0 {
		return 0
	}
	i := int(q*float64(len(sorted)-1) + 0.5)
	return float64(sorted[i]) / float64(time.Millisecond)
}

func sortedCopy(ds []time.Duration) []time.Duration {
	out := slices.Clone(ds)
	slices.Sort(out)
	return out
}

// waitQuiet waits until the process uses under a tenth of a core over half a second, or limit.
func waitQuiet(ctx context.Context, pid int, limit time.Duration) bool {
	const window = 500 * time.Millisecond
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) {
		before := serve.CPU(pid)
		select {
		case <-ctx.Done():
			return false
		case <-time.After(window):
		}
		if serve.CPU(pid)-before < window/10 {
			return true
		}
	}
	return false
}
