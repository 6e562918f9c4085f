package subscription

import (
	"context"
	"errors"
	"time"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/commands/process/offering"
	"github.com/lotbook/lotbook/commands/rules/ipo"
	"github.com/lotbook/lotbook/commands/rules/money"
	"github.com/lotbook/lotbook/events"
)

// SeedDomain separates the lottery's draw seeds from every other keyed hash of the server's key.
const SeedDomain = "subscription-draw-seed"

// Commands are the subscription's commands over the kernel.
type Commands struct {
	k     *commands.Service
	seeds offering.Seeds
}

// New returns the subscription's commands over the kernel k. An issue's draw seed (32 bytes in
// hex) is the keyed hash (HMAC-SHA256 under a key derived from LOTBOOK_SECRET_KEY) of its id
// (offering.KernelSeeds): secret until the draw, the same on every instance.
func New(k *commands.Service) *Commands {
	return &Commands{k: k, seeds: offering.KernelSeeds(k, SeedDomain)}
}

// The lottery's calendar runs with every stack.
func init() {
	offering.Register(ProcessName, func(k *commands.Service) offering.Spec { return New(k).Spec() })
}

// seed is an issue's draw seed.
func (s *Commands) seed(issueID string) (string, error) {
	if seed := s.seeds(issueID); seed != "" {
		return seed, nil
	}
	return "", commands.Unavailable(errors.New("subscription: no secret key to derive draw seeds from"))
}

// ListIssue is ops' listing of an issue. Symbol is a code the caller has checked the market feed
// quotes (Market its market, Name its name unless ops gave one); decimals are strings as typed.
type ListIssue struct {
	Symbol, Name, Market                             string
	Price, ReferencePrice, PE, IndustryPE            string
	Lots, UnitLots                                   int64
	OpensAt, ClosesAt                                time.Time
	DrawDate, DeductionDate, RefundDate, ListingDate string
}

// Listed answers ListIssue.
type Listed struct {
	IssueID, Commitment, Algorithm string
	Position                       int64
}

// IssueID is the id of the issue of symbol whose window opens at opensAt: the code and the
// opening day (Asia/Taipei), as every offering's (offering.ID).
func IssueID(symbol string, opensAt time.Time) string { return offering.ID(symbol, opensAt) }

// validateListing turns ops' form into the listing event, or the first refusal.
func validateListing(in ListIssue) (events.SubscriptionIssueListed, error) {
	var e events.SubscriptionIssueListed
	name, err := offering.ValidSecurity(in.Symbol, in.Name, in.Market)
	if err != nil {
		return e, err
	}
	ds := make([]decimal.Decimal, 4)
	for i, s := range []string{in.Price, in.ReferencePrice, in.PE, in.IndustryPE} {
		d, err := money.ParseDecimal(s, 2)
		if err != nil {
			return e, commands.Invalid(commands.KeyPriceInvalid)
		}
		ds[i] = d
	}
	if in.UnitLots < 1 || in.Lots < in.UnitLots || in.Lots > offering.MaxLots || in.Lots%in.UnitLots != 0 {
		return e, commands.Invalid(commands.KeyQuantityInvalid)
	}
	cal := ipo.Calendar{OpensAt: in.OpensAt.UTC(), ClosesAt: in.ClosesAt.UTC(), DrawDate: in.DrawDate, DeductionDate: in.DeductionDate,
		RefundDate: in.RefundDate, ListingDate: in.ListingDate}
	if err := cal.Validate(); err != nil {
		return e, commands.Invalid(KeyCalendarInvalid)
	}
	return events.SubscriptionIssueListed{IssueID: IssueID(in.Symbol, in.OpensAt), Symbol: in.Symbol, Name: name, Market: in.Market,
		Currency: offering.Currency, Price: ds[0], ReferencePrice: ds[1], Lots: in.Lots, UnitLots: in.UnitLots, LotShares: LotShares,
		Fee: ProcessingFee, Postage: WinnerPostage, OpensAt: cal.OpensAt, ClosesAt: cal.ClosesAt, DrawDate: in.DrawDate,
		DeductionDate: in.DeductionDate, RefundDate: in.RefundDate, ListingDate: in.ListingDate, PE: ds[2], IndustryPE: ds[3]}, nil
}

