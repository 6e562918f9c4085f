package funds

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/commands/fx"
	"github.com/lotbook/lotbook/commands/rules/credit"
	"github.com/lotbook/lotbook/events"
)

// WithdrawalInput is a member's withdrawal request.
type WithdrawalInput struct {
	Amount, CardID, FundPassword string
}

// RequestWithdrawal freezes the amount for ops to pay out to the member's card. The fund
// password is checked with the lock rules of VerifyFundPassword (a wrong one is recorded on the
// member stream even though the withdrawal is refused).
func (s *Commands) RequestWithdrawal(ctx context.Context, meta commands.Meta, memberID string, in WithdrawalInput) (OrderResult, error) {
	c, err := s.k.Begin(meta, "withdrawal.request")
	if err != nil {
		return OrderResult{}, err
	}
	switch {
	case in.Amount == "":
		return OrderResult{}, commands.Invalid(commands.KeyAmountRequired)
	case in.CardID == "":
		return OrderResult{}, commands.Invalid(commands.KeyCardRequired)
	case in.FundPassword == "":
		return OrderResult{}, commands.Invalid(commands.KeyFundPasswordRequired)
	}
	if !commands.ValidMemberID(memberID) {
		return OrderResult{}, commands.NotFound(commands.KeyAccountNotExist)
	}
	// Lock order as for deposits: account, then member or config, one at a time.
	rec, err := commands.Execute(ctx, s.k, c, events.AccountStream(memberID), func(a *commands.Account) ([]events.Payload, error) {
		facts, err := commands.View(ctx, s.k, events.MemberStream(memberID), func(m *commands.Member, _ *commands.Entry) withdrawFacts {
			f := withdrawFacts{
				registered: m.IsMember(),
				disabled:   m.Flag(events.FlagDisabled),
				frozen:     m.Flag(events.FlagFrozen),
				banned:     m.Flag(events.FlagWithdrawalBanned),
				fundSet:    m.FundPasswordSet(),
			}
			if card := cardsPart.Of(m).byID[in.CardID]; card != nil {
				cp := *card
				f.card = &cp
			}
			return f
		})
		if err != nil {
			return nil, err
		}
		type found struct {
			ch  *events.WithdrawalChannelConfigured
			err *commands.Error
		}
		ch, err := commands.View(ctx, s.k, events.ConfigStream, func(cfg *commands.Config, _ *commands.Entry) found {
			ch, e := channelsPart.Of(cfg).withdrawalChannel()
			return found{ch, e}
		})
		if err != nil {
			return nil, err
		}
		return decideWithdrawalRequest(a, withdrawalRequest{
			amount: in.Amount, member: facts, channel: ch.ch, channelErr: ch.err, now: c.Now, cal: s.k.Calendar(),
			verifyFund: func() error { return s.k.CheckFundPassword(ctx, c, memberID, in.FundPassword) },
			orderNo:    c.OrderNumbers(withdrawalOrderPrefix, memberID),
		})
	})
	if err != nil {
		return OrderResult{}, err
	}
	return orderAnswer(rec, events.ReviewPending)
}

// Withdrawable is, per currency the app exchanges, the most a withdrawal would accept now (the
// amount check of RequestWithdrawal, before the channel's limits): what the withdraw screen shows.
func (s *Commands) Withdrawable(ctx context.Context, memberID string) (map[string]decimal.Decimal, error) {
	if !commands.ValidMemberID(memberID) {
		return nil, commands.NotFound(commands.KeyAccountNotExist)
	}
	now := s.k.Now().UTC()
	return commands.View(ctx, s.k, events.AccountStream(memberID), func(a *commands.Account, _ *commands.Entry) map[string]decimal.Decimal {
		out := make(map[string]decimal.Decimal, len(fx.Currencies))
		for _, cur := range fx.Currencies {
			out[cur] = withdrawable(a, cur, now)
		}
		return out
	})
}

// ApproveWithdrawal pays a pending withdrawal out to bank clearing (ops).
func (s *Commands) ApproveWithdrawal(ctx context.Context, meta commands.Meta, in ReviewOrder) (OrderResult, error) {
	return s.review(ctx, meta, "withdrawal.approve", in.MemberID, in.OrderNo, in.Remark, events.ReviewApproved, decideApproveWithdrawal)
}

// RejectWithdrawal releases a pending withdrawal's frozen amount (ops); the remark is required.
func (s *Commands) RejectWithdrawal(ctx context.Context, meta commands.Meta, in ReviewOrder) (OrderResult, error) {
	r, e := commands.CleanRemark(in.Remark)
	if e != nil {
		return OrderResult{}, e
	}
	if r == "" {
		return OrderResult{}, commands.Invalid(commands.KeyRemarkRequired)
	}
	return s.review(ctx, meta, "withdrawal.reject", in.MemberID, in.OrderNo, r, events.ReviewRejected, decideRejectWithdrawal)
}

// QuoteInput asks for an exchange rate.
type QuoteInput struct {
	From, To, Amount string
}

