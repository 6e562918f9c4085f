package funds

import (
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/commands/commandstest"
	"github.com/lotbook/lotbook/commands/rules/credit"
	"github.com/lotbook/lotbook/events"
)

var d = decimal.RequireFromString

// funded is an account with amount TWD available (approved deposit D0) plus extra events.
func funded(amount string, extra ...events.Payload) *commands.Account {
	a := commands.NewAccount("m1")
	ps := []events.Payload{
		events.DepositRequested{OrderNo: "D0", Currency: "TWD", Amount: d(amount)},
		events.DepositApproved{OrderNo: "D0", Currency: "TWD", Amount: d(amount), Postings: events.Transfer(events.HouseBankClearing, a.Available, "TWD", d(amount))},
	}
	return commandstest.Build(a, nil, append(ps, extra...)...)
}

func withdrawOK() withdrawalRequest {
	return withdrawalRequest{
		amount:     "3000",
		member:     withdrawFacts{registered: true, fundSet: true, card: &payoutCard{id: "c1", holder: "王小明", bankName: "Bank of Taiwan", last4: "6789"}},
		channel:    &events.WithdrawalChannelConfigured{ID: "bank", Name: "Bank transfer", Currency: "TWD", Min: d("100"), Max: d("500000"), Window: events.TimeWindow{AlwaysOpen: true}, Enabled: true},
		now:        commandstest.T0,
		verifyFund: func() error { return nil },
		orderNo:    func(n int) string { return []string{"W1", "W2", "W3"}[n] },
	}
}

func TestDecideWithdrawalRequest(t *testing.T) {
	with := func(f func(*withdrawalRequest)) withdrawalRequest { r := withdrawOK(); f(&r); return r }
	weekdays := events.TimeWindow{Weekdays: []int{1, 2, 3, 4, 5}, Open: "09:00", Close: "17:00", TZ: "Asia/Taipei", ClosedOnHolidays: true}
	pendingW := events.WithdrawalRequested{OrderNo: "W0", Currency: "TWD", Amount: d("10"), Postings: events.Transfer(events.MemberAvailable("m1"), events.MemberFrozen("m1"), "TWD", d("10"))}
	cases := []struct {
		name string
		a    *commands.Account
		r    withdrawalRequest
		key  string
	}{
		{"ok", funded("5000"), withdrawOK(), ""},
		{"whole balance", funded("3000"), withdrawOK(), ""},
		{"not a member", funded("5000"), with(func(r *withdrawalRequest) { r.member.registered = false }), commands.KeyAccountNotExist},
		{"disabled", funded("5000"), with(func(r *withdrawalRequest) { r.member.disabled = true }), commands.KeyAccountDisabled},
		{"frozen", funded("5000"), with(func(r *withdrawalRequest) { r.member.frozen = true }), commands.KeyAccountFrozen},
		{"banned", funded("5000"), with(func(r *withdrawalRequest) { r.member.banned = true }), commands.KeyWithdrawalBanned},
		{"no fund password", funded("5000"), with(func(r *withdrawalRequest) { r.member.fundSet = false }), commands.KeyFundPasswordNotSet},
		{"no such card", funded("5000"), with(func(r *withdrawalRequest) { r.member.card = nil }), commands.KeyCardNotFound},
		{"no channel", funded("5000"), with(func(r *withdrawalRequest) {
			r.channel, r.channelErr = nil, commands.NotFound(commands.KeyChannelNotFound)
		}), commands.KeyChannelNotFound},
		{"amount invalid", funded("5000"), with(func(r *withdrawalRequest) { r.amount = "1.234" }), commands.KeyAmountInvalid},
		{"below minimum", funded("5000"), with(func(r *withdrawalRequest) { r.amount = "99.99" }), commands.KeyAmountBelowMinimum},
		{"above maximum", funded("900000"), with(func(r *withdrawalRequest) { r.amount = "500000.01" }), commands.KeyAmountAboveMaximum},
		{"window closed (Monday 11:00 is open, 18:00 is not)", funded("5000"), with(func(r *withdrawalRequest) {
			r.channel.Window = weekdays
			r.now = commandstest.T0.Add(7 * time.Hour)
		}), commands.KeyWithdrawWindowClosed},
		{"window open", funded("5000"), with(func(r *withdrawalRequest) { r.channel.Window = weekdays }), ""},
		{"wrong fund password", funded("5000"), with(func(r *withdrawalRequest) {
			r.verifyFund = func() error { return commands.Rule(commands.KeyFundPasswordWrong) }
		}), commands.KeyFundPasswordWrong},
		{"too frequent", commandstest.Build(funded("5000"), nil, pendingW), withdrawOK(), commands.KeySubmitTooFrequent},
		{"withdrawal pending", commandstest.Build(funded("5000"), nil, pendingW), with(func(r *withdrawalRequest) { r.now = commandstest.T0.Add(31 * time.Second) }), commands.KeyFundOperationPending},
		{"deposit pending", funded("5000", events.DepositRequested{OrderNo: "D1", Currency: "TWD", Amount: d("1000")}), withdrawOK(), commands.KeyFundOperationPending},
		{"credit score too low", funded("5000", events.CreditScoreChanged{Delta: -41, Score: 59}), withdrawOK(), commands.KeyCreditScoreTooLow},
		{"credit score at threshold", funded("5000", events.CreditScoreChanged{Delta: -40, Score: 60}), withdrawOK(), ""},
		{"insufficient", funded("2999.99"), withdrawOK(), commands.KeyInsufficientBalance},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			evs, err := decideWithdrawalRequest(c.a, c.r)
			commandstest.WantKey(t, err, c.key)
			if c.key != "" {
				return
			}
			w := evs[0].(events.WithdrawalRequested)
			if w.OrderNo != "W1" || !w.Amount.Equal(d("3000")) || w.CardLast4 != "6789" || w.HolderName != "王小明" ||
				events.CheckBalanced(w.Postings) != nil || w.Postings[0].Account != events.MemberAvailable("m1") || w.Postings[1].Account != events.MemberFrozen("m1") {
				t.Fatalf("request %+v", w)
			}
		})
	}
	// The fund password is checked after the channel's rules and before the account's.
	checked := false
	r := with(func(r *withdrawalRequest) { r.verifyFund = func() error { checked = true; return nil }; r.amount = "1" })
	_, err := decideWithdrawalRequest(funded("5000"), r)
	commandstest.WantKey(t, err, commands.KeyAmountBelowMinimum)
	if checked {
		t.Fatal("fund password checked before the amount's limits")
	}
}

