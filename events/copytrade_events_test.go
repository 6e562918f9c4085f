package events

import "github.com/shopspring/decimal"

// Samples of the copy-trade events (catalogue_test.go's samples).
func init() {
	d := decimal.RequireFromString
	follower, mentor := MemberID("0912345678"), MemberID("0987654321")
	samples = append(samples,
		MentorProfileSet{DisplayName: "Ann", MinAmount: d("10000"), WindowDays: 30, ProfitShare: d("10")},
		FollowStarted{FollowID: "F26030200000000000001", MentorID: mentor, MentorName: "Ann", Amount: d("50000"), ProfitShare: d("10"),
			Days: 30, Ends: "2026-04-01T02:00:00Z", Postings: FollowPostings(follower, "TWD", d("50000"), false)},
		CopyFundsSpent{FollowID: "F26030200000000000001", Ref: "e1", Symbol: "2330", Shares: 1000, Price: d("20"), Amount: d("20028"),
			Postings: FollowPostings(follower, "TWD", d("20028"), true)},
		CopyFundsReturned{FollowID: "F26030200000000000001", Ref: "e1", Amount: d("20028"), Reason: "not_trading_time",
			Postings: FollowPostings(follower, "TWD", d("20028"), false)},
		FollowStopRequested{FollowID: "F26030200000000000001", ClosePositions: true},
		FollowStopped{FollowID: "F26030200000000000001", MentorID: mentor, State: FollowCancelled, ClosePositions: true, Released: d("29972"),
			Profit: d("5000"), Share: d("500"), Postings: StopPostings(follower, "TWD", d("29972"), d("500"))},
		ProfitShareReceived{FollowID: "F26030200000000000001", FollowerID: follower, Amount: d("500"),
			Postings: ShareIncomePostings(mentor, "TWD", d("500"))},
	)
}
