package reviews

import (
	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/projections"
)

func init() {
	projections.RegisterQueue(projections.Queue{ID: "deposits", Path: "/ops/deposits", Order: 10,
		Count: projections.CountQueue("deposits", "SELECT COUNT(*) FROM deposit_reviews WHERE status = ?", events.ReviewPending)})
}