func TestWithdrawalReviewAndBalances(t *testing.T) {
	a := funded("5000")
	evs, err := decideWithdrawalRequest(a, withdrawOK())
	commandstest.WantKey(t, err, "")
	a = commandstest.Build(a, nil, evs...)
	if b := a.Balances["TWD"]; !b.Available.Equal(d("2000")) || !b.Frozen.Equal(d("3000")) {
		t.Fatalf("after request %+v", b)
	}
	rejected := commandstest.Build(funded("5000"), nil, evs...)
	rej, err := decideRejectWithdrawal(rejected, "W1", "card closed")
	commandstest.WantKey(t, err, "")
	rejected = commandstest.Build(rejected, nil, rej...)
	if b := rejected.Balances["TWD"]; !b.Available.Equal(d("5000")) || !b.Frozen.IsZero() {
		t.Fatalf("after reject %+v", b)
	}
	app, err := decideApproveWithdrawal(a, "W1", "")
	commandstest.WantKey(t, err, "")
	a = commandstest.Build(a, nil, app...)
	if b := a.Balances["TWD"]; !b.Available.Equal(d("2000")) || !b.Frozen.IsZero() {
		t.Fatalf("after approve %+v", b)
	}
	if p := app[0].(events.WithdrawalApproved).Postings; p[1].Account != events.HouseBankClearing || !p[1].Amount.Equal(d("3000")) {
		t.Fatalf("payout postings %+v", p)
	}
	_, err = decideApproveWithdrawal(a, "W1", "")
	commandstest.WantKey(t, err, commands.KeyOrderNotPending)
	_, err = decideRejectWithdrawal(a, "W1", "x")
	commandstest.WantKey(t, err, commands.KeyOrderNotPending)
	_, err = decideApproveWithdrawal(a, "D0", "")
	commandstest.WantKey(t, err, commands.KeyOrderNotFound)
}

func TestCreditChanges(t *testing.T) {
	a := funded("1000", events.DepositRequested{OrderNo: "D1", Currency: "TWD", Amount: d("1000")})
	evs, err := withCredit(decideRejectDeposit, credit.ReasonDepositRejected, "ops:ops")(a, "D1", "fake proof")
	commandstest.WantKey(t, err, "")
	if len(evs) != 2 {
		t.Fatalf("events %v", evs)
	}
	c := evs[1].(events.CreditScoreChanged)
	if c.Delta != -5 || c.Score != 95 || c.Reason != credit.ReasonDepositRejected || c.Ref != "D1" || c.By != "ops:ops" {
		t.Fatalf("credit change %+v", c)
	}
	a = commandstest.Build(a, nil, evs...)
	a = commandstest.Build(a, nil, events.DepositRequested{OrderNo: "D2", Currency: "TWD", Amount: d("1000")})
	evs, err = withCredit(decideApproveDeposit, credit.ReasonDepositApproved, "ops:ops")(a, "D2", "")
	commandstest.WantKey(t, err, "")
	if c := evs[1].(events.CreditScoreChanged); c.Delta != 1 || c.Score != 96 {
		t.Fatalf("credit change %+v", c)
	}
	// At the maximum an approval changes nothing, and says nothing.
	full := funded("1000", events.DepositRequested{OrderNo: "D3", Currency: "TWD", Amount: d("1000")})
	evs, _ = withCredit(decideApproveDeposit, credit.ReasonDepositApproved, "ops:ops")(full, "D3", "")
	if len(evs) != 1 {
		t.Fatalf("events at maximum %v", evs)
	}
}

