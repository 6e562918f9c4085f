package events

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"
)

var update = flag.Bool("update", false, "write golden files for the current version of every event")

// samples holds one representative payload of every registered event at its current version.
var samples = []Payload{
	MemberRegistered{MemberID: MemberID("0912345678"), Account: "0912345678", Role: RoleMember, PasswordHash: "$argon2id$v=19$m=65536,t=1,p=2$c2FsdA$aGFzaA", InviteCode: "LOTBOOK", OwnInviteCode: "K7M2Q9"},
	InviteCodeIssued{Code: "K7M2Q9", MemberID: MemberID("0912345678")},
	InviteCodeDisabled{Code: "SPRING26", Reason: "campaign over"},
	LoginPasswordChanged{PasswordHash: "$argon2id$v=19$m=65536,t=1,p=2$c2FsdA$bmV3"},
	SessionOpened{TokenHash: strings.Repeat("ab", 32), ExpiresAt: mustTime("2026-11-29T01:02:03Z")},
	SessionClosed{TokenHash: strings.Repeat("ab", 32)},
	FundPasswordSet{Hash: "$argon2id$v=19$m=65536,t=1,p=2$c2FsdA$ZnVuZA"},
	FundPasswordRejected{Attempt: 2},
	AccountFlagChanged{Flag: FlagTradeBanned, On: true, Reason: "chargeback under review"},
	FileUploaded{FileID: strings.Repeat("0f", 32), ContentType: "image/jpeg", Size: 48213, Width: 800, Height: 600},
	DepositRequested{OrderNo: "D2611220001", ChannelID: "bank", ChannelName: "Bank transfer", Currency: "TWD", Amount: decimal.RequireFromString("5000"), ProofFileID: strings.Repeat("0f", 32)},
	DepositApproved{OrderNo: "D2611220001", Currency: "TWD", Amount: decimal.RequireFromString("5000"), Remark: "matched statement",
		Postings: Transfer(HouseBankClearing, MemberAvailable(MemberID("0912345678")), "TWD", decimal.RequireFromString("5000"))},
	DepositRejected{OrderNo: "D2611220002", Remark: "proof unreadable"},
	DepositChannelConfigured{ID: "bank", Name: "Bank transfer", Currency: "TWD", Min: decimal.RequireFromString("1000"), Max: decimal.RequireFromString("1000000"),
		PasswordHash: strings.Repeat("cd", 32), Window: TimeWindow{Weekdays: []int{1, 2, 3, 4, 5}, Open: "09:30", Close: "19:30", TZ: "Asia/Taipei", ClosedOnHolidays: true}, Enabled: true},
	SiteConfigured{Name: "title", Value: "lotbook"},
	RealNameSubmitted{SubmissionID: "5b0e7c1a-3f7d-4e2b-9a61-0c8d2e4f6a10", Name: "王小明", IDNumberCipher: "v1:bm9uY2UtYW5kLWNpcGhlcnRleHQ",
		IDNumberKeyedHash: strings.Repeat("1e", 32), IDNumberMasked: "A12****789", FrontFileID: strings.Repeat("0a", 32), BackFileID: strings.Repeat("0b", 32)},
	RealNameApproved{SubmissionID: "5b0e7c1a-3f7d-4e2b-9a61-0c8d2e4f6a10", Remark: "photos match"},
	RealNameRejected{SubmissionID: "5b0e7c1a-3f7d-4e2b-9a61-0c8d2e4f6a10", Remark: "back photo unreadable"},
	BankCardBound{CardID: "c1f0a2b3-4d5e-5f60-8a7b-9c0d1e2f3a4b", HolderName: "王小明", BankName: "Bank of Taiwan", Branch: "Taipei main",
		BankCode: "004", CardNumberCipher: "v1:Y2FyZC1jaXBoZXJ0ZXh0", CardNumberKeyedHash: strings.Repeat("2c", 32), CardLast4: "6789"},
	BankCardUnbound{CardID: "c1f0a2b3-4d5e-5f60-8a7b-9c0d1e2f3a4b"},
	AvatarSet{FileID: strings.Repeat("0c", 32)},
	UniqueClaimed{MemberID: MemberID("0912345678"), Ref: "5b0e7c1a-3f7d-4e2b-9a61-0c8d2e4f6a10"},
	WithdrawalRequested{OrderNo: "W26112200000000000001", ChannelID: "bank", ChannelName: "Bank transfer", Currency: "TWD",
		Amount: decimal.RequireFromString("3000"), CardID: "c1f0a2b3-4d5e-5f60-8a7b-9c0d1e2f3a4b", HolderName: "王小明", BankName: "Bank of Taiwan",
		Branch: "Taipei main", BankCode: "004", CardLast4: "6789",
		Postings: Transfer(MemberAvailable(MemberID("0912345678")), MemberFrozen(MemberID("0912345678")), "TWD", decimal.RequireFromString("3000"))},
	WithdrawalApproved{OrderNo: "W26112200000000000001", Currency: "TWD", Amount: decimal.RequireFromString("3000"), Remark: "paid",
		Postings: Transfer(MemberFrozen(MemberID("0912345678")), HouseBankClearing, "TWD", decimal.RequireFromString("3000"))},
	WithdrawalRejected{OrderNo: "W26112200000000000002", Currency: "TWD", Amount: decimal.RequireFromString("3000"), Remark: "card closed",
		Postings: Transfer(MemberFrozen(MemberID("0912345678")), MemberAvailable(MemberID("0912345678")), "TWD", decimal.RequireFromString("3000"))},
	ExchangeQuoted{QuoteID: "0d9c8b7a-6f5e-5d4c-8b3a-29180f7e6d5c", From: "TWD", To: "USD", Amount: decimal.RequireFromString("1000"),
		Rate: decimal.RequireFromString("0.03125"), ToAmount: decimal.RequireFromString("31.25"), ExpiresAt: mustTime("2026-11-22T01:02:33Z")},
	ExchangeExecuted{OrderNo: "X26112200000000000001", QuoteID: "0d9c8b7a-6f5e-5d4c-8b3a-29180f7e6d5c", From: "TWD", To: "USD",
		FromAmount: decimal.RequireFromString("1000"), ToAmount: decimal.RequireFromString("31.25"), Rate: decimal.RequireFromString("0.03125"),
		Postings: append(Transfer(MemberAvailable(MemberID("0912345678")), HouseExchangeClearing, "TWD", decimal.RequireFromString("1000")),
			Transfer(HouseExchangeClearing, MemberAvailable(MemberID("0912345678")), "USD", decimal.RequireFromString("31.25"))...)},
	CreditScoreChanged{Delta: -5, Score: 95, Reason: "deposit_rejected", Ref: "D2611220002", By: "ops:ops"},
	WithdrawalChannelConfigured{ID: "bank", Name: "Bank transfer", Currency: "TWD", Min: decimal.RequireFromString("100"), Max: decimal.RequireFromString("500000"),
		Window: TimeWindow{Weekdays: []int{1, 2, 3, 4, 5}, Open: "09:00", Close: "17:00", TZ: "Asia/Taipei", ClosedOnHolidays: true}, Enabled: true},
	FavoriteAdded{Symbol: "2330"},
	FavoriteRemoved{Symbol: "2330"},
	ChatMessageSent{Seq: 3, Side: ChatSideOps, Text: "您好，請問需要什麼協助？", By: "0900000001"},
	ChatMarked{Side: ChatSideMember, Delivered: 3, Read: 2},
	ChatClosed{By: "0900000001"},
	CheckedIn{Day: "2026-03-02", Streak: 7, CycleDay: 7, CouponID: "c0a8f9d2-5b1e-5c4a-9f3e-2d7b6a1c8e40"},
	CouponGranted{CouponID: "c0a8f9d2-5b1e-5c4a-9f3e-2d7b6a1c8e40", Kind: CouponCommissionDiscount, Value: decimal.RequireFromString("50"), Uses: 1,
		ExpiryDay: "2026-03-31", ExpiresAt: mustTime("2026-03-31T16:00:00Z"), Source: CouponFromOps, Reason: "service recovery"},
	CouponReserved{CouponID: "c0a8f9d2-5b1e-5c4a-9f3e-2d7b6a1c8e40", OrderNo: "T26030200000000000001"},
	CouponReleased{CouponID: "c0a8f9d2-5b1e-5c4a-9f3e-2d7b6a1c8e40", OrderNo: "T26030200000000000001", Reason: "unfilled"},
	CouponRedeemed{CouponID: "c0a8f9d2-5b1e-5c4a-9f3e-2d7b6a1c8e40", OrderNo: "T26030200000000000001", Commission: decimal.RequireFromString("71"),
		Discount: decimal.RequireFromString("50"),
		Postings: Transfer(HousePromotionExpense, MemberAvailable(MemberID("0912345678")), "TWD", decimal.RequireFromString("50"))},
	OrderPlaced{OrderNo: "T26030200000000000001", PositionID: "T26030200000000000001", Intent: IntentOpen, Symbol: "2330", Name: "台積電",
		Kind: "stock", Side: SideBuy, Direction: DirectionLong, Type: OrderLimit, Shares: 2000, Price: decimal.RequireFromString("1000"),
		Leverage: decimal.RequireFromString("2.5"), TradingDay: "2026-03-02", By: OrderByMember, Quote: sampleQuote},
	TradeCashFrozen{OrderNo: "T26030200000000000001", Amount: decimal.RequireFromString("803850"),
		Postings: Transfer(MemberAvailable(MemberID("0912345678")), MemberFrozen(MemberID("0912345678")), "TWD", decimal.RequireFromString("803850"))},
	orderFilledV2,
	TradeCashReleased{OrderNo: "T26030200000000000001", Amount: decimal.RequireFromString("1003"),
		Postings: Transfer(MemberFrozen(MemberID("0912345678")), MemberAvailable(MemberID("0912345678")), "TWD", decimal.RequireFromString("1003"))},
	OrderCancelled{OrderNo: "T26030200000000000001", PositionID: "T26030200000000000001", Shares: 1000, Reason: CancelByMember},
	OrderExpired{OrderNo: "T26030200000000000002", PositionID: "T26030200000000000002", Shares: 3, TradingDay: "2026-03-02"},
	MarginCallIssued{MarginRatio: sampleRatio, Deadline: "2026-03-04"},
	MarginCallMet{MarginRatio: MarginRatio{Ratio: decimal.RequireFromString("1.35"), LongValue: decimal.RequireFromString("810000"),
		Loans: decimal.RequireFromString("600000"), ShortCollateral: decimal.Zero, ShortValue: decimal.Zero}},
	ForcedCloseStarted{MarginRatio: sampleRatio, Reason: "ratio_below_forced", Positions: []string{"T26030200000000000001"}},
	SubscriptionIssueListed{IssueID: "7795-20261124", Symbol: "7795", Name: "長廣", Market: MarketTW, Currency: "TWD",
		Price: decimal.RequireFromString("62.5"), ReferencePrice: decimal.RequireFromString("88"), Lots: 2400, UnitLots: 1, LotShares: 1000,
		Fee: decimal.RequireFromString("20"), Postage: decimal.RequireFromString("50"),
		OpensAt: mustTime("2026-11-24T01:00:00Z"), ClosesAt: mustTime("2026-11-26T06:00:00Z"),
		DrawDate: "2026-11-30", DeductionDate: "2026-12-01", RefundDate: "2026-12-02", ListingDate: "2026-12-04",
		PE: decimal.RequireFromString("15.2"), IndustryPE: decimal.RequireFromString("21.7")},
	SubscriptionSeedCommitted{IssueID: "7795-20261124", Commitment: strings.Repeat("5e", 32), Algorithm: "sha256-counter-fisher-yates/v1"},
	SubscriptionDrawn{IssueID: "7795-20261124", Seed: strings.Repeat("a7", 32), Commitment: strings.Repeat("5e", 32), Algorithm: "sha256-counter-fisher-yates/v1",
		Lots: 1, Applications: []string{"S20261124000000000000001", "S20261124000000000000002"}, Winners: []string{"S20261124000000000000002"}},
	SubscriptionApplied{IssueID: "7795-20261124", ApplicationNo: "S20261124000000000000001", Symbol: "7795", Name: "長廣", Lots: 1, Shares: 1000,
		Price: decimal.RequireFromString("62.5"), Amount: decimal.RequireFromString("62500"), Fee: decimal.RequireFromString("20"),
		Postings: Transfer(MemberAvailable(MemberID("0912345678")), MemberFrozen(MemberID("0912345678")), "TWD", decimal.RequireFromString("62520"))},
	SubscriptionPaid{IssueID: "7795-20261124", ApplicationNo: "S20261124000000000000001", Amount: decimal.RequireFromString("62500"),
		Fee: decimal.RequireFromString("20"), Postage: decimal.RequireFromString("50"),
		Postings: append(append(Transfer(MemberFrozen(MemberID("0912345678")), HouseSubscriptionClearing, "TWD", decimal.RequireFromString("62500")),
			Transfer(MemberFrozen(MemberID("0912345678")), HouseFeesRevenue, "TWD", decimal.RequireFromString("20"))...),
			Transfer(MemberAvailable(MemberID("0912345678")), HouseFeesRevenue, "TWD", decimal.RequireFromString("50"))...)},
	SubscriptionUnpaid{IssueID: "7795-20261124", ApplicationNo: "S20261124000000000000001", Due: decimal.RequireFromString("50"), Available: decimal.RequireFromString("12")},
	SubscriptionRefunded{IssueID: "7795-20261124", ApplicationNo: "S20261124000000000000001", Amount: decimal.RequireFromString("62500"),
		Fee: decimal.RequireFromString("20"), Waived: true,
		Postings: append(Transfer(MemberFrozen(MemberID("0912345678")), MemberAvailable(MemberID("0912345678")), "TWD", decimal.RequireFromString("62500")),
			Transfer(MemberFrozen(MemberID("0912345678")), HouseFeesRevenue, "TWD", decimal.RequireFromString("20"))...)},
	SubscriptionAllotted{IssueID: "7795-20261124", ApplicationNo: "S20261124000000000000001", Symbol: "7795", Name: "長廣", Security: "TW:7795",
		Shares: 1000, Price: decimal.RequireFromString("62.5"), Basis: decimal.RequireFromString("62500"), PaidDate: "2026-12-01", ListingDate: "2026-12-04",
		Postings: TransferShares(HouseSubscriptionShares, MemberAccount(MemberID("0912345678"), KindShares), "TW:7795", 1000)},
}

