// Package identity is identity verification and bank cards on the write side: a part of the
// member aggregate (stream member-<id>) and the guard streams that keep an ID number with one
// member and a card number on one card.
package identity

import (
	"strings"
	"time"

	"github.com/lotbook/lotbook/commands"
	banking "github.com/lotbook/lotbook/commands/rules/bank"
	idrules "github.com/lotbook/lotbook/commands/rules/identity"
	"github.com/lotbook/lotbook/events"
)

// verification is the member's part: the latest identity submission and the bound cards.
type verification struct {
	realName realName
	cards    map[string]*bankCard
	avatar   string // file id of the avatar; "" for none
}

var verificationPart = commands.RegisterMemberPart("identity", func(string) *verification { return &verification{} })

// realName is the member's latest identity submission.
type realName struct {
	status       string // events.RealNameStatus*; "" before any submission
	submissionID string
	name         string
	idHash       string
}

// bankCard is a bound card as identity needs it.
type bankCard struct {
	id, holder, bankName, branch, bankCode, last4, hash string
}

// Apply evolves the member's submissions and cards.
func (v *verification) Apply(_ events.RecordedEvent, p events.Payload) {
	switch e := p.(type) {
	case events.RealNameSubmitted:
		v.realName = realName{status: events.RealNameStatusPending, submissionID: e.SubmissionID, name: e.Name, idHash: e.IDNumberKeyedHash}
	case events.RealNameApproved:
		v.realName.status = events.RealNameStatusVerified
	case events.RealNameRejected:
		v.realName.status = events.RealNameStatusRejected
	case events.BankCardBound:
		if v.cards == nil {
			v.cards = map[string]*bankCard{}
		}
		v.cards[e.CardID] = &bankCard{id: e.CardID, holder: e.HolderName, bankName: e.BankName, branch: e.Branch,
			bankCode: e.BankCode, last4: e.CardLast4, hash: e.CardNumberKeyedHash}
	case events.BankCardUnbound:
		delete(v.cards, e.CardID)
	case events.AvatarSet:
		v.avatar = e.FileID
	}
}

// usesIDNumber tells whether the member's identity rests on the ID number with this keyed hash:
// submitted and under review, or verified.
func usesIDNumber(m *commands.Member, hash string) bool {
	rn := verificationPart.Of(m).realName
	return rn.idHash == hash && (rn.status == events.RealNameStatusPending || rn.status == events.RealNameStatusVerified)
}

// hasCardNumber tells whether one of the member's bound cards has this number's keyed hash.
func hasCardNumber(m *commands.Member, hash string) bool {
	for _, c := range verificationPart.Of(m).cards {
		if c.hash == hash {
			return true
		}
	}
	return false
}

// decideSubmitRealName records a submission for review. A member under review or verified cannot
// submit again; a rejected one can. Both photos must be the member's own uploads.
func decideSubmitRealName(m *commands.Member, sub events.RealNameSubmitted) ([]events.Payload, error) {
	if err := m.MemberOnly(); err != nil {
		return nil, err
	}
	switch verificationPart.Of(m).realName.status {
	case events.RealNameStatusPending:
		return nil, commands.Rule(commands.KeyRealNamePending)
	case events.RealNameStatusVerified:
		return nil, commands.Rule(commands.KeyRealNameVerified)
	}
	if !m.OwnsFile(sub.FrontFileID) || !m.OwnsFile(sub.BackFileID) {
		return nil, commands.NotFound(commands.KeyFileNotFound)
	}
	return []events.Payload{sub}, nil
}

// decideReviewRealName approves or rejects the pending submission (ops). Racing decisions: the
// first one appended wins, the other finds nothing pending.
func decideReviewRealName(m *commands.Member, approve bool, remark string) ([]events.Payload, error) {
	if !m.IsMember() {
		return nil, commands.NotFound(commands.KeyAccountNotExist)
	}
	rn := verificationPart.Of(m).realName
	if rn.status != events.RealNameStatusPending {
		return nil, commands.Rule(commands.KeyRealNameNotPending)
	}
	if approve {
		return []events.Payload{events.RealNameApproved{SubmissionID: rn.submissionID, Remark: remark}}, nil
	}
	return []events.Payload{events.RealNameRejected{SubmissionID: rn.submissionID, Remark: remark}}, nil
}

