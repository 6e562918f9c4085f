package funds_test

import (
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/lotbook/lotbook/commands/commandstest"
	"github.com/lotbook/lotbook/commands/commandstest/scenario"
	"github.com/lotbook/lotbook/commands/funds"
)

// BenchmarkDepositAndApprove: a proof upload, a deposit request backed by it and its approval
// per op (one proof backs one deposit), from parallel callers, each on its own member, on the
// SQLite store (group commit, fsync per batch).
func BenchmarkDepositAndApprove(b *testing.B) {
	f := scenario.New(b)
	f.Seed(true)
	const members = 64
	var ids []string
	for i := 0; i < members; i++ {
		ids = append(ids, f.Register(fmt.Sprintf("09%08d", i), "LOTBOOK").MemberID)
	}
	var next atomic.Int64
	b.SetParallelism(16)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		i := int(next.Add(1)) % members
		for pb.Next() {
			proof := f.Upload(ids[i])
			r, err := f.Funds.RequestDeposit(f.Ctx, commandstest.Meta("member"), ids[i], funds.DepositInput{ChannelID: "bank", Amount: "1000", ProofFileID: proof, ChannelPassword: "8888"})
			if err != nil {
				b.Error(err)
				return
			}
			if _, err := f.Funds.ApproveDeposit(f.Ctx, commandstest.Meta("ops:ops"), funds.ReviewOrder{MemberID: ids[i], OrderNo: r.OrderNo, Remark: ""}); err != nil {
				b.Error(err)
				return
			}
		}
	})
	b.ReportMetric(float64(b.N*3)/b.Elapsed().Seconds(), "commands/s")
}
