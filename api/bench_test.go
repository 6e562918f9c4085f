package api

import (
	"fmt"
	"os"
	"sync/atomic"
	"testing"
)

// BenchmarkDepositOverHTTP measures deposit requests through the whole stack (auth, idempotency,
// command, append, projection) with 32 clients, each a member of its own (one account stream
// each, as in production; one shared stream would serialise by design).
func BenchmarkDepositOverHTTP(b *testing.B) {
	h := newHarness(b, benchDB(), RateLimits{LoginPerAccount: 1 << 20, LoginPerIP: 1 << 20, RegisterPerIP: 1 << 20})
	const clients = 32
	members := make([]*client, clients)
	proofs := make([]string, clients)
	for i := range members {
		members[i] = h.register(fmt.Sprintf("09%08d", i))
		proofs[i] = members[i].photo()
	}
	var next atomic.Int64
	b.SetParallelism(clients / 2) // x GOMAXPROCS(2)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		i := int(next.Add(1)-1) % clients
		m := members[i]
		body := map[string]string{"channelId": "bank", "amount": "1000", "proofFileId": proofs[i], "channelPassword": "8888"}
		for pb.Next() {
			if a := m.post("/api/vue/funds/deposits", body); a.code != 200 {
				b.Errorf("deposit: %s", a)
				return
			}
		}
	})
	b.StopTimer()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "deposits/s")
}

// benchDB is SQLite unless LOTBOOK_BENCH_DB=postgres.
func benchDB() testDB {
	if os.Getenv("LOTBOOK_BENCH_DB") == "postgres" {
		return testDB{kind: "postgres"}
	}
	return testDB{kind: "sqlite"}
}