func TestExchangeDecisions(t *testing.T) {
	for _, c := range []struct {
		from, to, amount, key string
	}{
		{"TWD", "USD", "1000", ""},
		{"TWD", "USD", "", commands.KeyAmountRequired},
		{"TWD", "EUR", "1", commands.KeyExchangeCurrencyInvalid},
		{"TWD", "TWD", "1", commands.KeyExchangeSameCurrency},
		{"TWD", "INR", "1", commands.KeyExchangePairUnsupported},
		{"USD", "INR", "1", ""},
		{"JPY", "USD", "1.5", commands.KeyAmountInvalid},
		{"TWD", "USD", "-1", commands.KeyAmountInvalid},
	} {
		_, err := validateExchange(c.from, c.to, c.amount)
		if c.key == "" && err == nil {
			continue
		}
		if c.key == "" || err == nil || err.Key != c.key {
			t.Errorf("validateExchange(%s, %s, %q) = %v, want %q", c.from, c.to, c.amount, err, c.key)
		}
	}

	member := exchangeFacts{registered: true}
	a := funded("1000")
	_, err := decideQuote(a, member, "q0", "TWD", "USD", d("1000.01"), d("0.03125"), commandstest.T0)
	commandstest.WantKey(t, err, commands.KeyInsufficientBalance)
	_, err = decideQuote(a, member, "q0", "TWD", "USD", d("0.01"), d("0.03125"), commandstest.T0)
	commandstest.WantKey(t, err, commands.KeyAmountBelowMinimum)
	_, err = decideQuote(a, exchangeFacts{registered: true, frozen: true}, "q0", "TWD", "USD", d("1"), d("0.03125"), commandstest.T0)
	commandstest.WantKey(t, err, commands.KeyAccountFrozen)
	evs, err := decideQuote(a, member, "q1", "TWD", "USD", d("999.99"), d("0.0312345"), commandstest.T0)
	commandstest.WantKey(t, err, "")
	q := evs[0].(events.ExchangeQuoted)
	if !q.ToAmount.Equal(d("31.23")) || !q.ExpiresAt.Equal(commandstest.T0.Add(30*time.Second)) {
		t.Fatalf("quote %+v (999.99 x 0.0312345 = 31.2344... rounds down to 31.23)", q)
	}
	a = commandstest.Build(a, nil, q)
	orderNo := func(int) string { return "X1" }

	_, err = decideExchange(a, member, "nope", commandstest.T0, orderNo)
	commandstest.WantKey(t, err, commands.KeyExchangeQuoteNotFound)
	_, err = decideExchange(a, member, "q1", commandstest.T0.Add(30*time.Second), orderNo)
	commandstest.WantKey(t, err, commands.KeyExchangeQuoteExpired)
	evs, err = decideExchange(a, member, "q1", commandstest.T0.Add(29*time.Second), orderNo)
	commandstest.WantKey(t, err, "")
	x := evs[0].(events.ExchangeExecuted)
	if err := events.CheckBalanced(x.Postings); err != nil || len(x.Postings) != 4 {
		t.Fatalf("postings %+v: %v", x.Postings, err)
	}
	a = commandstest.Build(a, nil, x)
	if twd, usd := a.Balances["TWD"], a.Balances["USD"]; !twd.Available.Equal(d("0.01")) || !usd.Available.Equal(d("31.23")) {
		t.Fatalf("balances TWD %+v USD %+v", twd, usd)
	}
	_, err = decideExchange(a, member, "q1", commandstest.T0, orderNo)
	commandstest.WantKey(t, err, commands.KeyExchangeQuoteUsed)

	// Another quote of the whole balance, then the balance shrinks before execution.
	b := funded("1000")
	evs, _ = decideQuote(b, member, "q2", "TWD", "JPY", d("1000"), d("4.6875"), commandstest.T0)
	if q := evs[0].(events.ExchangeQuoted); !q.ToAmount.Equal(d("4687")) {
		t.Fatalf("JPY quote %+v", q) // 4687.5 rounds down to whole yen
	}
	b = commandstest.Build(b, nil, evs[0], events.WithdrawalRequested{OrderNo: "W1", Currency: "TWD", Amount: d("1"),
		Postings: events.Transfer(b.Available, b.Frozen, "TWD", d("1"))})
	_, err = decideExchange(b, member, "q2", commandstest.T0, orderNo)
	commandstest.WantKey(t, err, commands.KeyInsufficientBalance)
}

func TestQuotesAreForgottenLongAfterExpiry(t *testing.T) {
	a := commands.NewAccount("m1")
	old := events.ExchangeQuoted{QuoteID: "old", ExpiresAt: commandstest.T0}
	fresh := events.ExchangeQuoted{QuoteID: "fresh", ExpiresAt: commandstest.T0.Add(2 * time.Hour)}
	a = commandstest.Build(a, []time.Time{commandstest.T0, commandstest.T0.Add(2 * time.Hour)}, old, fresh)
	if fundsPart.Of(a).quotes["old"] != nil || fundsPart.Of(a).quotes["fresh"] == nil {
		t.Fatalf("quotes %v", fundsPart.Of(a).quotes)
	}
	if len(fundsPart.Of(a).quotes) != 1 {
		t.Fatal("quotes kept")
	}
}
