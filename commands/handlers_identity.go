package commands

import (
	"context"
	"errors"
	"strings"

	"github.com/google/uuid"

	banking "github.com/lotbook/lotbook/commands/rules/bank"
	"github.com/lotbook/lotbook/commands/rules/identity"
	"github.com/lotbook/lotbook/events"
)

// RealNameInput is a member's identity verification form.
type RealNameInput struct {
	Name, IDNumber, FrontFileID, BackFileID string
}

// CardInput is a member's bank card form. IFSC and UPI are optional.
type CardInput struct {
	HolderName, BankName, Branch, CardNumber, BankCode, IFSC, UPI string
}

// CardResult answers a card binding.
type CardResult struct {
	CardID, Last4 string
	Position      int64
}

// ReviewResult answers an ops decision on an identity submission.
type ReviewResult struct {
	Status   string // events.RealNameStatusVerified or ...Rejected
	Position int64
}

// Keyed-hash domains and seal contexts of personal numbers: a sealed ID number opens only as the
// ID number of the member it was sealed for.
const (
	idNumberDomain = "idnumber"
	cardDomain     = "card"
)

// SealContextIDNumber is the context a member's ID number is sealed under, for the readers that
// may open it (ops reviewing an identity).
func SealContextIDNumber(memberID string) string { return idNumberDomain + ":" + memberID }

// SealContextCard is the context a member's card numbers are sealed under.
func SealContextCard(memberID string) string { return cardDomain + ":" + memberID }

// fieldLimit bounds free-text fields of the forms (characters).
const fieldLimit = 64

func tooLong(fields ...string) bool {
	for _, f := range fields {
		if len([]rune(f)) > fieldLimit {
			return true
		}
	}
	return false
}

func validateRealName(in RealNameInput) (name, id string, err *Error) {
	name = identity.NormalizeName(in.Name)
	id = strings.ToUpper(strings.TrimSpace(in.IDNumber))
	switch {
	case name == "":
		return "", "", Invalid(KeyNameRequired)
	case id == "":
		return "", "", Invalid(KeyIDNumberRequired)
	case in.FrontFileID == "" || in.BackFileID == "":
		return "", "", Invalid(KeyIDPhotosRequired)
	case identity.TooManyMarks(name):
		return "", "", Invalid(KeyNameTooManyMarks)
	case !identity.ValidName(name):
		return "", "", Invalid(KeyNameInvalid)
	case !identity.ValidTaiwanID(id):
		return "", "", Invalid(KeyIDNumberInvalid)
	case in.FrontFileID == in.BackFileID:
		// Two sides of a card are two pictures.
		return "", "", Invalid(KeyIDPhotosRequired)
	}
	return name, id, nil
}

// SubmitRealName records a member's identity for ops to review. The ID number is checked (Taiwan
// check digit), claimed for this member on its guard stream (one member per ID number), sealed
// (AES-GCM) and stored with its keyed hash and masked form; the photos must be the member's own.
func (s *Service) SubmitRealName(ctx context.Context, meta Meta, memberID string, in RealNameInput) (Result, error) {
	c, err := s.Begin(meta, "realname.submit")
	if err != nil {
		return Result{}, err
	}
	name, id, e := validateRealName(in)
	if e != nil {
		return Result{}, e
	}
	if !ValidMemberID(memberID) {
		return Result{}, NotFound(KeyAccountNotExist)
	}
	if s.sealer == nil {
		return Result{}, Unavailable(errors.New("no secret key configured for personal data"))
	}
	sub := events.RealNameSubmitted{
		SubmissionID: c.CommandID, Name: name, IDNumberKeyedHash: s.sealer.KeyedHash(idNumberDomain, id),
		IDNumberMasked: identity.MaskID(id), FrontFileID: in.FrontFileID, BackFileID: in.BackFileID,
	}
	return recordGuarded(ctx, s, c, memberID, guarded[Result]{
		decide: func(m *Member) ([]events.Payload, error) { return decideSubmitRealName(m, sub) },
		guard:  events.IDNumberGuardStream(sub.IDNumberKeyedHash), ref: c.CommandID, takenKey: KeyIDNumberExists,
		inUse: func(m *Member) bool { return m.usesIDNumber(sub.IDNumberKeyedHash) },
		seal: func() (err error) {
			sub.IDNumberCipher, err = s.sealer.Seal(id, SealContextIDNumber(memberID))
			return err
		},
		answer: submissionAnswer,
	})
}

