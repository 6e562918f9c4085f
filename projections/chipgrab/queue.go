package chipgrab

import "github.com/lotbook/lotbook/projections"

// The ops console's queue of chip grabbing: claims paid for and waiting for the allotment.
func init() {
	projections.RegisterQueue(projections.Queue{ID: "chipgrabAllotment", Path: "/ops/chipgrab", Order: 44,
		Count: projections.CountQueue("chip grab allotment", "SELECT COUNT(*) FROM chipgrab_claims WHERE status = ?", StatusFrozen)})
}
