package commands

import (
	"encoding/json"
	"time"
)

// memberShell is the member aggregate's own fields, as a snapshot piece (its parts encode
// themselves).
type memberShell Member

// memberSnapshot mirrors memberShell's fields.
type memberSnapshot struct {
	Registered     bool                 `json:"registered"`
	MemberID       string               `json:"memberId"`
	Account        string               `json:"account"`
	Role           string               `json:"role"`
	PasswordHash   string               `json:"passwordHash"`
	OwnInviteCode  string               `json:"ownInviteCode"`
	Sessions       map[string]time.Time `json:"sessions"`
	FundHash       string               `json:"fundHash"`
	FundRejections []time.Time          `json:"fundRejections"`
	Flags          map[string]bool      `json:"flags"`
	Files          map[string]bool      `json:"files"`
	StoredBytes    int64                `json:"storedBytes"`
}

func (m *memberShell) SnapshotVersion() int { return 1 }

func (m *memberShell) MarshalSnapshot() ([]byte, error) {
	return json.Marshal(memberSnapshot{
		Registered: m.registered, MemberID: m.memberID, Account: m.account, Role: m.role,
		PasswordHash: m.passwordHash, OwnInviteCode: m.ownInviteCode, Sessions: m.sessions,
		FundHash: m.fundHash, FundRejections: m.fundRejections, Flags: m.flags, Files: m.files,
		StoredBytes: m.storedBytes,
	})
}

func (m *memberShell) UnmarshalSnapshot(b []byte) error {
	var s memberSnapshot
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	m.registered, m.memberID, m.account, m.role = s.Registered, s.MemberID, s.Account, s.Role
	m.passwordHash, m.ownInviteCode, m.sessions = s.PasswordHash, s.OwnInviteCode, s.Sessions
	m.fundHash, m.fundRejections, m.flags, m.files = s.FundHash, s.FundRejections, s.Flags, s.Files
	m.storedBytes = s.StoredBytes
	return nil
}
