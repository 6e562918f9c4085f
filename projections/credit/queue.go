package credit

import "github.com/lotbook/lotbook/projections"

// The ops console's queues of credit: loan applications and seat account applications waiting
// for review.
func init() {
	projections.RegisterQueue(projections.Queue{ID: "creditLoans", Path: "/ops/credit/loans", Order: 41,
		Count: projections.CountQueue("credit loans", "SELECT COUNT(*) FROM credit_loans WHERE status = ?", StatusPending)})
	projections.RegisterQueue(projections.Queue{ID: "creditSeats", Path: "/ops/credit/seats", Order: 42,
		Count: projections.CountQueue("seat accounts", "SELECT COUNT(*) FROM credit_seats WHERE status = ?", StatusPending)})
}
