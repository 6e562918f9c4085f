package commands

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

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
func (s *Service) RequestWithdrawal(ctx context.Context, meta Meta, memberID string, in WithdrawalInput) (OrderResult, error) {
	c, err := s.Begin(meta, "withdrawal.request")
	if err != nil {
		return OrderResult{}, err
	}
	switch {
	case in.Amount == "":
		return OrderResult{}, Invalid(KeyAmountRequired)
	case in.CardID == "":
		return OrderResult{}, Invalid(KeyCardRequired)
	case in.FundPassword == "":
		return OrderResult{}, Invalid(KeyFundPasswordRequired)
	}
	if !ValidMemberID(memberID) {
		return OrderResult{}, NotFound(KeyAccountNotExist)
	}
	// Lock order as for deposits: account, then member or config, one at a time.
	rec, err := Execute(ctx, s, c, events.AccountStream(memberID), func(a *Account) ([]events.Payload, error) {
		facts, err := View(ctx, s, events.MemberStream(memberID), func(m *Member, _ *Entry) withdrawFacts {
			f := withdrawFacts{
				registered: m.registered && m.role == events.RoleMember,
				disabled:   m.flags[events.FlagDisabled],
				frozen:     m.flags[events.FlagFrozen],
				banned:     m.flags[events.FlagWithdrawalBanned],
				fundSet:    m.fundHash != "",
			}
			if card := m.cards[in.CardID]; card != nil {
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
			err *Error
		}
		ch, err := View(ctx, s, events.ConfigStream, func(cfg *configState, _ *Entry) found {
			ch, e := cfg.withdrawalChannel()
			return found{ch, e}
		})
		if err != nil {
			return nil, err
		}
		return decideWithdrawalRequest(a, withdrawalRequest{
			amount: in.Amount, member: facts, channel: ch.ch, channelErr: ch.err, now: c.Now, cal: s.cal,
			verifyFund: func() error {
				rec, err := s.MemberCommand(ctx, c, memberID, func(m *Member) ([]events.Payload, error) {
					return decideVerifyFundPassword(m, in.FundPassword, c.Now, s.verify)
				})
				if err != nil {
					return err
				}
				if e := fundRefusal(rec); e != nil {
					return e
				}
				return nil
			},
			orderNo: c.OrderNumbers(withdrawalOrderPrefix, memberID),
		})
	})
	if err != nil {
		return OrderResult{}, err
	}
	return orderAnswer(rec, events.ReviewPending)
}

// Withdrawable is, per currency the app exchanges, the most a withdrawal would accept now (the
// amount check of RequestWithdrawal, before the channel's limits): what the withdraw screen shows.
func (s *Service) Withdrawable(ctx context.Context, memberID string) (map[string]decimal.Decimal, error) {
	if !ValidMemberID(memberID) {
		return nil, NotFound(KeyAccountNotExist)
	}
	now := s.clock().UTC()
	return View(ctx, s, events.AccountStream(memberID), func(a *Account, _ *Entry) map[string]decimal.Decimal {
		out := make(map[string]decimal.Decimal, len(fx.Currencies))
		for _, cur := range fx.Currencies {
			out[cur] = withdrawable(a, cur, now)
		}
		return out
	})
}

// ValueIn is the worth in currency to of a member's cash in several currencies at the rates an
// exchange would be quoted now (fx.Value over this service's feed).
func (s *Service) ValueIn(to string, amounts map[string]decimal.Decimal) (decimal.Decimal, error) {
	v, err := fx.Value(s.rates, amounts, to, s.clock().UTC())
	if err != nil {
		return decimal.Decimal{}, Unavailable(err)
	}
	return v, nil
}

// ApproveWithdrawal pays a pending withdrawal out to bank clearing (ops).
func (s *Service) ApproveWithdrawal(ctx context.Context, meta Meta, in ReviewOrder) (OrderResult, error) {
	return s.review(ctx, meta, "withdrawal.approve", in.MemberID, in.OrderNo, in.Remark, events.ReviewApproved, decideApproveWithdrawal)
}

// RejectWithdrawal releases a pending withdrawal's frozen amount (ops); the remark is required.
func (s *Service) RejectWithdrawal(ctx context.Context, meta Meta, in ReviewOrder) (OrderResult, error) {
	r, e := CleanRemark(in.Remark)
	if e != nil {
		return OrderResult{}, e
	}
	if r == "" {
		return OrderResult{}, Invalid(KeyRemarkRequired)
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
	Balances             map[string]Balance
}

// quoteNamespace roots quote ids, derived from the quoting command's id.
var quoteNamespace = uuid.MustParse("4a7d2c90-1e6b-5c38-9f05-b8e1d3a6c247")

func (s *Service) exchangeFacts(ctx context.Context, memberID string) (exchangeFacts, error) {
	return View(ctx, s, events.MemberStream(memberID), func(m *Member, _ *Entry) exchangeFacts {
		return exchangeFacts{registered: m.registered && m.role == events.RoleMember,
			disabled: m.flags[events.FlagDisabled], frozen: m.flags[events.FlagFrozen]}
	})
}

// QuoteExchange locks the feed's current rate for 30 seconds (an ExchangeQuoted event on the
// account stream, so that any API instance can execute it). No fee is charged.
func (s *Service) QuoteExchange(ctx context.Context, meta Meta, memberID string, in QuoteInput) (Quote, error) {
	c, err := s.Begin(meta, "exchange.quote")
	if err != nil {
		return Quote{}, err
	}
	amount, e := validateExchange(in.From, in.To, in.Amount)
	if e != nil {
		return Quote{}, e
	}
	if !ValidMemberID(memberID) {
		return Quote{}, NotFound(KeyAccountNotExist)
	}
	rate, err := s.rates.Rate(in.From, in.To, c.Now)
	if err != nil {
		return Quote{}, Unavailable(err)
	}
	quoteID := uuid.NewSHA1(quoteNamespace, []byte(c.CommandID)).String()
	rec, err := Execute(ctx, s, c, events.AccountStream(memberID), func(a *Account) ([]events.Payload, error) {
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
	return Quote{}, KeyReused()
}

// Exchange is a member's conversion at a quote the member holds.
type Exchange struct{ MemberID, QuoteID string }

// Exchange converts at a quote the member holds, before it expires.
func (s *Service) Exchange(ctx context.Context, meta Meta, in Exchange) (ExchangeResult, error) {
	memberID, quoteID := in.MemberID, in.QuoteID
	c, err := s.Begin(meta, "exchange.execute")
	if err != nil {
		return ExchangeResult{}, err
	}
	if quoteID == "" || len(quoteID) > 64 {
		return ExchangeResult{}, NotFound(KeyExchangeQuoteNotFound)
	}
	if !ValidMemberID(memberID) {
		return ExchangeResult{}, NotFound(KeyAccountNotExist)
	}
	rec, err := Execute(ctx, s, c, events.AccountStream(memberID), func(a *Account) ([]events.Payload, error) {
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
			if b, ok := rec.Snapshot.(map[string]Balance); ok {
				out.Balances = b
			}
			return out, nil
		}
	}
	return ExchangeResult{}, KeyReused()
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
