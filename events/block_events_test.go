package events

import "github.com/shopspring/decimal"

// Samples of the block trade and chip grab events (catalogue_test.go's samples, kept with the
// capability so that its golden files change with it).
func init() {
	d := decimal.RequireFromString
	member := MemberID("0912345678")
	opens, closes := mustTime("2026-03-02T01:00:00Z"), mustTime("2026-03-06T09:00:00Z")
	samples = append(samples,
		BlockListed{BlockID: "b7d2c5e0-1a3f-4b6c-9d8e-7f0a1b2c3d4e", Symbol: "2330", Name: "台積電", Kind: "stock",
			ReferencePrice: d("1000"), PremiumRate: d("-0.02"), Price: d("980"), MinLots: 10, DailyCapLots: 50,
			PasswordHash: "$argon2id$v=19$m=65536,t=1,p=2$c2FsdA$YmxvY2s", OpensAt: opens, ClosesAt: closes},
		BlockClosed{BlockID: "b7d2c5e0-1a3f-4b6c-9d8e-7f0a1b2c3d4e", Remark: "sold out"},
		BlockApplied{OrderNo: "B26030200000000000001", BlockID: "b7d2c5e0-1a3f-4b6c-9d8e-7f0a1b2c3d4e", Symbol: "2330", Name: "台積電",
			Kind: "stock", Price: d("980"), Bid: d("985"), Lots: 10, Shares: 10000, Day: "2026-03-02", Amount: d("9864036"),
			Postings: Transfer(MemberAvailable(member), MemberFrozen(member), "TWD", d("9864036"))},
		BlockApplicationApproved{OrderNo: "B26030200000000000001", BlockID: "b7d2c5e0-1a3f-4b6c-9d8e-7f0a1b2c3d4e", Lots: 10,
			Price: d("980"), Released: d("9864036"), Remark: "ok",
			Postings: Transfer(MemberFrozen(member), MemberAvailable(member), "TWD", d("9864036"))},
		BlockApplicationRejected{OrderNo: "B26030200000000000002", BlockID: "b7d2c5e0-1a3f-4b6c-9d8e-7f0a1b2c3d4e",
			Released: d("9864036"), Remark: "allocation full",
			Postings: Transfer(MemberFrozen(member), MemberAvailable(member), "TWD", d("9864036"))},
		BlockLotsTaken{BlockID: "b7d2c5e0-1a3f-4b6c-9d8e-7f0a1b2c3d4e", OrderNo: "B26030200000000000001", MemberID: member, Lots: 10,
			RemainingLots: 490},
		BlockLotsReturned{BlockID: "b7d2c5e0-1a3f-4b6c-9d8e-7f0a1b2c3d4e", OrderNo: "B26030200000000000001", Lots: 10, RemainingLots: 500},
		BlockPasswordRejected{BlockID: "b7d2c5e0-1a3f-4b6c-9d8e-7f0a1b2c3d4e", Day: "2026-03-02", Attempt: 1},
		ChipGrabOffered{OfferingID: "c3a1e2f4-5b6d-4c7e-8f90-1a2b3c4d5e6f", Symbol: "2603", Name: "長榮", Kind: "stock", Price: d("180"),
			QuotaLots: 500, MaxLotsPerMember: 20, OpensAt: opens, ClosesAt: closes},
		ChipGrabClaimed{OfferingID: "c3a1e2f4-5b6d-4c7e-8f90-1a2b3c4d5e6f", OrderNo: "G26030200000000000001", MemberID: member,
			Lots: 2, RemainingLots: 498, RequestCommand: "0b8f7c6e-5d4c-4b3a-9f8e-7d6c5b4a3f2e"},
		ChipGrabClaimReleased{OfferingID: "c3a1e2f4-5b6d-4c7e-8f90-1a2b3c4d5e6f", OrderNo: "G26030200000000000001", MemberID: member,
			Lots: 2, RemainingLots: 500, Reason: "insufficient_balance"},
		ChipGrabAllotmentStarted{OfferingID: "c3a1e2f4-5b6d-4c7e-8f90-1a2b3c4d5e6f"},
		ChipGrabFrozen{OrderNo: "G26030200000000000001", OfferingID: "c3a1e2f4-5b6d-4c7e-8f90-1a2b3c4d5e6f", Symbol: "2603", Name: "長榮",
			Kind: "stock", Price: d("180"), Lots: 2, Shares: 2000, Amount: d("360513"),
			Postings: Transfer(MemberAvailable(member), MemberFrozen(member), "TWD", d("360513"))},
		ChipGrabFreezeRefused{OrderNo: "G26030200000000000002", OfferingID: "c3a1e2f4-5b6d-4c7e-8f90-1a2b3c4d5e6f", Reason: "insufficient_balance"},
		ChipGrabAllotted{OrderNo: "G26030200000000000001", OfferingID: "c3a1e2f4-5b6d-4c7e-8f90-1a2b3c4d5e6f", Lots: 2, Price: d("180"),
			Released: d("360513"), Postings: Transfer(MemberFrozen(member), MemberAvailable(member), "TWD", d("360513"))},
	)
}
