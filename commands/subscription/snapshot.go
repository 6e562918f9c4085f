package subscription

import (
	"encoding/json"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/commands"
)

// applicationsSnapshot mirrors applications for aggregate snapshots (commands.SnapshotPart).
type applicationsSnapshot struct {
	ByNo    map[string]applicationSnapshot `json:"byNo"`
	ByIssue map[string]string              `json:"byIssue"`
}

type applicationSnapshot struct {
	IssueID     string          `json:"issueId"`
	Shares      int64           `json:"shares"`
	Amount      decimal.Decimal `json:"amount"`
	Fee         decimal.Decimal `json:"fee"`
	Paid        bool            `json:"paid"`
	Unpaid      bool            `json:"unpaid"`
	Refunded    bool            `json:"refunded"`
	Allotted    bool            `json:"allotted"`
	ListingDate string          `json:"listingDate"`
}

func (s *applications) SnapshotVersion() int { return 1 }

func (s *applications) MarshalSnapshot() ([]byte, error) {
	return json.Marshal(applicationsSnapshot{ByIssue: s.byIssue, ByNo: commands.MirrorMap(s.byNo, func(a *application) applicationSnapshot {
		return applicationSnapshot{IssueID: a.issueID, Shares: a.shares, Amount: a.amount, Fee: a.fee, Paid: a.paid, Unpaid: a.unpaid,
			Refunded: a.refunded, Allotted: a.allotted, ListingDate: a.listingDate}
	})})
}

func (s *applications) UnmarshalSnapshot(b []byte) error {
	var m applicationsSnapshot
	if err := json.Unmarshal(b, &m); err != nil {
		return err
	}
	*s = applications{byIssue: commands.CloneMap(m.ByIssue), byNo: commands.MirrorMap(m.ByNo, func(a applicationSnapshot) *application {
		return &application{issueID: a.IssueID, shares: a.Shares, amount: a.Amount, fee: a.Fee, paid: a.Paid, unpaid: a.Unpaid,
			refunded: a.Refunded, allotted: a.Allotted, listingDate: a.ListingDate}
	})}
	return nil
}
