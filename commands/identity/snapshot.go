package identity

import "encoding/json"

// verificationSnapshot mirrors verification for aggregate snapshots (commands.SnapshotPart).
type verificationSnapshot struct {
	Status       string                  `json:"status"`
	SubmissionID string                  `json:"submissionId"`
	Name         string                  `json:"name"`
	IDHash       string                  `json:"idHash"`
	Cards        map[string]cardSnapshot `json:"cards"`
	Avatar       string                  `json:"avatar"`
}

type cardSnapshot struct {
	Holder   string `json:"holder"`
	BankName string `json:"bankName"`
	Branch   string `json:"branch"`
	BankCode string `json:"bankCode"`
	Last4    string `json:"last4"`
	Hash     string `json:"hash"`
}

func (v *verification) SnapshotVersion() int { return 1 }

func (v *verification) MarshalSnapshot() ([]byte, error) {
	s := verificationSnapshot{Status: v.realName.status, SubmissionID: v.realName.submissionID,
		Name: v.realName.name, IDHash: v.realName.idHash, Avatar: v.avatar}
	if v.cards != nil {
		s.Cards = make(map[string]cardSnapshot, len(v.cards))
		for id, c := range v.cards {
			s.Cards[id] = cardSnapshot{Holder: c.holder, BankName: c.bankName, Branch: c.branch, BankCode: c.bankCode, Last4: c.last4, Hash: c.hash}
		}
	}
	return json.Marshal(s)
}

func (v *verification) UnmarshalSnapshot(b []byte) error {
	var s verificationSnapshot
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	*v = verification{realName: realName{status: s.Status, submissionID: s.SubmissionID, name: s.Name, idHash: s.IDHash}, avatar: s.Avatar}
	if s.Cards != nil {
		v.cards = make(map[string]*bankCard, len(s.Cards))
		for id, c := range s.Cards {
			v.cards[id] = &bankCard{id: id, holder: c.Holder, bankName: c.BankName, branch: c.Branch, bankCode: c.BankCode, last4: c.Last4, hash: c.Hash}
		}
	}
	return nil
}
