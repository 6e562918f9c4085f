// Package credit is the published credit-score rule: where a score starts, which events move it
// and by how much, and what withdrawals need. The app shows this rule as it is; nothing else
// changes a score, and every change is an event the member sees (CreditScoreChanged).
package credit

// The rule's constants.
const (
	Start             = 100 // every member's score at registration
	Min               = 0
	Max               = 100
	WithdrawThreshold = 60 // a withdrawal needs at least this score
)

// Reasons: the events that change a score.
const (
	ReasonDepositApproved = "deposit_approved" // ops approved a deposit: +1, up to Max
	ReasonDepositRejected = "deposit_rejected" // ops rejected a deposit (proof not matching a transfer): -5, down to Min
)

// Change is one line of the rule.
type Change struct {
	Reason string
	Delta  int
}

// Changes lists every way a score moves, in the order the app shows them.
var Changes = []Change{
	{Reason: ReasonDepositApproved, Delta: 1},
	{Reason: ReasonDepositRejected, Delta: -5},
}

// DeltaOf is the change a reason makes (0 for anything else: unknown reasons change nothing).
func DeltaOf(reason string) int {
	for _, c := range Changes {
		if c.Reason == reason {
			return c.Delta
		}
	}
	return 0
}

// Apply moves score by reason's delta, clamped to [Min, Max], and returns the new score and the
// change actually made (0 when the score is already at the bound).
func Apply(score int, reason string) (after, applied int) {
	after = min(Max, max(Min, score+DeltaOf(reason)))
	return after, after - score
}

// MayWithdraw reports whether a score allows withdrawals.
func MayWithdraw(score int) bool { return score >= WithdrawThreshold }
