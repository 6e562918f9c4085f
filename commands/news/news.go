// Package news is the write side of news and notices: ops draft an item (an article or a
// notice, in zh-TW and en), edit it, schedule it, publish it and withdraw it, each an event on
// the item's own stream (news-<id>) with who and when in its metadata; a member's read of an
// item is NewsRead on the member stream (a part of the member aggregate).
//
// Scheduling writes NewsScheduled with the time and nothing at that time: readers (the read
// model, MarkRead here) treat a scheduled item as published from its time (events.NewsState).
// No timer has to fire for an item to appear, and none can make it appear early.
package news

import (
	"context"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/google/uuid"

	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/events"
)

// Message keys of news and notices.
const (
	KeyNewsNotFound        = "news_not_found"
	KeyNewsKindInvalid     = "news_kind_invalid"
	KeyNewsTitleInvalid    = "news_title_invalid"
	KeyNewsBodyInvalid     = "news_body_invalid"
	KeyNewsStateInvalid    = "news_state_invalid"
	KeyNewsScheduleInvalid = "news_schedule_invalid"
)

// Limits of an item's text, per language. A body is counted before sanitising: two of them in
// Chinese (three bytes a character) stay within the API's 64 KiB request body.
const (
	MaxTitle  = 120
	MaxBody   = 8000
	MaxReason = 200
	// MaxAhead is how far ahead an item may be scheduled.
	MaxAhead = 366 * 24 * time.Hour
)

// item is one article's or notice's stream.
type item struct {
	exists bool
	kind   string
	state  string
	at     time.Time // publication time, once scheduled or published
	text   events.NewsText
}

func init() {
	commands.RegisterStreams(events.NewsStream(""), func(string) commands.State { return &item{} })
}

// Apply evolves the item.
func (it *item) Apply(_ events.RecordedEvent, p events.Payload) {
	switch e := p.(type) {
	case events.NewsDrafted:
		it.exists, it.kind, it.state, it.text = true, e.Kind, events.NewsStateDraft, e.NewsText
	case events.NewsEdited:
		it.text = e.NewsText
	case events.NewsScheduled:
		it.state, it.at = events.NewsStateScheduled, e.At
	case events.NewsPublished:
		it.state, it.at = events.NewsStatePublished, e.At
	case events.NewsWithdrawn:
		it.state = events.NewsStateWithdrawn
	}
}

// stateAt is the item's state as members see it at now.
func (it *item) stateAt(now time.Time) string { return events.NewsState(it.state, it.at, now) }

// reads is the member's read items.
type reads struct{ ids map[string]bool }

var readsPart = commands.RegisterMemberPart("news", func(string) *reads { return &reads{ids: map[string]bool{}} })

// Apply evolves the member's read items.
func (r *reads) Apply(_ events.RecordedEvent, p events.Payload) {
	if e, ok := p.(events.NewsRead); ok {
		r.ids[e.ID] = true
	}
}

// validTitle: trimmed, 1..MaxTitle characters, no control characters (titles are plain text).
func validTitle(s string) bool {
	if s == "" || s != strings.TrimSpace(s) || !utf8.ValidString(s) || utf8.RuneCountInString(s) > MaxTitle {
		return false
	}
	return strings.IndexFunc(s, unicode.IsControl) < 0
}

// cleanText checks both languages' titles and bodies and sanitises the bodies; a body with no
// text left after sanitising is refused, so a script alone never becomes an empty article.
func cleanText(in events.NewsText) (events.NewsText, error) {
	in.TitleTW, in.TitleEN = strings.TrimSpace(in.TitleTW), strings.TrimSpace(in.TitleEN)
	if !validTitle(in.TitleTW) || !validTitle(in.TitleEN) {
		return events.NewsText{}, commands.Invalid(KeyNewsTitleInvalid)
	}
	for _, b := range []*string{&in.BodyTW, &in.BodyEN} {
		if !utf8.ValidString(*b) || utf8.RuneCountInString(*b) > MaxBody {
			return events.NewsText{}, commands.Invalid(KeyNewsBodyInvalid)
		}
		*b = Sanitize(*b)
		if !hasText(*b) {
			return events.NewsText{}, commands.Invalid(KeyNewsBodyInvalid)
		}
	}
	return in, nil
}

