package events

import "github.com/shopspring/decimal"

// Samples of the margin top-up event (catalogue_test.go's samples).
func init() {
	d := decimal.RequireFromString
	member := MemberID("0912345678")
	samples = append(samples,
		MarginToppedUp{TopUpNo: "M26030200000000000001", PositionID: "T26030200000000000001", Symbol: "2330", Amount: d("50000"),
			Loan: d("50000"), Margin: d("0"), Postings: MarginTopUpPostings(member, "TWD", d("50000"), d("0"))},
	)
}
