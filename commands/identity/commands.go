package identity

import (
	"context"
	"errors"
	"strings"

	"github.com/google/uuid"

	"github.com/lotbook/lotbook/commands"
	banking "github.com/lotbook/lotbook/commands/rules/bank"
	idrules "github.com/lotbook/lotbook/commands/rules/identity"
	"github.com/lotbook/lotbook/commands/rules/secret"
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

// Commands are identity's commands over the kernel k.
type Commands struct{ k *commands.Service }

// New returns identity's commands over the kernel k.
func New(k *commands.Service) *Commands { return &Commands{k: k} }

// SealContextIDNumber is the context a member's ID number is sealed under, for the readers that
// may open it (ops reviewing an identity).
func SealContextIDNumber(memberID string) string { return idNumberDomain + ":" + memberID }

// IDNumberHash is the keyed hash an ID number is known by (its guard stream, the verified
// identity a login by ID number looks up), typed in either case and with spaces around.
func IDNumberHash(sealer *secret.Sealer, id string) string {
	return sealer.KeyedHash(idNumberDomain, strings.ToUpper(strings.TrimSpace(id)))
}

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

func validateRealName(in RealNameInput) (name, id string, err *commands.Error) {
	name = idrules.NormalizeName(in.Name)
	id = strings.ToUpper(strings.TrimSpace(in.IDNumber))
	switch {
	case name == "":
		return "", "", commands.Invalid(commands.KeyNameRequired)
	case id == "":
		return "", "", commands.Invalid(commands.KeyIDNumberRequired)
	case in.FrontFileID == "" || in.BackFileID == "":
		return "", "", commands.Invalid(commands.KeyIDPhotosRequired)
	case idrules.TooManyMarks(name):
		return "", "", commands.Invalid(commands.KeyNameTooManyMarks)
	case !idrules.ValidName(name):
		return "", "", commands.Invalid(commands.KeyNameInvalid)
	case !idrules.ValidTaiwanID(id):
		return "", "", commands.Invalid(commands.KeyIDNumberInvalid)
	case in.FrontFileID == in.BackFileID:
		// Two sides of a card are two pictures.
		return "", "", commands.Invalid(commands.KeyIDPhotosRequired)
	}
	return name, id, nil
}

// SubmitRealName records a member's identity for ops to review. The ID number is checked (Taiwan
// check digit), claimed for this member on its guard stream (one member per ID number), sealed
// (AES-GCM) and stored with its keyed hash and masked form; the photos must be the member's own.
func (s *Commands) SubmitRealName(ctx context.Context, meta commands.Meta, memberID string, in RealNameInput) (commands.Result, error) {
	c, err := s.k.Begin(meta, "realname.submit")
	if err != nil {
		return commands.Result{}, err
	}
	name, id, e := validateRealName(in)
	if e != nil {
		return commands.Result{}, e
	}
	if !commands.ValidMemberID(memberID) {
		return commands.Result{}, commands.NotFound(commands.KeyAccountNotExist)
	}
	if s.k.Sealer() == nil {
		return commands.Result{}, commands.Unavailable(errors.New("no secret key configured for personal data"))
	}
	sub := events.RealNameSubmitted{
		SubmissionID: c.CommandID, Name: name, IDNumberKeyedHash: s.k.Sealer().KeyedHash(idNumberDomain, id),
		IDNumberMasked: idrules.MaskID(id), FrontFileID: in.FrontFileID, BackFileID: in.BackFileID,
	}
	return recordGuarded(ctx, s.k, c, memberID, guarded[commands.Result]{
		decide: func(m *commands.Member) ([]events.Payload, error) { return decideSubmitRealName(m, sub) },
		guard:  events.IDNumberGuardStream(sub.IDNumberKeyedHash), ref: c.CommandID, takenKey: commands.KeyIDNumberExists,
		inUse: func(m *commands.Member) bool { return usesIDNumber(m, sub.IDNumberKeyedHash) },
		seal: func() (err error) {
			sub.IDNumberCipher, err = s.k.Sealer().Seal(id, SealContextIDNumber(memberID))
			return err
		},
		answer: submissionAnswer,
	})
}

// guarded describes a member command that claims a unique secret (ID or card number) on its guard
// stream and stores it sealed; decide reads the payload that seal completes.
type guarded[R any] struct {
	decide               func(m *commands.Member) ([]events.Payload, error)
	guard, ref, takenKey string
	inUse                func(m *commands.Member) bool
	seal                 func() error
	answer               func(rec *commands.Record) (R, error)
}

// recordGuarded runs a guarded command: a replay answers first; then the member's own rules, before
// the secret is claimed; the secret is sealed only once claimed, then the payload appended.
func recordGuarded[R any](ctx context.Context, s *commands.Service, c commands.Cmd, memberID string, g guarded[R]) (R, error) {
	var zero R
	stream := events.MemberStream(memberID)
	type pre struct {
		rec *commands.Record
		err error
	}
	p, err := commands.View(ctx, s, stream, func(m *commands.Member, e *commands.Entry) pre {
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
	if err := claim(ctx, s, c, g.guard, memberID, g.ref, g.takenKey, g.inUse); err != nil {
		return zero, err
	}
	if err := g.seal(); err != nil {
		return zero, commands.Unavailable(err)
	}
	rec, err := commands.Execute(ctx, s, c, stream, g.decide)
	if err != nil {
		return zero, err
	}
	return g.answer(rec)
}

func submissionAnswer(rec *commands.Record) (commands.Result, error) {
	for _, p := range rec.Payloads {
		if _, ok := p.(events.RealNameSubmitted); ok {
			return commands.Result{Position: rec.Position}, nil
		}
	}
	return commands.Result{}, commands.KeyReused()
}

// claim takes the value of a guard stream for memberID (see decideClaim); inUse tells from a
// holder's member state whether it still uses the value. Lock order: guard, then the holder's
// member stream; nothing takes them the other way round.
func claim(ctx context.Context, s *commands.Service, c commands.Cmd, guard, memberID, ref, takenKey string, inUse func(m *commands.Member) bool) error {
	_, err := commands.Execute(ctx, s, c, guard, func(g *guardState) ([]events.Payload, error) {
		return decideClaim(g, memberID, ref, c.Now, func(holder string) (bool, error) {
			return commands.View(ctx, s, events.MemberStream(holder), func(m *commands.Member, _ *commands.Entry) bool { return inUse(m) })
		}, commands.Rule(takenKey))
	})
	return err
}

// ReviewRealName is an ops decision on a member's pending identity, with the ops remark.
type ReviewRealName struct{ Account, Remark string }

// ApproveRealName verifies the pending identity of account (ops).
func (s *Commands) ApproveRealName(ctx context.Context, meta commands.Meta, in ReviewRealName) (ReviewResult, error) {
	return s.reviewRealName(ctx, meta, in.Account, in.Remark, true)
}

// RejectRealName rejects the pending identity of account with a reason (ops); the member may
// submit again.
func (s *Commands) RejectRealName(ctx context.Context, meta commands.Meta, in ReviewRealName) (ReviewResult, error) {
	return s.reviewRealName(ctx, meta, in.Account, in.Remark, false)
}

func (s *Commands) reviewRealName(ctx context.Context, meta commands.Meta, account, remark string, approve bool) (ReviewResult, error) {
	c, err := s.k.Begin(meta, map[bool]string{true: "realname.approve", false: "realname.reject"}[approve])
	if err != nil {
		return ReviewResult{}, err
	}
	remark, e := commands.CleanRemark(remark)
	if e != nil {
		return ReviewResult{}, e
	}
	if !approve && remark == "" {
		return ReviewResult{}, commands.Invalid(commands.KeyRemarkRequired)
	}
	if account == "" {
		return ReviewResult{}, commands.NotFound(commands.KeyAccountNotExist)
	}
	memberID := events.MemberID(idrules.NormalizeAccount(account))
	rec, err := s.k.MemberCommand(ctx, c, memberID, func(m *commands.Member) ([]events.Payload, error) {
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
		return ReviewResult{}, commands.KeyReused()
	}
	return out, nil
}

// cardNamespace roots card ids, derived from the binding command's id.
var cardNamespace = uuid.MustParse("8e3c1d0a-7b42-5f19-a6c8-2d5e9f0b4a71")

// validateCard checks a card as Taiwan banks number accounts: a bank code from the list of
// Taiwan's banks (whose name the card takes), a four-digit branch code and a 10 to 16 digit
// account number; IFSC and UPI only where ops enabled them for a withdrawal channel (extra).
func validateCard(in CardInput, extra map[string]bool) (events.BankCardBound, string, *commands.Error) {
	card := events.BankCardBound{
		HolderName: idrules.NormalizeName(in.HolderName),
		BankName:   strings.TrimSpace(in.BankName),
		Branch:     strings.TrimSpace(in.Branch),
		BankCode:   strings.TrimSpace(in.BankCode),
		IFSC:       strings.ToUpper(strings.TrimSpace(in.IFSC)),
		UPI:        strings.TrimSpace(in.UPI),
	}
	number := banking.NormalizeNumber(in.CardNumber)
	bank, listed := banking.LookupTaiwanBank(card.BankCode)
	switch {
	case card.HolderName == "" || card.Branch == "" || number == "" || card.BankCode == "":
		return card, "", commands.Invalid(commands.KeyCardFieldsRequired)
	case tooLong(card.HolderName, card.BankName, card.Branch):
		return card, "", commands.Invalid(commands.KeyInvalidRequest)
	case idrules.TooManyMarks(card.HolderName):
		return card, "", commands.Invalid(commands.KeyNameTooManyMarks)
	case !banking.ValidBankCode(card.BankCode) || !listed:
		return card, "", commands.Invalid(commands.KeyBankCodeInvalid)
	case !banking.ValidBranchCode(card.Branch):
		return card, "", commands.Invalid(commands.KeyBranchCodeInvalid)
	case !banking.ValidNumber(number):
		return card, "", commands.Invalid(commands.KeyCardNumberInvalid)
	case card.IFSC != "" && !extra[banking.FieldIFSC], card.UPI != "" && !extra[banking.FieldUPI]:
		return card, "", commands.Invalid(commands.KeyCardFieldOff)
	case card.IFSC != "" && !banking.ValidIFSC(card.IFSC):
		return card, "", commands.Invalid(commands.KeyIFSCInvalid)
	case card.UPI != "" && !banking.ValidUPI(card.UPI):
		return card, "", commands.Invalid(commands.KeyUPIInvalid)
	}
	// The list's name, whatever the form sent: the card says which bank the code is.
	card.BankName = bank.Zh
	card.CardLast4 = banking.Last4(number)
	return card, number, nil
}

// BindCard adds a withdrawal card for a verified member whose verified name is the holder's.
// The number is claimed on its guard stream (a number is bound to one card at a time, across all
// members), sealed, and shown only by its last four digits.
func (s *Commands) BindCard(ctx context.Context, meta commands.Meta, memberID string, in CardInput) (CardResult, error) {
	c, err := s.k.Begin(meta, "card.bind")
	if err != nil {
		return CardResult{}, err
	}
	extra, err := commands.View(ctx, s.k, events.ConfigStream, func(cfg *commands.Config, _ *commands.Entry) map[string]bool {
		return cardFieldsPart.Of(cfg).enabled()
	})
	if err != nil {
		return CardResult{}, err
	}
	card, number, e := validateCard(in, extra)
	if e != nil {
		return CardResult{}, e
	}
	if !commands.ValidMemberID(memberID) {
		return CardResult{}, commands.NotFound(commands.KeyAccountNotExist)
	}
	if s.k.Sealer() == nil {
		return CardResult{}, commands.Unavailable(errors.New("no secret key configured for personal data"))
	}
	card.CardID = uuid.NewSHA1(cardNamespace, []byte(c.CommandID)).String()
	card.CardNumberKeyedHash = s.k.Sealer().KeyedHash(cardDomain, number)
	return recordGuarded(ctx, s.k, c, memberID, guarded[CardResult]{
		decide: func(m *commands.Member) ([]events.Payload, error) { return decideBindCard(m, card) },
		guard:  events.CardGuardStream(card.CardNumberKeyedHash), ref: card.CardID, takenKey: commands.KeyCardExists,
		inUse: func(m *commands.Member) bool { return hasCardNumber(m, card.CardNumberKeyedHash) },
		seal: func() (err error) {
			card.CardNumberCipher, err = s.k.Sealer().Seal(number, SealContextCard(memberID))
			return err
		},
		answer: cardAnswer,
	})
}

func cardAnswer(rec *commands.Record) (CardResult, error) {
	for _, p := range rec.Payloads {
		if e, ok := p.(events.BankCardBound); ok {
			return CardResult{CardID: e.CardID, Last4: e.CardLast4, Position: rec.Position}, nil
		}
	}
	return CardResult{}, commands.KeyReused()
}

// UnbindCard removes one bank card of a member.
type UnbindCard struct{ MemberID, CardID string }

// UnbindCard removes one of the member's cards.
func (s *Commands) UnbindCard(ctx context.Context, meta commands.Meta, in UnbindCard) (commands.Result, error) {
	memberID, cardID := in.MemberID, in.CardID
	c, err := s.k.Begin(meta, "card.unbind")
	if err != nil {
		return commands.Result{}, err
	}
	if cardID == "" || len(cardID) > 64 {
		return commands.Result{}, commands.NotFound(commands.KeyCardNotFound)
	}
	rec, err := s.k.MemberCommand(ctx, c, memberID, func(m *commands.Member) ([]events.Payload, error) {
		return decideUnbindCard(m, cardID)
	})
	if err != nil {
		return commands.Result{}, err
	}
	for _, p := range rec.Payloads {
		if e, ok := p.(events.BankCardUnbound); ok && e.CardID == cardID {
			return commands.Result{Position: rec.Position}, nil
		}
	}
	return commands.Result{}, commands.KeyReused()
}

// SetAvatar makes one of the member's uploads their avatar: an image that went through the upload
// path (checked by content, decoded under the gate, re-encoded, within the quota), so it is as
// safe as a proof and, like one, served only to its owner and ops.
func (s *Commands) SetAvatar(ctx context.Context, meta commands.Meta, memberID, fileID string) (commands.Result, error) {
	c, err := s.k.Begin(meta, "avatar.set")
	if err != nil {
		return commands.Result{}, err
	}
	if fileID == "" || len(fileID) > 128 {
		return commands.Result{}, commands.NotFound(commands.KeyFileNotFound)
	}
	rec, err := s.k.MemberCommand(ctx, c, memberID, func(m *commands.Member) ([]events.Payload, error) {
		return decideSetAvatar(m, fileID)
	})
	if err != nil {
		return commands.Result{}, err
	}
	return commands.Result{Position: rec.Position}, nil
}
