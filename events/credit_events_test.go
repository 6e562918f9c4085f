package events

import "github.com/shopspring/decimal"

// Samples of the credit loan and seat account events (catalogue_test.go's samples).
func init() {
	d := decimal.RequireFromString
	member := MemberID("0912345678")
	samples = append(samples,
		LoanApplied{OrderNo: "L26030200000000000001", Amount: d("50000"), Currency: "TWD", AnnualRate: d("0.073"), Limit: d("130000"),
			Available: d("130000"), Score: 100},
		LoanApproved{OrderNo: "L26030200000000000001", Remark: "ok"},
		LoanRejected{OrderNo: "L26030200000000000002", Remark: "income unverified"},
		LoanDisbursed{OrderNo: "L26030200000000000001", Currency: "TWD", Amount: d("50000"), Day: "2026-03-02",
			Postings: DisbursementPostings(member, "TWD", d("50000"))},
		LoanInterestAccrued{OrderNo: "L26030200000000000001", Currency: "TWD", Day: "2026-03-02", Principal: d("50000"),
			AnnualRate: d("0.073"), Amount: d("10"), Postings: InterestPostings(member, "TWD", d("10"))},
		LoanRepaid{RepayNo: "R26030300000000000001", OrderNo: "L26030200000000000001", Currency: "TWD", Amount: d("20010"),
			Interest: d("10"), Principal: d("20000"), Outstanding: d("30000"), Postings: RepaymentPostings(member, "TWD", d("10"), d("20000"))},
		SeatApplied{OrderNo: "Q26030200000000000001"},
		SeatApproved{OrderNo: "Q26030200000000000001", Remark: "ok"},
		SeatRejected{OrderNo: "Q26030200000000000002", Remark: "documents missing"},
	)
}