// guarded describes a member command that claims a unique secret (ID or card number) on its guard
// stream and stores it sealed; decide reads the payload that seal completes.
type guarded[R any] struct {
	decide               func(m *Member) ([]events.Payload, error)
	guard, ref, takenKey string
	inUse                func(m *Member) bool
	seal                 func() error
	answer               func(rec *Record) (R, error)
}

// recordGuarded runs a guarded command: a replay answers first; then the member's own rules, before
// the secret is claimed; the secret is sealed only once claimed, then the payload appended.
func recordGuarded[R any](ctx context.Context, s *Service, c Cmd, memberID string, g guarded[R]) (R, error) {
	var zero R
	stream := events.MemberStream(memberID)
	type pre struct {
		rec *Record
		err error
	}
	p, err := View(ctx, s, stream, func(m *Member, e *Entry) pre {
		if rec, err := e.Replay(c); rec != nil || err != nil {
			return pre{rec: rec, err: err}
		}
		_, err := g.decide(m)
		return pre{err: err}
	})
	if err != nil {
		return zero, err
	}
	if p.rec != nil {
		return g.answer(p.rec)
	}
	if p.err != nil {
		return zero, p.err
	}
	if err := s.claim(ctx, c, g.guard, memberID, g.ref, g.takenKey, g.inUse); err != nil {
		return zero, err
	}
	if err := g.seal(); err != nil {
		return zero, Unavailable(err)
	}
	rec, err := Execute(ctx, s, c, stream, g.decide)
	if err != nil {
		return zero, err
	}
	return g.answer(rec)
}

func submissionAnswer(rec *Record) (Result, error) {
	for _, p := range rec.Payloads {
		if _, ok := p.(events.RealNameSubmitted); ok {
			return Result{Position: rec.Position}, nil
		}
	}
	return Result{}, KeyReused()
}

// claim takes the value of a guard stream for memberID (see decideClaim); inUse tells from a
// holder's member state whether it still uses the value. Lock order: guard, then the holder's
// member stream; nothing takes them the other way round.
func (s *Service) claim(ctx context.Context, c Cmd, guard, memberID, ref, takenKey string, inUse func(m *Member) bool) error {
	_, err := Execute(ctx, s, c, guard, func(g *guardState) ([]events.Payload, error) {
		return decideClaim(g, memberID, ref, c.Now, func(holder string) (bool, error) {
			return View(ctx, s, events.MemberStream(holder), func(m *Member, _ *Entry) bool { return inUse(m) })
		}, Rule(takenKey))
	})
	return err
}

// ReviewRealName is an ops decision on a member's pending identity, with the ops remark.
type ReviewRealName struct{ Account, Remark string }

// ApproveRealName verifies the pending identity of account (ops).
func (s *Service) ApproveRealName(ctx context.Context, meta Meta, in ReviewRealName) (ReviewResult, error) {
	return s.reviewRealName(ctx, meta, in.Account, in.Remark, true)
}

// RejectRealName rejects the pending identity of account with a reason (ops); the member may
// submit again.
func (s *Service) RejectRealName(ctx context.Context, meta Meta, in ReviewRealName) (ReviewResult, error) {
	return s.reviewRealName(ctx, meta, in.Account, in.Remark, false)
}

func (s *Service) reviewRealName(ctx context.Context, meta Meta, account, remark string, approve bool) (ReviewResult, error) {
	c, err := s.Begin(meta, map[bool]string{true: "realname.approve", false: "realname.reject"}[approve])
	if err != nil {
		return ReviewResult{}, err
	}
	remark, e := CleanRemark(remark)
	if e != nil {
		return ReviewResult{}, e
	}
	if !approve && remark == "" {
		return ReviewResult{}, Invalid(KeyRemarkRequired)
	}
	if account == "" {
		return ReviewResult{}, NotFound(KeyAccountNotExist)
	}
	memberID := events.MemberID(identity.NormalizeAccount(account))
	rec, err := s.MemberCommand(ctx, c, memberID, func(m *Member) ([]events.Payload, error) {
		return decideReviewRealName(m, approve, remark)
	})
	if err != nil {
		return ReviewResult{}, err
	}
	out := ReviewResult{Position: rec.Position}
	for _, p := range rec.Payloads {
		switch p.(type) {
		case events.RealNameApproved:
			out.Status = events.RealNameStatusVerified
		case events.RealNameRejected:
			out.Status = events.RealNameStatusRejected
		}
	}
	if want := map[bool]string{true: events.RealNameStatusVerified, false: events.RealNameStatusRejected}[approve]; out.Status != want {
		return ReviewResult{}, KeyReused()
	}
	return out, nil
}

