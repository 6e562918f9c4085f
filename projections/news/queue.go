package news

import (
	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/projections"
)

// The news queue counts the drafts waiting to be scheduled or published.
func init() {
	projections.RegisterQueue(projections.Queue{ID: "newsDrafts", Path: "/ops/news", Order: 60,
		Count: projections.CountQueue("news drafts", "SELECT COUNT(*) FROM news_items WHERE state = ?", events.NewsStateDraft)})
}