// Quote is a locked exchange rate.
type Quote struct {
	QuoteID, From, To string
	Amount, Rate      decimal.Decimal
	ToAmount          decimal.Decimal
	ExpiresAt         time.Time
	Position          int64
}

// ExchangeResult is an executed exchange with the member's balances right after it.
type ExchangeResult struct {
	OrderNo, From, To    string
	FromAmount, ToAmount decimal.Decimal
	Rate                 decimal.Decimal
	Position             int64
	Balances             map[string]commands.Balance
}

// quoteNamespace roots quote ids, derived from the quoting command's id.
var quoteNamespace = uuid.MustParse("4a7d2c90-1e6b-5c38-9f05-b8e1d3a6c247")

func (s *Commands) exchangeFacts(ctx context.Context, memberID string) (exchangeFacts, error) {
	return commands.View(ctx, s.k, events.MemberStream(memberID), func(m *commands.Member, _ *commands.Entry) exchangeFacts {
		return exchangeFacts{registered: m.IsMember(),
			disabled: m.Flag(events.FlagDisabled), frozen: m.Flag(events.FlagFrozen)}
	})
}

// QuoteExchange locks the feed's current rate for 30 seconds (an ExchangeQuoted event on the
// account stream, so that any API instance can execute it). No fee is charged.
func (s *Commands) QuoteExchange(ctx context.Context, meta commands.Meta, memberID string, in QuoteInput) (Quote, error) {
	c, err := s.k.Begin(meta, "exchange.quote")
	if err != nil {
		return Quote{}, err
	}
	amount, e := validateExchange(in.From, in.To, in.Amount)
	if e != nil {
		return Quote{}, e
	}
	if !commands.ValidMemberID(memberID) {
		return Quote{}, commands.NotFound(commands.KeyAccountNotExist)
	}
	rate, err := s.k.Rates().Rate(in.From, in.To, c.Now)
	if err != nil {
		return Quote{}, commands.Unavailable(err)
	}
	quoteID := uuid.NewSHA1(quoteNamespace, []byte(c.CommandID)).String()
	rec, err := commands.Execute(ctx, s.k, c, events.AccountStream(memberID), func(a *commands.Account) ([]events.Payload, error) {
		f, err := s.exchangeFacts(ctx, memberID)
		if err != nil {
			return nil, err
		}
		return decideQuote(a, f, quoteID, in.From, in.To, amount, rate, c.Now)
	})
	if err != nil {
		return Quote{}, err
	}
	for _, p := range rec.Payloads {
		if q, ok := p.(events.ExchangeQuoted); ok {
			return Quote{QuoteID: q.QuoteID, From: q.From, To: q.To, Amount: q.Amount, Rate: q.Rate, ToAmount: q.ToAmount,
				ExpiresAt: q.ExpiresAt, Position: rec.Position}, nil
		}
	}
	return Quote{}, commands.KeyReused()
}

// Exchange is a member's conversion at a quote the member holds.
type Exchange struct{ MemberID, QuoteID string }

// Exchange converts at a quote the member holds, before it expires.
func (s *Commands) Exchange(ctx context.Context, meta commands.Meta, in Exchange) (ExchangeResult, error) {
	memberID, quoteID := in.MemberID, in.QuoteID
	c, err := s.k.Begin(meta, "exchange.execute")
	if err != nil {
		return ExchangeResult{}, err
	}
	if quoteID == "" || len(quoteID) > 64 {
		return ExchangeResult{}, commands.NotFound(commands.KeyExchangeQuoteNotFound)
	}
	if !commands.ValidMemberID(memberID) {
		return ExchangeResult{}, commands.NotFound(commands.KeyAccountNotExist)
	}
	rec, err := commands.Execute(ctx, s.k, c, events.AccountStream(memberID), func(a *commands.Account) ([]events.Payload, error) {
		f, err := s.exchangeFacts(ctx, memberID)
		if err != nil {
			return nil, err
		}
		return decideExchange(a, f, quoteID, c.Now, c.OrderNumbers(exchangeOrderPrefix, memberID))
	})
	if err != nil {
		return ExchangeResult{}, err
	}
	for _, p := range rec.Payloads {
		if x, ok := p.(events.ExchangeExecuted); ok && x.QuoteID == quoteID {
			out := ExchangeResult{OrderNo: x.OrderNo, From: x.From, To: x.To, FromAmount: x.FromAmount, ToAmount: x.ToAmount,
				Rate: x.Rate, Position: rec.Position}
			if b, ok := rec.Snapshot.(map[string]commands.Balance); ok {
				out.Balances = b
			}
			return out, nil
		}
	}
	return ExchangeResult{}, commands.KeyReused()
}

// CreditRule is the published credit-score rule the app shows.
type CreditRule struct {
	Start, Min, Max, WithdrawThreshold int
	Changes                            []credit.Change
}

// PublishedCreditRule returns the rule commands apply (commands/rules/credit).
func PublishedCreditRule() CreditRule {
	return CreditRule{Start: credit.Start, Min: credit.Min, Max: credit.Max, WithdrawThreshold: credit.WithdrawThreshold,
		Changes: append([]credit.Change(nil), credit.Changes...)}
}