var sampleQuote = QuoteUsed{Time: mustTime("2026-03-02T02:00:01Z"), Last: decimal.RequireFromString("999"),
	Bids: []BookLevel{{Price: decimal.RequireFromString("998"), Size: 12000}}, Asks: []BookLevel{{Price: decimal.RequireFromString("999"), Size: 9000}}}

var sampleRatio = MarginRatio{Ratio: decimal.RequireFromString("1.1983"), LongValue: decimal.RequireFromString("719000"),
	Loans: decimal.RequireFromString("600000"), ShortCollateral: decimal.Zero, ShortValue: decimal.Zero}

func mustTime(s string) time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return t
}

// orderFilledV1 is the sample fill as v1 stored it: no security, money legs only.
var orderFilledV1 = OrderFilled{OrderNo: "T26030200000000000001", PositionID: "T26030200000000000001", Seq: 1, Side: SideBuy,
	Executions: []Execution{{Price: decimal.RequireFromString("999"), Shares: 1000}}, Shares: 1000, Amount: decimal.RequireFromString("999000"),
	Commission: decimal.RequireFromString("1423"), Tax: decimal.Zero, Loan: decimal.RequireFromString("599000"), Margin: decimal.Zero,
	Cash: decimal.RequireFromString("-401423"), Profit: decimal.Zero, Basis: decimal.RequireFromString("1000423"), Remaining: 1000, Quote: sampleQuote,
	Postings: []Posting{
		{Account: MemberFrozen(MemberID("0912345678")), Currency: "TWD", Amount: decimal.RequireFromString("-401423")},
		{Account: HouseMarginLoans, Currency: "TWD", Amount: decimal.RequireFromString("-599000")},
		{Account: HouseTradeClearing, Currency: "TWD", Amount: decimal.RequireFromString("999000")},
		{Account: HouseFeesRevenue, Currency: "TWD", Amount: decimal.RequireFromString("1423")},
	}}

