package funds

import "encoding/json"

// payoutCardSnapshot mirrors payoutCard for aggregate snapshots (commands.SnapshotPart).
type payoutCardSnapshot struct {
	Holder   string `json:"holder"`
	BankName string `json:"bankName"`
	Branch   string `json:"branch"`
	BankCode string `json:"bankCode"`
	Last4    string `json:"last4"`
}

func (c *payoutCards) SnapshotVersion() int { return 1 }

func (c *payoutCards) MarshalSnapshot() ([]byte, error) {
	s := make(map[string]payoutCardSnapshot, len(c.byID))
	for id, p := range c.byID {
		s[id] = payoutCardSnapshot{Holder: p.holder, BankName: p.bankName, Branch: p.branch, BankCode: p.bankCode, Last4: p.last4}
	}
	return json.Marshal(s)
}

func (c *payoutCards) UnmarshalSnapshot(b []byte) error {
	var s map[string]payoutCardSnapshot
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	c.byID = make(map[string]*payoutCard, len(s))
	for id, p := range s {
		c.byID[id] = &payoutCard{id: id, holder: p.Holder, bankName: p.BankName, branch: p.Branch, bankCode: p.BankCode, last4: p.Last4}
	}
	return nil
}
