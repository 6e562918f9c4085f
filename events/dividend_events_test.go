package events

import "github.com/shopspring/decimal"

// Samples of the dividend events (catalogue_test.go's samples).
func init() {
	d := decimal.RequireFromString
	member := MemberID("0912345678")
	samples = append(samples,
		DividendEntitled{OrderNo: "DV2330-2026Q1", DividendID: "2330-2026Q1", Symbol: "2330", Name: "台積電", Kind: "stock", Period: "2026Q1",
			ExDate: "2026-09-16", RecordDate: "2026-09-23", PayDate: "2026-10-14", PayAt: mustTime("2026-10-13T16:00:00Z"),
			Shares: 5000, Cash: d("4.5"), Stock: d("0.5"), Gross: d("22500"), FractionCash: d("0"), NHI: d("475"), Fee: d("10"),
			Net: d("22015"), NewShares: 250},
		DividendCashPaid{OrderNo: "DV2330-2026Q1", DividendID: "2330-2026Q1", Net: d("22015"), Postings: []Posting{
			{Account: HouseDividendPayable, Currency: "TWD", Amount: d("-22500")},
			{Account: HouseNHIPayable, Currency: "TWD", Amount: d("475")},
			{Account: HouseFeesRevenue, Currency: "TWD", Amount: d("10")},
			{Account: MemberAvailable(member), Currency: "TWD", Amount: d("22015")}}},
		DividendSharesDistributed{OrderNo: "DV2330-2026Q1", DividendID: "2330-2026Q1", Security: "TW:2330", Shares: 250,
			PositionID: "DV2330-2026Q1-S"},
	)
}
