package sqlite_test

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/lotbook/lotbook/events/bench"
)

// BenchmarkAppend appends b.N single-event appends with 1, 8 and 64 concurrent writers to a fresh
// file and reports events/s, the mean group-commit batch (events per transaction) and append
// latency. go run ./events/bench/appendbench prints the same figures as medians of several runs.
func BenchmarkAppend(b *testing.B) {
	for _, writers := range []int{1, 8, 64} {
		b.Run(fmt.Sprintf("writers=%d", writers), func(b *testing.B) {
			st := open(b, filepath.Join(b.TempDir(), "events.db"))
			defer st.Close()
			bench.Report(b, st, writers)
		})
	}
}
