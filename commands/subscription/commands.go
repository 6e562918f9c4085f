package subscription

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/commands/rules/draw"
	"github.com/lotbook/lotbook/commands/rules/ipo"
	"github.com/lotbook/lotbook/commands/rules/money"
	"github.com/lotbook/lotbook/commands/rules/secret"
	"github.com/lotbook/lotbook/events"
)

// twd is what issues are priced and paid in (the kernel no longer names a currency).
const twd = "TWD"

// Seeds gives an issue's draw seed (32 bytes in hex). It must be secret until the draw and the
// same on every instance.
type Seeds func(issueID string) string

// SealerSeeds derives each issue's seed as the keyed hash (HMAC-SHA256 under a key derived from
// LOTBOOK_SECRET_KEY) of its id.
func SealerSeeds(s *secret.Sealer) Seeds {
	return func(issueID string) string { return s.KeyedHash("subscription-draw-seed", issueID) }
}

// Commands are the subscription's commands over the kernel.
type Commands struct {
	k     *commands.Service
	seeds Seeds
}

// New returns the subscription's commands over the kernel k, with the issues' seeds.
func New(k *commands.Service, seeds Seeds) *Commands { return &Commands{k: k, seeds: seeds} }

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

// limits of a listing.
const (
	maxLots   = 10_000_000
	maxName   = 40
	maxSymbol = 12
)

// IssueID is the id of the issue of symbol whose window opens at opensAt: the code and the
// opening day (Asia/Taipei).
func IssueID(symbol string, opensAt time.Time) string {
	return symbol + "-" + opensAt.In(ipo.Taipei).Format("20060102")
}

// validIssueID guards stream names built from the ids the API passes on.
func validIssueID(id string) bool {
	sym, day, ok := strings.Cut(id, "-")
	if !ok || !validSymbol(sym) || len(day) != 8 {
		return false
	}
	_, err := time.Parse("20060102", day)
	return err == nil
}

func validSymbol(sym string) bool {
	if sym == "" || len(sym) > maxSymbol {
		return false
	}
	for i := 0; i < len(sym); i++ {
		if c := sym[i]; !(c >= '0' && c <= '9' || c >= 'A' && c <= 'Z') {
			return false
		}
	}
	return true
}

