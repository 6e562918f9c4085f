package commands

import (
	"crypto/sha256"
	"encoding/binary"
	"reflect"
	"strconv"

	"github.com/lotbook/lotbook/commands/rules/secret"
	"github.com/lotbook/lotbook/events"
)

// configState is the config aggregate (stream config): deposit and withdrawal channels and site
// config.
type configState struct {
	channels    map[string]events.DepositChannelConfigured
	site        map[string]string
	withdrawals map[string]events.WithdrawalChannelConfigured
	wOrder      []string // withdrawal channel ids in the order first defined
}

func init() { RegisterStream(events.ConfigStream, func() State { return newConfigState() }) }

func newConfigState() *configState {
	return &configState{channels: map[string]events.DepositChannelConfigured{}, site: map[string]string{},
		withdrawals: map[string]events.WithdrawalChannelConfigured{}}
}

func (c *configState) Apply(_ events.RecordedEvent, p events.Payload) {
	switch e := p.(type) {
	case events.DepositChannelConfigured:
		c.channels[e.ID] = e
	case events.SiteConfigured:
		c.site[e.Name] = e.Value
	case events.WithdrawalChannelConfigured:
		if _, ok := c.withdrawals[e.ID]; !ok {
			c.wOrder = append(c.wOrder, e.ID)
		}
		c.withdrawals[e.ID] = e
	}
}

// decideConfigureChannel defines or redefines a channel; the same definition again changes
// nothing. password is the channel password given ("" keeps the current one) and newHash its
// fresh argon2id hash: salted, it differs every time, so the current hash stays when it already
// matches password, unless it is of the old unsalted kind, which a given password replaces.
func decideConfigureChannel(c *configState, ch events.DepositChannelConfigured, password, newHash string, verify Verifier) ([]events.Payload, error) {
	old, exists := c.channels[ch.ID]
	switch {
	case password == "" && exists:
		ch.PasswordHash = old.PasswordHash
	case password == "": // a new channel without a password
	case exists && !secret.IsLegacyChannelHash(old.PasswordHash) && verify(old.PasswordHash, password):
		ch.PasswordHash = old.PasswordHash
	default:
		ch.PasswordHash = newHash
	}
	if exists && sameChannel(old, ch) {
		return nil, nil
	}
	return []events.Payload{ch}, nil
}

func sameChannel(a, b events.DepositChannelConfigured) bool {
	return a.ID == b.ID && a.Name == b.Name && a.Currency == b.Currency &&
		a.Min.Equal(b.Min) && a.Max.Equal(b.Max) && a.PasswordHash == b.PasswordHash &&
		a.Enabled == b.Enabled && reflect.DeepEqual(a.Window, b.Window)
}

// decideSiteConfig sets one entry; the same value again changes nothing.
func decideSiteConfig(c *configState, name, value string) ([]events.Payload, error) {
	if old, ok := c.site[name]; ok && old == value {
		return nil, nil
	}
	return []events.Payload{events.SiteConfigured{Name: name, Value: value}}, nil
}

// inviteState is an invite code's aggregate (stream invite-<CODE>): issued once, to a member or
// as a root code (empty member id).
type inviteState struct {
	issued   bool
	memberID string
}

func init() { RegisterStreams(events.InviteStream(""), func(string) State { return &inviteState{} }) }

func (i *inviteState) Apply(_ events.RecordedEvent, p events.Payload) {
	if e, ok := p.(events.InviteCodeIssued); ok && !i.issued {
		i.issued, i.memberID = true, e.MemberID
	}
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

// withdrawalChannel is the channel withdrawals go through: the first defined one that is
// enabled; nil and channel_not_found or channel_closed when there is none.
func (c *configState) withdrawalChannel() (*events.WithdrawalChannelConfigured, *Error) {
	for _, id := range c.wOrder {
		if ch := c.withdrawals[id]; ch.Enabled {
			return &ch, nil
		}
	}
	if len(c.wOrder) == 0 {
		return nil, NotFound(KeyChannelNotFound)
	}
	return nil, Rule(KeyChannelClosed)
}

// decideConfigureWithdrawalChannel defines or redefines a withdrawal channel; the same
// definition again changes nothing.
func decideConfigureWithdrawalChannel(c *configState, ch events.WithdrawalChannelConfigured) ([]events.Payload, error) {
	if old, ok := c.withdrawals[ch.ID]; ok && old.Name == ch.Name && old.Currency == ch.Currency && old.Min.Equal(ch.Min) &&
		old.Max.Equal(ch.Max) && old.Enabled == ch.Enabled && reflect.DeepEqual(old.Window, ch.Window) {
		return nil, nil
	}
	return []events.Payload{ch}, nil
}
