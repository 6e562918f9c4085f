package commands

import (
	"crypto/sha256"
	"encoding/binary"
	"strconv"

	"github.com/lotbook/lotbook/events"
)

// Config is the config aggregate (stream config), made only of the parts that capabilities
// register (RegisterConfigPart): the site config, funds' deposit and withdrawal channels.
type Config struct{ parts []State }

func init() { RegisterStream(events.ConfigStream, func() State { return NewConfig() }) }

// NewConfig is an empty config aggregate, with the registered parts.
func NewConfig() *Config { return &Config{parts: configParts.build(struct{}{})} }

func (c *Config) partList() []State { return c.parts }

// Apply evolves the parts.
func (c *Config) Apply(r events.RecordedEvent, p events.Payload) {
	for _, part := range c.parts {
		part.Apply(r, p)
	}
}

// inviteState is an invite code's aggregate (stream invite-<CODE>): issued once, to a member or
// as a root code (empty member id).
type inviteState struct {
	issued, disabled bool
	memberID         string
}

func init() { RegisterStreams(events.InviteStream(""), func(string) State { return &inviteState{} }) }

func (i *inviteState) Apply(_ events.RecordedEvent, p events.Payload) {
	switch e := p.(type) {
	case events.InviteCodeIssued:
		if !i.issued {
			i.issued, i.memberID = true, e.MemberID
		}
	case events.InviteCodeDisabled:
		i.disabled = true
	}
}

// decideDisableInvite closes an issued code to new registrations; a closed code stays closed
// (disabling it again changes nothing), an unknown one is refused.
func decideDisableInvite(i *inviteState, code, reason string) ([]events.Payload, error) {
	switch {
	case !i.issued:
		return nil, NotFound(KeyInviteCodeNotFound)
	case i.disabled:
		return nil, nil
	}
	return []events.Payload{events.InviteCodeDisabled{Code: code, Reason: reason}}, nil
}

// errCodeTaken tells the registration to try its next candidate code.
var errCodeTaken = refuse(KindConflict, KeyInviteCodeExists)

// decideIssueInvite gives code to memberID (empty for a root code). Issuing it again to the same
// holder changes nothing; a code held by someone else is refused.
func decideIssueInvite(i *inviteState, code, memberID string) ([]events.Payload, error) {
	if i.issued {
		if i.memberID == memberID {
			return nil, nil
		}
		return nil, errCodeTaken
	}
	return []events.Payload{events.InviteCodeIssued{Code: code, MemberID: memberID}}, nil
}

// inviteAlphabet has no letters easily misread (I, L, O look like 1, 1, 0).
const inviteAlphabet = "ABCDEFGHJKMNPQRSTUVWXYZ"

// inviteCandidate is the n-th code a member may get: 7 letters (23^7, about 3.4 billion codes)
// derived from the member id, 8 letters after 8 collisions. Deterministic, so two racing
// registrations of one account pick the same code and a retried registration finds its own.
func inviteCandidate(memberID string, n int) string {
	sum := sha256.Sum256([]byte(memberID + "#" + strconv.Itoa(n)))
	x := binary.BigEndian.Uint64(sum[:8])
	length := 7
	if n >= 8 {
		length = 8
	}
	b := make([]byte, length)
	for i := range b {
		b[i] = inviteAlphabet[x%uint64(len(inviteAlphabet))]
		x /= uint64(len(inviteAlphabet))
	}
	return string(b)
}

// validInviteCode: 4 to 16 upper-case letters or digits (codes are upper-cased before this).
func validInviteCode(code string) bool {
	if len(code) < 4 || len(code) > 16 {
		return false
	}
	for i := 0; i < len(code); i++ {
		c := code[i]
		if !(c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}
