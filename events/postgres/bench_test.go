package postgres_test

import (
	"fmt"
	"testing"

	"github.com/lotbook/lotbook/events/bench"
	"github.com/lotbook/lotbook/events/postgres/pgtest"
)

// BenchmarkAppend appends b.N single-event appends with 1, 8 and 64 concurrent writers to a fresh
// database and reports events/s, the mean group-commit batch (events per transaction) and append
// latency. go run ./events/bench/appendbench prints the same figures as medians of several runs.
func BenchmarkAppend(b *testing.B) {
	for _, writers := range []int{1, 8, 64} {
		b.Run(fmt.Sprintf("writers=%d", writers), func(b *testing.B) {
			st := open(b, pgtest.NewDatabase(b))
			defer st.Close()
			bench.Report(b, st, writers)
		})
	}
}
