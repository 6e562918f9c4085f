package commands

import (
	"time"

	"github.com/lotbook/lotbook/commands/rules/identity"
	"github.com/lotbook/lotbook/events"
)

// Identity verification and bank cards: the member aggregate's part (stream member-<id>) and the
// guard streams that keep an ID number with one member and a card number on one card.

// realName is the member's latest identity submission.
type realName struct {
	status       string // events.RealNameStatus*; "" before any submission
	submissionID string
	name         string
	idHash       string
}

// bankCard is a bound card as the member aggregate needs it.
type bankCard struct {
	id, holder, bankName, branch, bankCode, last4, hash string
}

func (m *Member) applyIdentity(p events.Payload) {
	switch e := p.(type) {
	case events.RealNameSubmitted:
		m.realName = realName{status: events.RealNameStatusPending, submissionID: e.SubmissionID, name: e.Name, idHash: e.IDNumberKeyedHash}
	case events.RealNameApproved:
		m.realName.status = events.RealNameStatusVerified
	case events.RealNameRejected:
		m.realName.status = events.RealNameStatusRejected
	case events.BankCardBound:
		if m.cards == nil {
			m.cards = map[string]*bankCard{}
		}
		m.cards[e.CardID] = &bankCard{id: e.CardID, holder: e.HolderName, bankName: e.BankName, branch: e.Branch,
			bankCode: e.BankCode, last4: e.CardLast4, hash: e.CardNumberKeyedHash}
	case events.BankCardUnbound:
		delete(m.cards, e.CardID)
	}
}

// usesIDNumber tells whether the member's identity rests on the ID number with this keyed hash:
// submitted and under review, or verified.
func (m *Member) usesIDNumber(hash string) bool {
	st := m.realName.status
	return m.realName.idHash == hash && (st == events.RealNameStatusPending || st == events.RealNameStatusVerified)
}

// hasCardNumber tells whether one of the member's bound cards has this number's keyed hash.
func (m *Member) hasCardNumber(hash string) bool {
	for _, c := range m.cards {
		if c.hash == hash {
			return true
		}
	}
	return false
}

// memberOnly refuses what only a registered, active member may do: unknown accounts and staff
// users (not found), disabled and frozen accounts.
func (m *Member) memberOnly() *Error {
	if !m.registered || m.role != events.RoleMember {
		return NotFound(KeyAccountNotExist)
	}
	return m.RefuseFlags(events.FlagDisabled, events.FlagFrozen)
}

// decideSubmitRealName records a submission for review. A member under review or verified cannot
// submit again; a rejected one can. Both photos must be the member's own uploads.
func decideSubmitRealName(m *Member, sub events.RealNameSubmitted) ([]events.Payload, error) {
	if err := m.memberOnly(); err != nil {
		return nil, err
	}
	switch m.realName.status {
	case events.RealNameStatusPending:
		return nil, Rule(KeyRealNamePending)
	case events.RealNameStatusVerified:
		return nil, Rule(KeyRealNameVerified)
	}
	if !m.files[sub.FrontFileID] || !m.files[sub.BackFileID] {
		return nil, NotFound(KeyFileNotFound)
	}
	return []events.Payload{sub}, nil
}

// decideReviewRealName approves or rejects the pending submission (ops). Racing decisions: the
// first one appended wins, the other finds nothing pending.
func decideReviewRealName(m *Member, approve bool, remark string) ([]events.Payload, error) {
	if !m.registered || m.role != events.RoleMember {
		return nil, NotFound(KeyAccountNotExist)
	}
	if m.realName.status != events.RealNameStatusPending {
		return nil, Rule(KeyRealNameNotPending)
	}
	if approve {
		return []events.Payload{events.RealNameApproved{SubmissionID: m.realName.submissionID, Remark: remark}}, nil
	}
	return []events.Payload{events.RealNameRejected{SubmissionID: m.realName.submissionID, Remark: remark}}, nil
}

// decideBindCard adds a card: the member must be verified, the holder must be the verified name
// (the card is the member's own), and the number must not be bound already.
func decideBindCard(m *Member, card events.BankCardBound) ([]events.Payload, error) {
	if err := m.memberOnly(); err != nil {
		return nil, err
	}
	if m.realName.status != events.RealNameStatusVerified {
		return nil, Rule(KeyRealNameNotVerified)
	}
	if !identity.SameName(card.HolderName, m.realName.name) {
		return nil, Rule(KeyCardNotOwn)
	}
	if m.hasCardNumber(card.CardNumberKeyedHash) {
		return nil, Rule(KeyCardExists)
	}
	return []events.Payload{card}, nil
}

// decideUnbindCard removes one of the member's cards; another member's card id is not found.
func decideUnbindCard(m *Member, cardID string) ([]events.Payload, error) {
	if !m.registered || m.role != events.RoleMember {
		return nil, NotFound(KeyAccountNotExist)
	}
	if err := m.RefuseFlags(events.FlagDisabled); err != nil {
		return nil, err
	}
	if m.cards[cardID] == nil {
		return nil, NotFound(KeyCardNotFound)
	}
	return []events.Payload{events.BankCardUnbound{CardID: cardID}}, nil
}

// guardState is a guard stream's aggregate: who holds the value and since when.
type guardState struct {
	holder, ref string
	claimedAt   time.Time
}

func init() {
	for _, prefix := range []string{events.IDNumberGuardStream(""), events.CardGuardStream("")} {
		RegisterStreams(prefix, func(string) State { return &guardState{} })
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
func decideClaim(g *guardState, memberID, ref string, now time.Time, inUse func(holder string) (bool, error), taken *Error) ([]events.Payload, error) {
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
