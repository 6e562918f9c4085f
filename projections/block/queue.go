package block

import "github.com/lotbook/lotbook/projections"

func init() {
	projections.RegisterQueue(projections.Queue{ID: "blockApplications", Path: "/ops/blockApplications", Order: 40,
		Count: projections.CountQueue("block applications", "SELECT COUNT(*) FROM block_applications WHERE status = ?", StatusPending)})
}