// decideBindCard adds a card: the member must be verified, the holder must be the verified name
// (the card is the member's own), and the number must not be bound already.
func decideBindCard(m *commands.Member, card events.BankCardBound) ([]events.Payload, error) {
	if err := m.MemberOnly(); err != nil {
		return nil, err
	}
	rn := verificationPart.Of(m).realName
	if rn.status != events.RealNameStatusVerified {
		return nil, commands.Rule(commands.KeyRealNameNotVerified)
	}
	if !idrules.SameName(card.HolderName, rn.name) {
		return nil, commands.Rule(commands.KeyCardNotOwn)
	}
	if hasCardNumber(m, card.CardNumberKeyedHash) {
		return nil, commands.Rule(commands.KeyCardExists)
	}
	return []events.Payload{card}, nil
}

// decideUnbindCard removes one of the member's cards; another member's card id is not found.
func decideUnbindCard(m *commands.Member, cardID string) ([]events.Payload, error) {
	if !m.IsMember() {
		return nil, commands.NotFound(commands.KeyAccountNotExist)
	}
	if err := m.RefuseFlags(events.FlagDisabled); err != nil {
		return nil, err
	}
	if verificationPart.Of(m).cards[cardID] == nil {
		return nil, commands.NotFound(commands.KeyCardNotFound)
	}
	return []events.Payload{events.BankCardUnbound{CardID: cardID}}, nil
}

// cardFields is identity's part of the config aggregate: the extra card fields (IFSC, UPI) ops
// enabled per withdrawal channel, from the site config entries withdrawal.<channel>.cardFields.
// None by default.
type cardFields map[string]map[string]bool

var cardFieldsPart = commands.RegisterConfigPart("identity.cardFields", func() cardFields { return cardFields{} })

// Apply follows the entries that enable card fields.
func (c cardFields) Apply(_ events.RecordedEvent, p events.Payload) {
	e, ok := p.(events.SiteConfigured)
	if !ok || !strings.HasPrefix(e.Name, banking.CardFieldsConfigPrefix) || !strings.HasSuffix(e.Name, banking.CardFieldsConfigSuffix) {
		return
	}
	c[e.Name] = banking.ParseCardFields(e.Value)
}

// enabled is the union of the fields any channel enables.
func (c cardFields) enabled() map[string]bool {
	out := map[string]bool{}
	for _, fs := range c {
		for f := range fs {
			out[f] = true
		}
	}
	return out
}

// decideSetAvatar makes one of the member's own uploads the avatar; the current one again changes
// nothing.
func decideSetAvatar(m *commands.Member, fileID string) ([]events.Payload, error) {
	if err := m.MemberOnly(); err != nil {
		return nil, err
	}
	if !m.OwnsFile(fileID) {
		return nil, commands.NotFound(commands.KeyFileNotFound)
	}
	if verificationPart.Of(m).avatar == fileID {
		return nil, nil
	}
	return []events.Payload{events.AvatarSet{FileID: fileID}}, nil
}

// guardState is a guard stream's aggregate: who holds the value and since when.
type guardState struct {
	holder, ref string
	claimedAt   time.Time
}

func init() {
	for _, prefix := range []string{events.IDNumberGuardStream(""), events.CardGuardStream("")} {
		commands.RegisterStreams(prefix, func(string) commands.State { return &guardState{} })
	}
}

func (g *guardState) Apply(r events.RecordedEvent, p events.Payload) {
	if e, ok := p.(events.UniqueClaimed); ok {
		g.holder, g.ref, g.claimedAt = e.MemberID, e.Ref, r.Metadata.ServerTime
	}
}

// claimGrace protects a fresh claim whose member event may still be on its way: within it the
// holder keeps the value even though its member stream does not show it yet.
const claimGrace = time.Minute

// decideClaim gives the value to memberID for ref. Free values and the member's own are claimed;
// another member's value is refused with taken while that member uses it (inUse) or within
// claimGrace of their claim, and taken over otherwise (their submission was rejected or their
// card unbound, or their command never completed).
func decideClaim(g *guardState, memberID, ref string, now time.Time, inUse func(holder string) (bool, error), taken *commands.Error) ([]events.Payload, error) {
	switch {
	case g.holder == memberID && g.ref == ref:
		return nil, nil
	case g.holder == "" || g.holder == memberID:
	default:
		used, err := inUse(g.holder)
		if err != nil {
			return nil, err
		}
		if used || now.Sub(g.claimedAt) < claimGrace {
			return nil, taken
		}
	}
	return []events.Payload{events.UniqueClaimed{MemberID: memberID, Ref: ref}}, nil
}
