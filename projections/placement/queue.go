package placement

import "github.com/lotbook/lotbook/projections"

// The ops console's queue of placements: applications waiting for the allotment ops start.
func init() {
	projections.RegisterQueue(projections.Queue{ID: "placements", Path: "/ops/placement", Order: 43,
		Count: projections.CountQueue("placements", "SELECT COUNT(*) FROM placement_applications WHERE state = ?", Applied)})
}
