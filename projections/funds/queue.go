package funds

import (
	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/projections"
)

func init() {
	projections.RegisterQueue(projections.Queue{ID: "withdrawals", Path: "/ops/withdrawals", Order: 20,
		Count: projections.CountQueue("withdrawals", "SELECT COUNT(*) FROM withdrawals WHERE status = ?", events.ReviewPending)})
	projections.RegisterQueue(projections.Queue{ID: "realname", Path: "/ops/realname", Order: 30,
		Count: projections.CountQueue("realname", "SELECT COUNT(*) FROM realname WHERE status = ?", events.RealNameStatusPending)})
}