func validKind(k string) bool { return k == events.NewsKindArticle || k == events.NewsKindNotice }

// ValidID guards stream names built from ids the API passes on.
func ValidID(id string) bool {
	u, err := uuid.Parse(id)
	return err == nil && u.String() == id
}

func decideDraft(it *item, id, kind string, text events.NewsText) ([]events.Payload, error) {
	if it.exists {
		return nil, commands.Rule(KeyNewsStateInvalid)
	}
	return []events.Payload{events.NewsDrafted{ID: id, Kind: kind, NewsText: text}}, nil
}

func decideEdit(it *item, text events.NewsText) ([]events.Payload, error) {
	if !it.exists {
		return nil, commands.NotFound(KeyNewsNotFound)
	}
	if it.text == text {
		return nil, nil
	}
	return []events.Payload{events.NewsEdited{NewsText: text}}, nil
}

// decideSchedule: a draft, a scheduled or a withdrawn item may be (re)scheduled for a time after
// now and within MaxAhead; one members already see must be withdrawn first, so that scheduling
// never hides a published item by surprise.
func decideSchedule(it *item, at, now time.Time) ([]events.Payload, error) {
	if !it.exists {
		return nil, commands.NotFound(KeyNewsNotFound)
	}
	if !at.After(now) || at.Sub(now) > MaxAhead {
		return nil, commands.Invalid(KeyNewsScheduleInvalid)
	}
	switch it.stateAt(now) {
	case events.NewsStatePublished:
		return nil, commands.Rule(KeyNewsStateInvalid)
	case events.NewsStateScheduled:
		if it.at.Equal(at) {
			return nil, nil
		}
	}
	return []events.Payload{events.NewsScheduled{At: at}}, nil
}

// decidePublish publishes now; an item members already see is no change.
func decidePublish(it *item, now time.Time) ([]events.Payload, error) {
	if !it.exists {
		return nil, commands.NotFound(KeyNewsNotFound)
	}
	if it.stateAt(now) == events.NewsStatePublished {
		return nil, nil
	}
	return []events.Payload{events.NewsPublished{At: now}}, nil
}

// decideWithdraw takes down a published or scheduled item; a draft has nothing to take down.
func decideWithdraw(it *item, reason string) ([]events.Payload, error) {
	if !it.exists {
		return nil, commands.NotFound(KeyNewsNotFound)
	}
	switch it.state {
	case events.NewsStateDraft:
		return nil, commands.Rule(KeyNewsStateInvalid)
	case events.NewsStateWithdrawn:
		return nil, nil
	}
	return []events.Payload{events.NewsWithdrawn{Reason: reason}}, nil
}

// decideRead records a member's first read of an item members see (visible, as the item's
// stream said at the command's time).
func decideRead(m *commands.Member, id string, visible bool) ([]events.Payload, error) {
	if !m.Registered() {
		return nil, commands.NotFound(commands.KeyAccountNotExist)
	}
	if err := m.RefuseFlags(events.FlagDisabled); err != nil {
		return nil, err
	}
	if !visible {
		return nil, commands.NotFound(KeyNewsNotFound)
	}
	if readsPart.Of(m).ids[id] {
		return nil, nil
	}
	return []events.Payload{events.NewsRead{ID: id}}, nil
}

// Commands are news and notices' commands over the kernel k.
type Commands struct{ k *commands.Service }

// New returns news and notices' commands over the kernel k.
func New(k *commands.Service) *Commands { return &Commands{k: k} }

// Draft is a new item.
type Draft struct {
	Kind string
	Text events.NewsText
}

// draftNamespace roots item ids: an item's id comes from the command that drafted it, so that a
// retried draft writes the same stream once.
var draftNamespace = uuid.MustParse("6a3e1f0c-9b7d-5c42-8e15-2f4a6d8b0c97")

