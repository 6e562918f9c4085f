package events

import (
	"strings"

	"github.com/google/uuid"
)

// Stream names. Member ids are derived from the normalised login account, so the first append to
// a member stream (expected version NoStream) is also the uniqueness check of the account.
const ConfigStream = "config"

var memberNamespace = uuid.MustParse("0b6c4a52-8f1e-5d2a-a3b7-4c9e1f0d7a86")

// MemberID is the stable id of the member who logs in as account.
func MemberID(account string) string {
	return uuid.NewSHA1(memberNamespace, []byte(account)).String()
}

// MemberStream holds registration, credentials, sessions, uploads and account flags.
func MemberStream(memberID string) string { return "member-" + memberID }

// AccountStream holds everything that moves one member's money or shares.
func AccountStream(memberID string) string { return "account-" + memberID }

// InviteStream exists once an invite code has been issued; its first event names the inviter.
func InviteStream(code string) string { return "invite-" + code }

// StreamMember is the member whose stream this is (member-<id> or account-<id>); ok is false for
// every other stream.
func StreamMember(stream string) (memberID string, ok bool) {
	for _, prefix := range [...]string{"member-", "account-"} {
		if id, found := strings.CutPrefix(stream, prefix); found && id != "" {
			return id, true
		}
	}
	return "", false
}