// orderFilledV2 is the same fill with its security and share legs.
var orderFilledV2 = func() OrderFilled {
	e := orderFilledV1
	e.Security = Security(MarketTW, "2330")
	e.Postings = append(append([]Posting{}, e.Postings...),
		TransferShares(HouseExchangeShares, MemberAccount(MemberID("0912345678"), KindShares), e.Security, 1000)...)
	return e
}()

// upcastOnly are the stored versions that decode to less than the current sample: a later version
// added what the old one never recorded.
var upcastOnly = map[string]Payload{"OrderFilled.v1": orderFilledV1}

// TestGoldenEveryStoredVersion decodes a stored sample of every version of every event (files
// named Name.vN.json) and checks that it upcasts to the current version's golden payload. A new
// version of an event must add its upcaster and keep the old golden file.
func TestGoldenEveryStoredVersion(t *testing.T) {
	if *update {
		for _, p := range samples {
			typ, data, err := Encode(p)
			if err != nil {
				t.Fatal(err)
			}
			var pretty map[string]any
			_ = json.Unmarshal(data, &pretty)
			out, _ := json.MarshalIndent(pretty, "", "  ")
			if err := os.WriteFile(filepath.Join("testdata", "golden", typ+".json"), append(out, '\n'), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	bySample := map[string]Payload{}
	for _, p := range samples {
		bySample[p.EventName()] = p
	}
	for name, version := range Registered() {
		want, ok := bySample[name]
		if !ok {
			t.Errorf("%s has no sample in catalogue_test.go", name)
			continue
		}
		for v := 1; v <= version; v++ {
			typ := name + ".v" + strconv.Itoa(v)
			data, err := os.ReadFile(filepath.Join("testdata", "golden", typ+".json"))
			if err != nil {
				t.Errorf("%s: no golden file (run go test ./events -run Golden -update): %v", typ, err)
				continue
			}
			got, err := Decode(typ, data)
			if err != nil {
				t.Errorf("%s: %v", typ, err)
				continue
			}
			want := want
			if p, ok := upcastOnly[typ]; ok {
				want = p
			}
			if !equalPayload(got, want) {
				t.Errorf("%s decodes to\n%#v\nwant\n%#v", typ, got, want)
			}
		}
	}
}

// equalPayload compares through JSON so that decimals with the same value compare equal.
func equalPayload(a, b Payload) bool {
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	var x, y any
	_ = json.Unmarshal(ja, &x)
	_ = json.Unmarshal(jb, &y)
	return reflect.DeepEqual(x, y)
}

func TestDecodeRejectsUnknownAndFutureTypes(t *testing.T) {
	for _, typ := range []string{"Nope.v1", "DepositApproved", "DepositApproved.v0", "DepositApproved.v99", "DepositApproved.vx"} {
		if _, err := Decode(typ, []byte(`{}`)); err == nil {
			t.Errorf("Decode(%q) succeeded, want an error", typ)
		}
	}
}

// renamedV3 stands for an event whose field was renamed twice: v1 "amt", v2 "amount_v2", v3 "amount".
type renamedV3 struct {
	Amount string `json:"amount"`
}

func (renamedV3) EventName() string { return "TestRenamed" }

func TestUpcasterChainRunsInOrder(t *testing.T) {
	register(renamedV3{}, 3, map[int]Upcaster{
		1: func(old json.RawMessage) (json.RawMessage, error) {
			return json.RawMessage(strings.Replace(string(old), `"amt"`, `"amount_v2"`, 1)), nil
		},
		2: func(old json.RawMessage) (json.RawMessage, error) {
			return json.RawMessage(strings.Replace(string(old), `"amount_v2"`, `"amount"`, 1)), nil
		},
	})
	defer delete(registry, "TestRenamed")
	for typ, data := range map[string]string{"TestRenamed.v1": `{"amt":"12.50"}`, "TestRenamed.v2": `{"amount_v2":"12.50"}`, "TestRenamed.v3": `{"amount":"12.50"}`} {
		got, err := Decode(typ, []byte(data))
		if err != nil || got.(renamedV3).Amount != "12.50" {
			t.Errorf("Decode(%s) = %#v, %v", typ, got, err)
		}
	}
}

func TestCheckBalanced(t *testing.T) {
	d := decimal.RequireFromString
	m := MemberAvailable("m1")
	cases := []struct {
		name string
		ps   []Posting
		ok   bool
	}{
		{"transfer", Transfer(HouseBankClearing, m, "TWD", d("100")), true},
		{"two currencies each balanced", append(Transfer(m, HouseExchangeClearing, "TWD", d("320")), Transfer(HouseExchangeClearing, m, "USD", d("10"))...), true},
		{"off by a cent", []Posting{{m, "TWD", d("100"), ""}, {HouseBankClearing, "TWD", d("-99.99"), ""}}, false},
		{"balanced across currencies only", []Posting{{m, "TWD", d("10"), ""}, {HouseBankClearing, "USD", d("-10"), ""}}, false},
		{"zero leg", []Posting{{m, "TWD", d("0"), ""}}, false},
		{"no account", []Posting{{"", "TWD", d("1"), ""}, {m, "TWD", d("-1"), ""}}, false},
		{"empty", nil, false},
	}
	for _, c := range cases {
		if err := CheckBalanced(c.ps); (err == nil) != c.ok {
			t.Errorf("%s: CheckBalanced = %v, want ok=%v", c.name, err, c.ok)
		}
	}
}

func TestEventIDDeterministic(t *testing.T) {
	a := EventID("key-1", "account-x", 0)
	if a != EventID("key-1", "account-x", 0) {
		t.Fatal("same command, stream and index must give the same id")
	}
	if a == EventID("key-1", "account-x", 1) || a == EventID("key-2", "account-x", 0) || a == EventID("key-1", "account-y", 0) {
		t.Fatal("ids must differ by index, command and stream")
	}
}
