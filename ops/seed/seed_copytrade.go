package seed

import (
	"context"
	"fmt"
	"strings"

	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/commands/copytrade"
	"github.com/lotbook/lotbook/commands/funds"
	"github.com/lotbook/lotbook/commands/quant"
	"github.com/lotbook/lotbook/commands/trading"
	"github.com/lotbook/lotbook/events"
)

// DemoMentor is one of the demo's mentors: a member (password MemberPassword, fund password
// FundPassword) that deposits Deposit, opts in with its profile and trades RoundTrips lots of
// Symbol bought and sold again at market, then keeps OpenLots lots open; its statistics and level
// are computed from those fills.
type DemoMentor struct {
	Account, Name, Deposit, MinAmount, ProfitShare string
	WindowDays, RoundTrips, OpenLots               int
	Symbol                                         string
}

// Mentors are the demo's mentors (README lists them).
var Mentors = []DemoMentor{
	{Account: "0966000011", Name: "Mentor Lin", Deposit: "1000000", MinAmount: "50000", ProfitShare: "10", WindowDays: 30,
		RoundTrips: 6, OpenLots: 2, Symbol: "2884"},
	{Account: "0966000012", Name: "Mentor Chen", Deposit: "300000", MinAmount: "10000", ProfitShare: "5", WindowDays: 14,
		RoundTrips: 3, OpenLots: 1, Symbol: "2882"},
	{Account: "0966000013", Name: "Mentor Wang", Deposit: "100000", MinAmount: "1000", ProfitShare: "0", WindowDays: 7,
		RoundTrips: 1, OpenLots: 1, Symbol: "2884"},
}

// QuantAccount is the demo's AI quant subscriber: it deposits NT$300,000 and subscribes
// NT$150,000 to the first published product.
const QuantAccount = "0966000021"

func init() { Register("quant", demoQuant) }

// demoMember registers account with the demo passwords and, once, deposits amount through the
// demo channel, approved by ops.
func demoMember(ctx context.Context, k *commands.Service, account, amount string) (string, error) {
	_, err := k.Register(ctx, meta(account+":member"), commands.RegisterInput{
		Account: account, Password: MemberPassword, ConfirmPassword: MemberPassword, InviteCode: InviteCode,
	})
	if err != nil && !alreadyDone(err, "account_exists") {
		return "", fmt.Errorf("member %s: %w", account, err)
	}
	member := events.MemberID(account)
	_, err = k.SetFundPassword(ctx, meta(account+":fund-password"), commands.SetFundPassword{MemberID: member, LoginPassword: MemberPassword,
		FundPassword: FundPassword, Confirm: FundPassword})
	if err != nil && !alreadyDone(err, "fund_password_already_set") {
		return "", fmt.Errorf("fund password of %s: %w", account, err)
	}
	file := events.FileUploaded{FileID: strings.Repeat("d0", 32), ContentType: "image/png", Size: 10, Width: 1, Height: 1}
	if _, err := k.RecordUpload(ctx, meta(account+":proof"), member, file); err != nil {
		return "", fmt.Errorf("deposit proof of %s: %w", account, err)
	}
	f := funds.New(k)
	r, err := f.RequestDeposit(ctx, meta(account+":deposit"), member, funds.DepositInput{
		ChannelID: ChannelID, Amount: amount, ProofFileID: file.FileID, ChannelPassword: ChannelPassword,
	})
	if err != nil {
		return "", fmt.Errorf("deposit of %s: %w", account, err)
	}
	_, err = f.ApproveDeposit(ctx, meta(account+":deposit:approve"), funds.ReviewOrder{MemberID: member, OrderNo: r.OrderNo, Remark: "demo"})
	if err != nil && !alreadyDone(err, commands.KeyOrderNotPending) {
		return "", fmt.Errorf("approve deposit of %s: %w", account, err)
	}
	return member, nil
}

// SeedMentors seeds the demo's mentors with real fills: every order goes through trading's
// commands at market against view, the simulated market's view of a symbol (the demo market
// trades around the clock). Every command is keyed, so a later start places nothing again.
func SeedMentors(ctx context.Context, k *commands.Service, view func(symbol string) trading.Market) error {
	tr := trading.New(k, trading.TradingRules{})
	ct := copytrade.New(k)
	for _, m := range Mentors {
		member, err := demoMember(ctx, k, m.Account, m.Deposit)
		if err != nil {
			return fmt.Errorf("seed: mentor: %w", err)
		}
		_, err = ct.SetProfile(ctx, meta(m.Account+":mentor"), member, copytrade.ProfileInput{DisplayName: m.Name, MinAmount: m.MinAmount,
			ProfitShare: m.ProfitShare, WindowDays: m.WindowDays})
		if err != nil {
			return fmt.Errorf("seed: mentor profile of %s: %w", m.Account, err)
		}
		for i := range m.RoundTrips + m.OpenLots {
			step := fmt.Sprintf("%s:trade:%d", m.Account, i)
			r, err := tr.PlaceOrder(ctx, meta(step+":buy"), member, trading.OrderInput{Symbol: m.Symbol, Direction: events.DirectionLong,
				Type: events.OrderMarket, Lots: 1}, view(m.Symbol))
			if err != nil {
				return fmt.Errorf("seed: mentor %s buys %s: %w", m.Account, m.Symbol, err)
			}
			if i >= m.RoundTrips || r.PositionID == "" {
				continue
			}
			_, err = tr.ClosePosition(ctx, meta(step+":sell"), trading.ClosePosition{MemberID: member, PositionID: r.PositionID,
				Close: trading.CloseInput{Type: events.OrderMarket}, Market: view(m.Symbol)})
			if err != nil && !alreadyDone(err, commands.KeyPositionNotFound) {
				return fmt.Errorf("seed: mentor %s sells %s: %w", m.Account, m.Symbol, err)
			}
		}
	}
	return nil
}

// demoQuant seeds the AI quant subscriber and its one subscription; keyed, so once.
func demoQuant(ctx context.Context, env Env) error {
	member, err := demoMember(ctx, env.Kernel, QuantAccount, "300000")
	if err != nil {
		return err
	}
	if _, err := quant.New(env.Kernel).Subscribe(ctx, meta(QuantAccount+":subscribe"), member, quant.Subscribe{Product: "momentum-0050", Amount: "150000"}); err != nil {
		return fmt.Errorf("quant subscription of %s: %w", QuantAccount, err)
	}
	return nil
}
