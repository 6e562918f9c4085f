package projections

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/lotbook/lotbook/events"
)

func TestMemberFunds(t *testing.T) {
	backends(t, func(t *testing.T, e *env) {
		ctx := context.Background()
		db := e.open()
		r := e.run(db, nil)
		win := events.TimeWindow{Weekdays: []int{1, 2, 3, 4, 5}, Open: "09:00", Close: "17:00", TZ: "Asia/Taipei", ClosedOnHolidays: true}
		e.add(events.ConfigStream, "system",
			events.WithdrawalChannelConfigured{ID: "bank", Name: "Bank", Currency: "TWD", Min: dec("100"), Max: dec("500000"), Window: win, Enabled: true},
			events.WithdrawalChannelConfigured{ID: "wire", Name: "Wire", Currency: "USD", Min: dec("10"), Max: dec("1000"), Window: win})
		e.add(events.ConfigStream, "system",
			events.WithdrawalChannelConfigured{ID: "bank", Name: "Bank transfer", Currency: "TWD", Min: dec("100"), Max: dec("400000"), Window: win, Enabled: true})
		m := e.register("0912345678")
		other := e.register("0922222222")
		ms, as := events.MemberStream(m), events.AccountStream(m)

		e.add(ms, "member:0912345678", events.RealNameSubmitted{SubmissionID: "s1", Name: "王小明", IDNumberCipher: "v1:x",
			IDNumberKeyedHash: "h", IDNumberMasked: "A12****789", FrontFileID: "f1", BackFileID: "f2"})
		e.add(events.MemberStream(other), "member:0922222222", events.RealNameSubmitted{SubmissionID: "s2", Name: "陳大文",
			IDNumberCipher: "v1:y", IDNumberKeyedHash: "h2", IDNumberMasked: "B20****004", FrontFileID: "f3", BackFileID: "f4"})
		e.add(ms, "ops:ops", events.RealNameRejected{SubmissionID: "s1", Remark: "blurry"})
		e.add(ms, "member:0912345678", events.RealNameSubmitted{SubmissionID: "s3", Name: "王小明", IDNumberCipher: "v1:z",
			IDNumberKeyedHash: "h", IDNumberMasked: "A12****789", FrontFileID: "f5", BackFileID: "f6"})
		e.add(ms, "ops:ops", events.RealNameApproved{SubmissionID: "s3"})
		e.add(ms, "member:0912345678",
			events.BankCardBound{CardID: "c1", HolderName: "王小明", BankName: "BOT", Branch: "Taipei", BankCode: "004", CardNumberCipher: "v1:c", CardNumberKeyedHash: "k1", CardLast4: "6789"},
			events.BankCardBound{CardID: "c2", HolderName: "王小明", BankName: "BOT", Branch: "Taipei", BankCode: "004", CardNumberCipher: "v1:d", CardNumberKeyedHash: "k2", CardLast4: "1111", IFSC: "SBIN0001234"})
		e.add(ms, "member:0912345678", events.BankCardUnbound{CardID: "c2"})

		e.requestDeposit(m, "D1", "5000")
		e.approveDeposit(m, "D1", "5000")
		tr := func(from, to, amount string) []events.Posting { return events.Transfer(from, to, "TWD", dec(amount)) }
		e.add(as, "member:0912345678", events.WithdrawalRequested{OrderNo: "W1", ChannelID: "bank", ChannelName: "Bank", Currency: "TWD",
			Amount: dec("3000"), CardID: "c1", HolderName: "王小明", BankName: "BOT", Branch: "Taipei", BankCode: "004", CardLast4: "6789",
			Postings: tr(events.MemberAvailable(m), events.MemberFrozen(m), "3000")})
		e.add(as, "ops:ops", events.WithdrawalRejected{OrderNo: "W1", Currency: "TWD", Amount: dec("3000"), Remark: "card closed",
			Postings: tr(events.MemberFrozen(m), events.MemberAvailable(m), "3000")})
		e.add(as, "member:0912345678", events.WithdrawalRequested{OrderNo: "W2", ChannelID: "bank", ChannelName: "Bank", Currency: "TWD",
			Amount: dec("1000"), CardID: "c1", BankName: "BOT", CardLast4: "6789", Postings: tr(events.MemberAvailable(m), events.MemberFrozen(m), "1000")})
		e.add(as, "member:0912345678", events.ExchangeExecuted{OrderNo: "X1", QuoteID: "q", From: "TWD", To: "USD", FromAmount: dec("1000"),
			ToAmount: dec("31.25"), Rate: dec("0.03125"), Postings: append(tr(events.MemberAvailable(m), events.HouseExchangeClearing, "1000"),
				events.Transfer(events.HouseExchangeClearing, events.MemberAvailable(m), "USD", dec("31.25"))...)})
		e.add(as, "ops:ops", events.CreditScoreChanged{Delta: -5, Score: 95, Reason: "deposit_rejected", Ref: "D9", By: "ops:ops"})
		r.waitFor(t, e.head())

		rn, err := db.RealNameOf(ctx, m)
		if err != nil || rn.Status != events.RealNameStatusVerified || rn.SubmissionID != "s3" || rn.IDCipher != "v1:z" ||
			rn.Account != "0912345678" || rn.ReviewedBy != "ops:ops" || rn.FrontFileID != "f5" {
			t.Fatalf("realname %+v, %v", rn, err)
		}
		if _, err := db.RealNameOf(ctx, events.MemberID("0900000000")); !errors.Is(err, ErrNotFound) {
			t.Fatalf("no submission: %v", err)
		}
		q, more, err := db.RealNameQueue(ctx, events.RealNameStatusPending, 1, 10)
		if err != nil || more || len(q) != 1 || q[0].MemberID != other || q[0].IDMasked != "B20****004" {
			t.Fatalf("pending queue %+v %v", q, err)
		}
		st, err := db.RealNameStatuses(ctx, []string{m, other, "nobody"})
		if err != nil || st[m] != events.RealNameStatusVerified || st[other] != events.RealNameStatusPending || len(st) != 2 {
			t.Fatalf("statuses %v %v", st, err)
		}
		cards, err := db.CardsOf(ctx, m)
		if err != nil || len(cards) != 1 || cards[0].CardID != "c1" || cards[0].Last4 != "6789" {
			t.Fatalf("cards %+v %v", cards, err)
		}
		if cards, _ := db.CardsOf(ctx, other); len(cards) != 0 {
			t.Fatalf("other's cards %+v", cards)
		}

		w, err := db.WithdrawalByOrderNo(ctx, "W1")
		if err != nil || w.Status != events.ReviewRejected || w.Remark != "card closed" || w.Account != "0912345678" || w.HolderName != "王小明" {
			t.Fatalf("W1 %+v %v", w, err)
		}
		pending, _, err := db.WithdrawalQueue(ctx, events.ReviewPending, 1, 10)
		if err != nil || len(pending) != 1 || pending[0].OrderNo != "W2" || !pending[0].Amount.Equal(dec("1000")) {
			t.Fatalf("withdrawal queue %+v %v", pending, err)
		}
		if score, found, err := db.CreditScoreOf(ctx, m); err != nil || !found || score != 95 {
			t.Fatalf("score %d %v %v", score, found, err)
		}
		if _, found, _ := db.CreditScoreOf(ctx, other); found {
			t.Fatal("other has a score row")
		}
		mustBalance(t, db, m, "TWD", "3000", "1000")
		mustBalance(t, db, m, "USD", "31.25", "0")

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
		chs, err := db.WithdrawalChannels(ctx)
		if err != nil || len(chs) != 2 || chs[0].ID != "bank" || chs[0].Name != "Bank transfer" || !chs[0].Max.Equal(dec("400000")) ||
			!chs[0].Enabled || chs[1].Enabled || chs[0].Window.Open != "09:00" {
			t.Fatalf("withdrawal channels %+v %v", chs, err)
		}
		noDiffs(t, r.Runner)
		if err := r.Rebuild(ctx, "member_funds", nil); err != nil {
			t.Fatal(err)
		}
		if again, _, _ := db.FundHistory(ctx, m, "all", 1, 20); len(again) != len(lines) {
			t.Fatalf("after rebuild %d lines", len(again))
		}
	})
}