// ListIssue lists an issue and commits to its seed.
func (s *Commands) ListIssue(ctx context.Context, meta commands.Meta, in ListIssue) (Listed, error) {
	c, err := s.k.Begin(meta, "subscription.list")
	if err != nil {
		return Listed{}, err
	}
	e, err := validateListing(in)
	if err != nil {
		return Listed{}, err
	}
	seed, pos, err := offering.List(ctx, s.k, c, s.seeds, e.IssueID, events.SubscriptionStream(e.IssueID),
		func(st *issue, seed events.OfferingSeed) ([]events.Payload, error) {
			return decideList(st, e, seed.Commitment)
		})
	if err != nil {
		return Listed{}, err
	}
	return Listed{IssueID: seed.OfferingID, Commitment: seed.Commitment, Algorithm: seed.Algorithm, Position: pos}, nil
}

// Apply is a member's application.
type Apply struct {
	MemberID, IssueID string
	Lots              int64
}

// Applied answers Apply: the application and the member's cash right after it.
type Applied struct {
	ApplicationNo string
	Position      int64
	Cash          commands.Balance
}

// issueFacts reads an issue's facts for an account's decision.
func (s *Commands) issueFacts(ctx context.Context, issueID string) (issueFacts, error) {
	return commands.View(ctx, s.k, events.SubscriptionStream(issueID), func(st *issue, _ *commands.Entry) issueFacts { return st.facts() })
}

// Apply applies for the issue's unit of lots, freezing the price and the fee.
func (s *Commands) Apply(ctx context.Context, meta commands.Meta, in Apply) (Applied, error) {
	c, err := s.k.Begin(meta, "subscription.apply")
	if err != nil {
		return Applied{}, err
	}
	if in.Lots == 0 {
		return Applied{}, commands.Invalid(commands.KeyQuantityRequired)
	}
	if !commands.ValidMemberID(in.MemberID) {
		return Applied{}, commands.NotFound(commands.KeyAccountNotExist)
	}
	if !offering.ValidID(in.IssueID) {
		return Applied{}, commands.NotFound(KeyNotFound)
	}
	e, err := offering.Enter(ctx, s.k, c, in.MemberID, applicationPrefix, memberPart, func(a *commands.Account, m offering.Member, no string) ([]events.Payload, error) {
		is, err := s.issueFacts(ctx, in.IssueID)
		if err != nil {
			return nil, err
		}
		return decideApply(applicationsPart.Of(a), a.Ledger, a.Balances[is.currency], m, is, in.Lots, c.Now, no)
	}, func(p events.Payload) string {
		e, _ := p.(events.SubscriptionApplied)
		return e.ApplicationNo
	})
	if err != nil {
		return Applied{}, err
	}
	return Applied{ApplicationNo: e.No, Position: e.Position, Cash: e.Cash}, nil
}

// Draw reveals the issue's seed and draws its winners over entries (the applications of the
// issue the process folded once caught up, with their members).
func (s *Commands) Draw(ctx context.Context, meta commands.Meta, issueID string, entries []offering.Entry) (commands.Result, error) {
	c, err := s.k.Begin(meta, "subscription.draw")
	if err != nil {
		return commands.Result{}, err
	}
	if !offering.ValidID(issueID) {
		return commands.Result{}, commands.NotFound(KeyNotFound)
	}
	seed, err := s.seed(issueID)
	if err != nil {
		return commands.Result{}, err
	}
	rec, err := commands.Execute(ctx, s.k, c, events.SubscriptionStream(issueID), func(st *issue) ([]events.Payload, error) {
		return decideDraw(st, seed, entries, c.Now)
	})
	if err != nil {
		return commands.Result{}, err
	}
	return commands.Result{Position: rec.Position}, nil
}

