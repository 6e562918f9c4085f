package funds

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/projections"
	"github.com/lotbook/lotbook/projections/projtest"
)

func TestMemberFunds(t *testing.T) {
	projtest.Backends(t, func(t *testing.T, e *projtest.Env) {
		ctx := context.Background()
		db, r := e.Start()
		win := events.TimeWindow{Weekdays: []int{1, 2, 3, 4, 5}, Open: "09:00", Close: "17:00", TZ: "Asia/Taipei", ClosedOnHolidays: true}
		e.Add(events.ConfigStream, "system",
			events.WithdrawalChannelConfigured{ID: "bank", Name: "Bank", Currency: "TWD", Min: projtest.Dec("100"), Max: projtest.Dec("500000"), Window: win, Enabled: true},
			events.WithdrawalChannelConfigured{ID: "wire", Name: "Wire", Currency: "USD", Min: projtest.Dec("10"), Max: projtest.Dec("1000"), Window: win})
		e.Add(events.ConfigStream, "system",
			events.WithdrawalChannelConfigured{ID: "bank", Name: "Bank transfer", Currency: "TWD", Min: projtest.Dec("100"), Max: projtest.Dec("400000"), Window: win, Enabled: true})
		m := e.Register("0912345678")
		other := e.Register("0922222222")
		ms, as := events.MemberStream(m), events.AccountStream(m)

		e.Add(ms, "member:0912345678", events.RealNameSubmitted{SubmissionID: "s1", Name: "王小明", IDNumberCipher: "v1:x",
			IDNumberKeyedHash: "h", IDNumberMasked: "A12****789", FrontFileID: "f1", BackFileID: "f2"})
		e.Add(events.MemberStream(other), "member:0922222222", events.RealNameSubmitted{SubmissionID: "s2", Name: "陳大文",
			IDNumberCipher: "v1:y", IDNumberKeyedHash: "h2", IDNumberMasked: "B20****004", FrontFileID: "f3", BackFileID: "f4"})
		e.Add(ms, "ops:ops", events.RealNameRejected{SubmissionID: "s1", Remark: "blurry"})
		e.Add(ms, "member:0912345678", events.RealNameSubmitted{SubmissionID: "s3", Name: "王小明", IDNumberCipher: "v1:z",
			IDNumberKeyedHash: "h", IDNumberMasked: "A12****789", FrontFileID: "f5", BackFileID: "f6"})
		e.Add(ms, "ops:ops", events.RealNameApproved{SubmissionID: "s3"})
		e.Add(ms, "member:0912345678",
			events.BankCardBound{CardID: "c1", HolderName: "王小明", BankName: "BOT", Branch: "Taipei", BankCode: "004", CardNumberCipher: "v1:c", CardNumberKeyedHash: "k1", CardLast4: "6789"},
			events.BankCardBound{CardID: "c2", HolderName: "王小明", BankName: "BOT", Branch: "Taipei", BankCode: "004", CardNumberCipher: "v1:d", CardNumberKeyedHash: "k2", CardLast4: "1111", IFSC: "SBIN0001234"})
		e.Add(ms, "member:0912345678", events.BankCardUnbound{CardID: "c2"})

		e.Deposit(m, "D1", "5000")
		tr := func(from, to, amount string) []events.Posting {
			return events.Transfer(from, to, "TWD", projtest.Dec(amount))
		}
		e.Add(as, "member:0912345678", events.WithdrawalRequested{OrderNo: "W1", ChannelID: "bank", ChannelName: "Bank", Currency: "TWD",
			Amount: projtest.Dec("3000"), CardID: "c1", HolderName: "王小明", BankName: "BOT", Branch: "Taipei", BankCode: "004", CardLast4: "6789",
			Postings: tr(events.MemberAvailable(m), events.MemberFrozen(m), "3000")})
		e.Add(as, "ops:ops", events.WithdrawalRejected{OrderNo: "W1", Currency: "TWD", Amount: projtest.Dec("3000"), Remark: "card closed",
			Postings: tr(events.MemberFrozen(m), events.MemberAvailable(m), "3000")})
		e.Add(as, "member:0912345678", events.WithdrawalRequested{OrderNo: "W2", ChannelID: "bank", ChannelName: "Bank", Currency: "TWD",
			Amount: projtest.Dec("1000"), CardID: "c1", BankName: "BOT", CardLast4: "6789", Postings: tr(events.MemberAvailable(m), events.MemberFrozen(m), "1000")})
		e.Add(as, "member:0912345678", events.ExchangeExecuted{OrderNo: "X1", QuoteID: "q", From: "TWD", To: "USD", FromAmount: projtest.Dec("1000"),
			ToAmount: projtest.Dec("31.25"), Rate: projtest.Dec("0.03125"), Postings: append(tr(events.MemberAvailable(m), events.HouseExchangeClearing, "1000"),
				events.Transfer(events.HouseExchangeClearing, events.MemberAvailable(m), "USD", projtest.Dec("31.25"))...)})
		e.Add(as, "ops:ops", events.CreditScoreChanged{Delta: -5, Score: 95, Reason: "deposit_rejected", Ref: "D9", By: "ops:ops"})
		r.WaitFor(t, e.Head())

		rn, err := RealNameOf(ctx, db.Reader, m)
		if err != nil || rn.Status != events.RealNameStatusVerified || rn.SubmissionID != "s3" || rn.IDCipher != "v1:z" ||
			rn.Account != "0912345678" || rn.ReviewedBy != "ops:ops" || rn.FrontFileID != "f5" {
			t.Fatalf("realname %+v, %v", rn, err)
		}
		if _, err := RealNameOf(ctx, db.Reader, events.MemberID("0900000000")); !errors.Is(err, projections.ErrNotFound) {
			t.Fatalf("no submission: %v", err)
		}
		q, more, err := RealNameQueue(ctx, db.Reader, events.RealNameStatusPending, 1, 10)
		if err != nil || more || len(q) != 1 || q[0].MemberID != other || q[0].IDMasked != "B20****004" {
			t.Fatalf("pending queue %+v %v", q, err)
		}
		st, err := RealNameStatuses(ctx, db.Reader, []string{m, other, "nobody"})
		if err != nil || st[m] != events.RealNameStatusVerified || st[other] != events.RealNameStatusPending || len(st) != 2 {
			t.Fatalf("statuses %v %v", st, err)
		}
		cards, err := CardsOf(ctx, db.Reader, m)
		if err != nil || len(cards) != 1 || cards[0].CardID != "c1" || cards[0].Last4 != "6789" {
			t.Fatalf("cards %+v %v", cards, err)
		}
		if cards, _ := CardsOf(ctx, db.Reader, other); len(cards) != 0 {
			t.Fatalf("other's cards %+v", cards)
		}

		w, err := WithdrawalByOrderNo(ctx, db.Reader, "W1")
		if err != nil || w.Status != events.ReviewRejected || w.Remark != "card closed" || w.Account != "0912345678" || w.HolderName != "王小明" {
			t.Fatalf("W1 %+v %v", w, err)
		}
		pending, _, err := WithdrawalQueue(ctx, db.Reader, events.ReviewPending, 1, 10)
		if err != nil || len(pending) != 1 || pending[0].OrderNo != "W2" || !pending[0].Amount.Equal(projtest.Dec("1000")) {
			t.Fatalf("withdrawal queue %+v %v", pending, err)
		}
		if score, found, err := CreditScoreOf(ctx, db.Reader, m); err != nil || !found || score != 95 {
			t.Fatalf("score %d %v %v", score, found, err)
		}
		if _, found, _ := CreditScoreOf(ctx, db.Reader, other); found {
			t.Fatal("other has a score row")
		}
		projtest.MustBalance(t, db, m, "TWD", "3000", "1000")
		projtest.MustBalance(t, db, m, "USD", "31.25", "0")

		lines, more, err := db.FundHistory(ctx, m, "all", 1, 20)
		if err != nil || more {
			t.Fatal(err)
		}
		var got []string
		for _, l := range lines {
			got = append(got, fmt.Sprintf("%s %s %s %s %s", l.Type, l.OrderNo, l.Currency, l.Amount, l.Status))
		}
		want := []string{
			"credit D9  -5 completed",
			"exchange X1 TWD -1000 completed",
			"exchange X1 USD 31.25 completed",
			"withdraw W2 TWD 1000 pending",
			"withdraw W1 TWD 3000 rejected",
			"deposit D1 TWD 5000 approved",
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("history\n%v\nwant\n%v", got, want)
		}
		if lines[0].Details["creditScore"] != "95" || lines[1].Details["rate"] != "0.03125" || lines[3].Details["cardLast4"] != "6789" ||
			lines[5].Details["creditScore"] != "" || lines[5].Details["channelName"] == "" {
			t.Fatalf("details %+v", lines)
		}
		for typ, n := range map[string]int{"deposit": 1, "withdraw": 2, "exchange": 2, "credit": 1} {
			if ls, _, _ := db.FundHistory(ctx, m, typ, 1, 20); len(ls) != n {
				t.Errorf("%s lines %d, want %d", typ, len(ls), n)
			}
		}
		if ls, more, _ := db.FundHistory(ctx, m, "all", 2, 4); len(ls) != 2 || more {
			t.Fatalf("page 2: %d lines, more %v", len(ls), more)
		}
		chs, err := WithdrawalChannels(ctx, db.Reader)
		if err != nil || len(chs) != 2 || chs[0].ID != "bank" || chs[0].Name != "Bank transfer" || !chs[0].Max.Equal(projtest.Dec("400000")) ||
			!chs[0].Enabled || chs[1].Enabled || chs[0].Window.Open != "09:00" {
			t.Fatalf("withdrawal channels %+v %v", chs, err)
		}
		projtest.NoDiffs(t, r.Runner)
		if err := r.Rebuild(ctx, "member_funds", nil); err != nil {
			t.Fatal(err)
		}
		if again, _, _ := db.FundHistory(ctx, m, "all", 1, 20); len(again) != len(lines) {
			t.Fatalf("after rebuild %d lines", len(again))
		}
	})
}