// validateListing turns ops' form into the listing event, or the first refusal.
func validateListing(in ListIssue) (events.SubscriptionIssueListed, error) {
	var e events.SubscriptionIssueListed
	if !validSymbol(in.Symbol) || in.Market == "" {
		return e, commands.Invalid(commands.KeySymbolNotFound)
	}
	name := strings.TrimSpace(in.Name)
	if name == "" || len([]rune(name)) > maxName {
		return e, commands.Invalid(commands.KeyInvalidRequest)
	}
	ds := make([]decimal.Decimal, 4)
	for i, s := range []string{in.Price, in.ReferencePrice, in.PE, in.IndustryPE} {
		d, err := money.ParseDecimal(s, 2)
		if err != nil {
			return e, commands.Invalid(commands.KeyPriceInvalid)
		}
		ds[i] = d
	}
	if in.UnitLots < 1 || in.Lots < in.UnitLots || in.Lots > maxLots || in.Lots%in.UnitLots != 0 {
		return e, commands.Invalid(commands.KeyQuantityInvalid)
	}
	cal := ipo.Calendar{OpensAt: in.OpensAt.UTC(), ClosesAt: in.ClosesAt.UTC(), DrawDate: in.DrawDate, DeductionDate: in.DeductionDate,
		RefundDate: in.RefundDate, ListingDate: in.ListingDate}
	if err := cal.Validate(); err != nil {
		return e, commands.Invalid(KeyCalendarInvalid)
	}
	return events.SubscriptionIssueListed{IssueID: IssueID(in.Symbol, in.OpensAt), Symbol: in.Symbol, Name: name, Market: in.Market,
		Currency: twd, Price: ds[0], ReferencePrice: ds[1], Lots: in.Lots, UnitLots: in.UnitLots, LotShares: LotShares,
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
	commitment, err := draw.Commitment(s.seeds(e.IssueID))
	if err != nil {
		return Listed{}, commands.Unavailable(err)
	}
	rec, err := commands.Execute(ctx, s.k, c, events.SubscriptionStream(e.IssueID), func(st *issue) ([]events.Payload, error) {
		return decideList(st, e, commitment)
	})
	if err != nil {
		return Listed{}, err
	}
	out := Listed{Position: rec.Position}
	for _, p := range rec.Payloads {
		switch ev := p.(type) {
		case events.SubscriptionIssueListed:
			out.IssueID = ev.IssueID
		case events.SubscriptionSeedCommitted:
			out.Commitment, out.Algorithm = ev.Commitment, ev.Algorithm
		}
	}
	return out, nil
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
	if !validIssueID(in.IssueID) {
		return Applied{}, commands.NotFound(KeyNotFound)
	}
	rec, err := commands.Execute(ctx, s.k, c, events.AccountStream(in.MemberID), func(a *commands.Account) ([]events.Payload, error) {
		m, err := commands.View(ctx, s.k, events.MemberStream(in.MemberID), func(m *commands.Member, _ *commands.Entry) memberFacts {
			return memberPart.Of(m).copy()
		})
		if err != nil {
			return nil, err
		}
		is, err := s.issueFacts(ctx, in.IssueID)
		if err != nil {
			return nil, err
		}
		no := a.FreeOrderNo(c.OrderNumbers(applicationPrefix, in.MemberID))
		return decideApply(applicationsPart.Of(a), a.Ledger, a.Balances[is.currency], m, is, in.Lots, c.Now, no)
	})
	if err != nil {
		return Applied{}, err
	}
	out := Applied{Position: rec.Position}
	for _, p := range rec.Payloads {
		if e, ok := p.(events.SubscriptionApplied); ok {
			out.ApplicationNo = e.ApplicationNo
		}
	}
	if b, ok := rec.Snapshot.(map[string]commands.Balance); ok {
		out.Cash = b[twd]
	}
	if out.ApplicationNo == "" {
		return Applied{}, commands.Unavailable(fmt.Errorf("application of %s to %s: no application recorded", in.MemberID, in.IssueID))
	}
	return out, nil
}

// Draw reveals the issue's seed and draws its winners over applications (the application
// numbers of the issue in the log; the process manager passes those it folded once caught up).
func (s *Commands) Draw(ctx context.Context, meta commands.Meta, issueID string, applications []string) (commands.Result, error) {
	c, err := s.k.Begin(meta, "subscription.draw")
	if err != nil {
		return commands.Result{}, err
	}
	if !validIssueID(issueID) {
		return commands.Result{}, commands.NotFound(KeyNotFound)
	}
	seed := s.seeds(issueID)
	rec, err := commands.Execute(ctx, s.k, c, events.SubscriptionStream(issueID), func(st *issue) ([]events.Payload, error) {
		return decideDraw(st, seed, applications, c.Now)
	})
	if err != nil {
		return commands.Result{}, err
	}
	return commands.Result{Position: rec.Position}, nil
}

// Step is one dated step (ipo.StepDeduct, StepRefund, StepAllot) for one application.
type Step struct {
	MemberID, IssueID, ApplicationNo, Step string
}

// RunStep runs a dated step for one application (see decideStep).
func (s *Commands) RunStep(ctx context.Context, meta commands.Meta, in Step) (commands.Result, error) {
	c, err := s.k.Begin(meta, "subscription."+in.Step)
	if err != nil {
		return commands.Result{}, err
	}
	if !commands.ValidMemberID(in.MemberID) || !validIssueID(in.IssueID) {
		return commands.Result{}, commands.NotFound(KeyNotFound)
	}
	rec, err := commands.Execute(ctx, s.k, c, events.AccountStream(in.MemberID), func(a *commands.Account) ([]events.Payload, error) {
		is, err := s.issueFacts(ctx, in.IssueID)
		if err != nil {
			return nil, err
		}
		return decideStep(applicationsPart.Of(a).byNo[in.ApplicationNo], in.ApplicationNo, a.Ledger, a.Balances[is.currency].Available, is, in.Step, c.Now)
	})
	if err != nil {
		return commands.Result{}, err
	}
	return commands.Result{Position: rec.Position}, nil
}
