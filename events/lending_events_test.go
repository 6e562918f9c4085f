package events

import "github.com/shopspring/decimal"

// Samples of the stock lending events (catalogue_test.go's samples).
func init() {
	d := decimal.RequireFromString
	member := MemberID("0912345678")
	samples = append(samples,
		LendingChannelSet{Open: true, DefaultRate: d("0.02")},
		LendingSymbolSet{Symbol: "2330", Rate: d("0.035"), Quota: 100000},
		LendingQuotaTaken{LendNo: "LD26030200000000000001", MemberID: member, Shares: 2000, Quota: 100000},
		LendingQuotaReleased{LendNo: "LD26030200000000000001", Reason: "recalled"},
		LendingAbandoned{LendNo: "LD26030200000000000002", Symbol: "2330"},
		StockLent{LendNo: "LD26030200000000000001", Symbol: "2330", Name: "台積電", Shares: 2000, AnnualRate: d("0.035"), Day: "2026-03-02"},
		LendingFeeAccrued{LendNo: "LD26030200000000000001", Symbol: "2330", Currency: "TWD", Day: "2026-03-02", Close: d("1000"), Shares: 2000,
			AnnualRate: d("0.035"), Amount: d("191"), Postings: LendingFeePostings(member, "TWD", d("191"))},
		StockRecalled{LendNo: "LD26030200000000000001", Symbol: "2330", Shares: 2000, Fees: d("191"), Day: "2026-03-03"},
	)
}