// cardNamespace roots card ids, derived from the binding command's id.
var cardNamespace = uuid.MustParse("8e3c1d0a-7b42-5f19-a6c8-2d5e9f0b4a71")

func validateCard(in CardInput) (events.BankCardBound, string, *Error) {
	card := events.BankCardBound{
		HolderName: identity.NormalizeName(in.HolderName),
		BankName:   strings.TrimSpace(in.BankName),
		Branch:     strings.TrimSpace(in.Branch),
		BankCode:   strings.TrimSpace(in.BankCode),
		IFSC:       strings.ToUpper(strings.TrimSpace(in.IFSC)),
		UPI:        strings.TrimSpace(in.UPI),
	}
	number := banking.NormalizeNumber(in.CardNumber)
	switch {
	case card.HolderName == "" || card.BankName == "" || card.Branch == "" || number == "" || card.BankCode == "":
		return card, "", Invalid(KeyCardFieldsRequired)
	case tooLong(card.HolderName, card.BankName, card.Branch):
		return card, "", Invalid(KeyInvalidRequest)
	case identity.TooManyMarks(card.HolderName):
		return card, "", Invalid(KeyNameTooManyMarks)
	case !banking.ValidNumber(number):
		return card, "", Invalid(KeyCardNumberInvalid)
	case !banking.ValidBankCode(card.BankCode):
		return card, "", Invalid(KeyBankCodeInvalid)
	case card.IFSC != "" && !banking.ValidIFSC(card.IFSC):
		return card, "", Invalid(KeyIFSCInvalid)
	case card.UPI != "" && !banking.ValidUPI(card.UPI):
		return card, "", Invalid(KeyUPIInvalid)
	}
	card.CardLast4 = banking.Last4(number)
	return card, number, nil
}

// BindCard adds a withdrawal card for a verified member whose verified name is the holder's.
// The number is claimed on its guard stream (a number is bound to one card at a time, across all
// members), sealed, and shown only by its last four digits.
func (s *Service) BindCard(ctx context.Context, meta Meta, memberID string, in CardInput) (CardResult, error) {
	c, err := s.Begin(meta, "card.bind")
	if err != nil {
		return CardResult{}, err
	}
	card, number, e := validateCard(in)
	if e != nil {
		return CardResult{}, e
	}
	if !ValidMemberID(memberID) {
		return CardResult{}, NotFound(KeyAccountNotExist)
	}
	if s.sealer == nil {
		return CardResult{}, Unavailable(errors.New("no secret key configured for personal data"))
	}
	card.CardID = uuid.NewSHA1(cardNamespace, []byte(c.CommandID)).String()
	card.CardNumberKeyedHash = s.sealer.KeyedHash(cardDomain, number)
	return recordGuarded(ctx, s, c, memberID, guarded[CardResult]{
		decide: func(m *Member) ([]events.Payload, error) { return decideBindCard(m, card) },
		guard:  events.CardGuardStream(card.CardNumberKeyedHash), ref: card.CardID, takenKey: KeyCardExists,
		inUse: func(m *Member) bool { return m.hasCardNumber(card.CardNumberKeyedHash) },
		seal: func() (err error) {
			card.CardNumberCipher, err = s.sealer.Seal(number, SealContextCard(memberID))
			return err
		},
		answer: cardAnswer,
	})
}

func cardAnswer(rec *Record) (CardResult, error) {
	for _, p := range rec.Payloads {
		if e, ok := p.(events.BankCardBound); ok {
			return CardResult{CardID: e.CardID, Last4: e.CardLast4, Position: rec.Position}, nil
		}
	}
	return CardResult{}, KeyReused()
}

// UnbindCard removes one bank card of a member.
type UnbindCard struct{ MemberID, CardID string }

// UnbindCard removes one of the member's cards.
func (s *Service) UnbindCard(ctx context.Context, meta Meta, in UnbindCard) (Result, error) {
	memberID, cardID := in.MemberID, in.CardID
	c, err := s.Begin(meta, "card.unbind")
	if err != nil {
		return Result{}, err
	}
	if cardID == "" || len(cardID) > 64 {
		return Result{}, NotFound(KeyCardNotFound)
	}
	rec, err := s.MemberCommand(ctx, c, memberID, func(m *Member) ([]events.Payload, error) {
		return decideUnbindCard(m, cardID)
	})
	if err != nil {
		return Result{}, err
	}
	for _, p := range rec.Payloads {
		if e, ok := p.(events.BankCardUnbound); ok && e.CardID == cardID {
			return Result{Position: rec.Position}, nil
		}
	}
	return Result{}, KeyReused()
}
