package sqlite_test

import (
	"path/filepath"
	"testing"

	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/events/bench"
)

// BenchmarkAppend appends b.N single-event appends with 1, 8 and 64 concurrent writers to a fresh
// file and reports events/s, the mean group-commit batch (events per transaction) and append
// latency. go run ./events/bench/appendbench prints the same figures as medians of several runs.
func BenchmarkAppend(b *testing.B) {
	bench.Writers(b, func(b *testing.B) events.Store { return open(b, filepath.Join(b.TempDir(), "events.db")) })
}
