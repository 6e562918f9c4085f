package offering

import "encoding/json"

// memberSnapshot mirrors Member for aggregate snapshots (commands.SnapshotPart).
type memberSnapshot struct {
	Registered bool            `json:"registered"`
	Member     bool            `json:"member"`
	Verified   bool            `json:"verified"`
	Flags      map[string]bool `json:"flags"`
}

func (m *Member) SnapshotVersion() int { return 1 }

func (m *Member) MarshalSnapshot() ([]byte, error) {
	return json.Marshal(memberSnapshot{Registered: m.registered, Member: m.member, Verified: m.verified, Flags: m.flags})
}

func (m *Member) UnmarshalSnapshot(b []byte) error {
	var s memberSnapshot
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	*m = Member{registered: s.Registered, member: s.Member, verified: s.Verified, flags: s.Flags}
	return nil
}