// CreateDraft writes a new item as a draft and answers its id.
func (s *Commands) CreateDraft(ctx context.Context, meta commands.Meta, in Draft) (string, commands.Result, error) {
	c, err := s.k.Begin(meta, "news.draft")
	if err != nil {
		return "", commands.Result{}, err
	}
	if !validKind(in.Kind) {
		return "", commands.Result{}, commands.Invalid(KeyNewsKindInvalid)
	}
	text, err := cleanText(in.Text)
	if err != nil {
		return "", commands.Result{}, err
	}
	id := uuid.NewSHA1(draftNamespace, []byte(c.CommandID)).String()
	res, err := s.onItem(ctx, c, id, func(it *item) ([]events.Payload, error) { return decideDraft(it, id, in.Kind, text) })
	return id, res, err
}

// Edit replaces an item's text.
func (s *Commands) Edit(ctx context.Context, meta commands.Meta, id string, text events.NewsText) (commands.Result, error) {
	c, err := s.k.Begin(meta, "news.edit")
	if err != nil {
		return commands.Result{}, err
	}
	clean, err := cleanText(text)
	if err != nil {
		return commands.Result{}, err
	}
	return s.onItem(ctx, c, id, func(it *item) ([]events.Payload, error) { return decideEdit(it, clean) })
}

// Schedule makes an item visible to members from at.
func (s *Commands) Schedule(ctx context.Context, meta commands.Meta, id string, at time.Time) (commands.Result, error) {
	c, err := s.k.Begin(meta, "news.schedule")
	if err != nil {
		return commands.Result{}, err
	}
	at = at.UTC().Truncate(time.Second)
	return s.onItem(ctx, c, id, func(it *item) ([]events.Payload, error) { return decideSchedule(it, at, c.Now) })
}

// Publish makes an item visible to members now.
func (s *Commands) Publish(ctx context.Context, meta commands.Meta, id string) (commands.Result, error) {
	c, err := s.k.Begin(meta, "news.publish")
	if err != nil {
		return commands.Result{}, err
	}
	return s.onItem(ctx, c, id, func(it *item) ([]events.Payload, error) { return decidePublish(it, c.Now) })
}

// Withdraw takes an item away from members.
func (s *Commands) Withdraw(ctx context.Context, meta commands.Meta, id, reason string) (commands.Result, error) {
	c, err := s.k.Begin(meta, "news.withdraw")
	if err != nil {
		return commands.Result{}, err
	}
	reason = strings.TrimSpace(reason)
	if utf8.RuneCountInString(reason) > MaxReason || !utf8.ValidString(reason) {
		return commands.Result{}, commands.Invalid(commands.KeyInvalidRequest)
	}
	return s.onItem(ctx, c, id, func(it *item) ([]events.Payload, error) { return decideWithdraw(it, reason) })
}

// MarkRead records that the member read item id, which members must see at this moment.
func (s *Commands) MarkRead(ctx context.Context, meta commands.Meta, memberID, id string) (commands.Result, error) {
	c, err := s.k.Begin(meta, "news.read")
	if err != nil {
		return commands.Result{}, err
	}
	if !ValidID(id) {
		return commands.Result{}, commands.NotFound(KeyNewsNotFound)
	}
	visible, err := commands.View(ctx, s.k, events.NewsStream(id), func(it *item, _ *commands.Entry) bool {
		return it.exists && it.stateAt(c.Now) == events.NewsStatePublished
	})
	if err != nil {
		return commands.Result{}, err
	}
	rec, err := s.k.MemberCommand(ctx, c, memberID, func(m *commands.Member) ([]events.Payload, error) {
		return decideRead(m, id, visible)
	})
	if err != nil {
		return commands.Result{}, err
	}
	return commands.Result{Position: rec.Position}, nil
}

func (s *Commands) onItem(ctx context.Context, c commands.Cmd, id string, decide func(*item) ([]events.Payload, error)) (commands.Result, error) {
	if !ValidID(id) {
		return commands.Result{}, commands.NotFound(KeyNewsNotFound)
	}
	rec, err := commands.Execute(ctx, s.k, c, events.NewsStream(id), decide)
	if err != nil {
		return commands.Result{}, err
	}
	return commands.Result{Position: rec.Position}, nil
}