// step runs a dated step (ipo.StepDeduct, StepRefund, StepAllot) for one application (see
// decideStep).
func (s *Commands) step(step string) func(ctx context.Context, meta commands.Meta, e offering.Entry) (commands.Result, error) {
	return func(ctx context.Context, meta commands.Meta, e offering.Entry) (commands.Result, error) {
		return offering.Step(ctx, s.k, meta, "subscription."+step, e, s.issueFacts, func(a *commands.Account, is issueFacts, now time.Time) ([]events.Payload, error) {
			return decideStep(applicationsPart.Of(a).byNo[e.No], e.No, a.Ledger, a.Balances[is.currency].Available, is, step, now)
		})
	}
}

// ProcessName names the lottery's process (its calendar): checkpoint, metrics, command ids.
const ProcessName = "subscription-calendar"

// Spec is the lottery for the offering process: the draw on the draw date (ipo.StepDraw), then
// each application's dated steps: the winners' deduction, the refunds (losers, and winners
// unpaid at the deduction: waived), the paid winners' allotment on the listing date. A step's
// command checks its published time itself.
func (s *Commands) Spec() offering.Spec {
	return offering.Spec{Name: ProcessName, Prefix: "Subscription", Fold: fold, ResultStep: ipo.StepDraw, Result: s.Draw,
		Steps: []offering.EntryStep{
			{Name: ipo.StepDeduct, Concerns: func(p offering.Progress) bool { return p.Won }, Run: s.step(ipo.StepDeduct)},
			// A winner is refunded (waived) only once its deduction is recorded unpaid.
			{Name: ipo.StepRefund, Concerns: func(p offering.Progress) bool { return !p.Won || p.Done(ipo.StepDeduct) && !p.Paid },
				Run: s.step(ipo.StepRefund)},
			{Name: ipo.StepAllot, Concerns: func(p offering.Progress) bool { return p.Paid }, Run: s.step(ipo.StepAllot)},
		}}
}

// fold is what the lottery's events mean to the process.
func fold(p events.Payload) offering.Fact {
	switch e := p.(type) {
	case events.SubscriptionIssueListed:
		cal := ipo.Calendar{OpensAt: e.OpensAt, ClosesAt: e.ClosesAt, DrawDate: e.DrawDate, DeductionDate: e.DeductionDate,
			RefundDate: e.RefundDate, ListingDate: e.ListingDate}
		at := map[string]time.Time{}
		for _, step := range ipo.Steps[1:] {
			at[step] = cal.At(step)
		}
		return offering.Fact{Kind: offering.Offered, Offering: e.IssueID, ResultAt: cal.At(ipo.StepDraw), At: at}
	case events.SubscriptionApplied:
		return offering.Fact{Kind: offering.Entered, Offering: e.IssueID, No: e.ApplicationNo}
	case events.SubscriptionDrawn:
		return offering.Fact{Kind: offering.Resulted, Offering: e.IssueID, Won: e.Winners}
	case events.SubscriptionPaid:
		return offering.Fact{Kind: offering.Done, Step: ipo.StepDeduct, Offering: e.IssueID, No: e.ApplicationNo, Paid: true}
	case events.SubscriptionUnpaid:
		return offering.Fact{Kind: offering.Done, Step: ipo.StepDeduct, Offering: e.IssueID, No: e.ApplicationNo}
	case events.SubscriptionRefunded:
		return offering.Fact{Kind: offering.Done, Step: ipo.StepRefund, Offering: e.IssueID, No: e.ApplicationNo}
	case events.SubscriptionAllotted:
		return offering.Fact{Kind: offering.Done, Step: ipo.StepAllot, Offering: e.IssueID, No: e.ApplicationNo}
	}
	return offering.Fact{}
}
