package commands

import (
	"encoding/json"
	"maps"
	"slices"
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
	Files          []string             `json:"files"`    // a list: a map would cost more to parse
	FilesSet       bool                 `json:"filesSet"` // files is not nil
	StoredBytes    int64                `json:"storedBytes"`
}

func (m *memberShell) SnapshotVersion() int { return 1 }

func (m *memberShell) MarshalSnapshot() ([]byte, error) {
	return json.Marshal(memberSnapshot{
		Registered: m.registered, MemberID: m.memberID, Account: m.account, Role: m.role,
		PasswordHash: m.passwordHash, OwnInviteCode: m.ownInviteCode, Sessions: m.sessions,
		FundHash: m.fundHash, FundRejections: m.fundRejections, Flags: m.flags, Files: slices.Sorted(maps.Keys(m.files)),
		FilesSet: m.files != nil, StoredBytes: m.storedBytes,
	})
}

func (m *memberShell) UnmarshalSnapshot(b []byte) error {
	var s memberSnapshot
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	m.registered, m.memberID, m.account, m.role = s.Registered, s.MemberID, s.Account, s.Role
	m.passwordHash, m.ownInviteCode, m.sessions = s.PasswordHash, s.OwnInviteCode, s.Sessions
	m.fundHash, m.fundRejections, m.flags = s.FundHash, s.FundRejections, s.Flags
	m.files, m.storedBytes = nil, s.StoredBytes
	if s.FilesSet {
		m.files = make(map[string]bool, len(s.Files))
		for _, f := range s.Files {
			m.files[f] = true
		}
	}
	return nil
}
