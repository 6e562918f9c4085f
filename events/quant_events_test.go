package events

import "github.com/shopspring/decimal"

// Samples of the AI quant events (catalogue_test.go's samples).
func init() {
	d := decimal.RequireFromString
	member := MemberID("0912345678")
	samples = append(samples,
		QuantSubscribed{SubID: "Q26030200000000000001", Product: "momentum-0050", Currency: "TWD", Amount: d("100000"), MinAmount: d("100000"),
			Postings: Transfer(MemberAvailable(member), MemberFrozen(member), "TWD", d("100000"))},
		QuantFundsReleased{SubID: "Q26030200000000000001", Currency: "TWD", Amount: d("71451"), Symbol: "0050", Shares: 1000,
			OrderCommandID: "quant-strategy/Q26030200000000000001/0050/buy/1772415000", Day: "2026-03-02", EntryClose: d("71.25"),
			Postings: Transfer(MemberFrozen(member), MemberAvailable(member), "TWD", d("71451"))},
		QuantFundsReturned{SubID: "Q26030200000000000001", Currency: "TWD", Ref: "T26030200000000000002", Amount: d("120"), Reason: QuantReturnOrderDone,
			Postings: Transfer(MemberAvailable(member), MemberFrozen(member), "TWD", d("120"))},
		QuantLeft{SubID: "Q26030200000000000001", Currency: "TWD", Released: d("28549"), Close: true,
			Postings: Transfer(MemberFrozen(member), MemberAvailable(member), "TWD", d("28549"))},
	)
}
