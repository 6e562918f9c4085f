package events

import "time"

// News and notices (stream news-<id>, one stream per item). Ops write an item as a draft, edit
// it, schedule it for a time or publish it now, and withdraw it; who did each and when is the
// event's metadata (Actor, ServerTime). Bodies are HTML that the write side has already
// sanitised against its allow-list, so the log never holds a script.

// The kinds of item: articles (新聞, the news list) and notices (公告).
const (
	NewsKindArticle = "article"
	NewsKindNotice  = "notice"
)

// The states of an item. Scheduled is what the log says until its time; from then readers treat
// it as published (NewsState).
const (
	NewsStateDraft     = "draft"
	NewsStateScheduled = "scheduled"
	NewsStatePublished = "published"
	NewsStateWithdrawn = "withdrawn"
)

// NewsState is the state members and ops see at now: a scheduled item whose time has come is
// published.
func NewsState(state string, at, now time.Time) string {
	if state == NewsStateScheduled && !at.After(now) {
		return NewsStatePublished
	}
	return state
}

// NewsStream holds one article's or notice's life.
func NewsStream(id string) string { return "news-" + id }

// NewsText is an item's title and body in both languages.
type NewsText struct {
	TitleTW string `json:"titleTw"`
	TitleEN string `json:"titleEn"`
	BodyTW  string `json:"bodyTw"` // sanitised HTML
	BodyEN  string `json:"bodyEn"` // sanitised HTML
}

// NewsDrafted starts an item as a draft that members do not see.
type NewsDrafted struct {
	ID   string `json:"id"`
	Kind string `json:"kind"`
	NewsText
}

// NewsEdited replaces an item's text (in any state: a correction to a published item shows at once).
type NewsEdited struct {
	NewsText
}

// NewsScheduled says the item becomes visible to members at At (a time after the command's).
// Nothing is written at At: readers compare At with their clock, so the log holds ops' decision
// and members never see the item before its time.
type NewsScheduled struct {
	At time.Time `json:"at"`
}

// NewsPublished makes the item visible to members from At (the command's time).
type NewsPublished struct {
	At time.Time `json:"at"`
}

// NewsWithdrawn takes the item away from members (a scheduled one never appears).
type NewsWithdrawn struct {
	Reason string `json:"reason,omitempty"`
}

// NewsRead records that a member opened a published item (stream member-<id>); unread counts
// are the visible items without it.
type NewsRead struct {
	ID string `json:"id"`
}

func (NewsDrafted) EventName() string   { return "NewsDrafted" }
func (NewsEdited) EventName() string    { return "NewsEdited" }
func (NewsScheduled) EventName() string { return "NewsScheduled" }
func (NewsPublished) EventName() string { return "NewsPublished" }
func (NewsWithdrawn) EventName() string { return "NewsWithdrawn" }
func (NewsRead) EventName() string      { return "NewsRead" }

func init() {
	register(NewsDrafted{}, 1, nil)
	register(NewsEdited{}, 1, nil)
	register(NewsScheduled{}, 1, nil)
	register(NewsPublished{}, 1, nil)
	register(NewsWithdrawn{}, 1, nil)
	register(NewsRead{}, 1, nil)
}
