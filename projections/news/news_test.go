package news

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/projections"
	"github.com/lotbook/lotbook/projections/projtest"
)

const (
	a1 = "0a1b2c3d-0000-5000-8000-000000000001"
	a2 = "0a1b2c3d-0000-5000-8000-000000000002"
	n1 = "0a1b2c3d-0000-5000-8000-000000000003"
	n2 = "0a1b2c3d-0000-5000-8000-000000000004"
)

func text(title string) events.NewsText {
	return events.NewsText{TitleTW: title + " tw", TitleEN: title, BodyTW: "<p>" + title + "</p>", BodyEN: "<p>" + title + "</p>"}
}

// write has ops write the scenario: a published article, an article scheduled for t+1h, a
// published notice that is later withdrawn, a draft notice, and a member who read a1.
func write(e *projtest.Env, member string, t time.Time) {
	add := func(id string, ps ...events.Payload) { e.Add(events.NewsStream(id), "ops:ops", ps...) }
	add(a1, events.NewsDrafted{ID: a1, Kind: events.NewsKindArticle, NewsText: text("a1")}, events.NewsPublished{At: t})
	add(a2, events.NewsDrafted{ID: a2, Kind: events.NewsKindArticle, NewsText: text("a2")}, events.NewsScheduled{At: t.Add(time.Hour)})
	add(n1, events.NewsDrafted{ID: n1, Kind: events.NewsKindNotice, NewsText: text("n1")}, events.NewsPublished{At: t})
	add(n2, events.NewsDrafted{ID: n2, Kind: events.NewsKindNotice, NewsText: text("n2")})
	e.Add(events.MemberStream(member), "member:0912345678", events.NewsRead{ID: a1})
	add(a1, events.NewsEdited{NewsText: text("a1 corrected")})
	add(n1, events.NewsWithdrawn{Reason: "superseded"})
}

func titles(items []Item) []string {
	out := []string{}
	for _, it := range items {
		out = append(out, it.TitleEN)
	}
	return out
}

// TestNews: members see published items and scheduled ones from their time only, never drafts
// or withdrawn ones; read state and unread counts per member; ops see everything with who did
// what; the read model equals its replay, also after a rebuild.
func TestNews(t *testing.T) {
	projtest.Backends(t, func(t *testing.T, e *projtest.Env) {
		ctx := context.Background()
		m, other := e.Register("0912345678"), e.Register("0987654321")
		t0 := time.Date(2026, 3, 2, 2, 0, 0, 0, time.UTC)
		write(e, m, t0)
		db, r := e.Start()
		r.WaitFor(t, e.Head())

		check := func(now time.Time, member string, articles []string, unread Unread) {
			t.Helper()
			items, more, err := Published(ctx, db.Reader, member, events.NewsKindArticle, now, 1, 20)
			if err != nil || more {
				t.Fatalf("published: %v %v", more, err)
			}
			if got := titles(items); len(got) != len(articles) || len(got) > 0 && got[0] != articles[0] {
				t.Fatalf("articles at %s for %s: %v, want %v", now, member, got, articles)
			}
			u, err := UnreadCounts(ctx, db.Reader, member, now)
			if err != nil {
				t.Fatal(err)
			}
			if u != unread {
				t.Fatalf("unread at %s for %s: %+v, want %+v", now, member, u, unread)
			}
		}
		check(t0.Add(59*time.Minute), m, []string{"a1 corrected"}, Unread{})
		check(t0.Add(59*time.Minute), other, []string{"a1 corrected"}, Unread{Articles: 1})
		check(t0.Add(time.Hour), m, []string{"a2", "a1 corrected"}, Unread{Articles: 1})
		check(t0.Add(time.Hour), other, []string{"a2", "a1 corrected"}, Unread{Articles: 2})

		items, _, err := Published(ctx, db.Reader, m, events.NewsKindArticle, t0.Add(time.Hour), 1, 20)
		if err != nil || !items[1].Read || items[0].Read || items[0].State != events.NewsStatePublished {
			t.Fatalf("read flags %+v %v", items, err)
		}
		if notices, _, err := Published(ctx, db.Reader, m, events.NewsKindNotice, t0.Add(time.Hour), 1, 20); err != nil || len(notices) != 0 {
			t.Fatalf("notices %v %v", titles(notices), err)
		}
		if _, err := PublishedItem(ctx, db.Reader, m, a2, t0.Add(time.Minute)); err != projections.ErrNotFound {
			t.Fatalf("a2 before its time: %v", err)
		}
		if it, err := PublishedItem(ctx, db.Reader, m, a1, t0); err != nil || !it.Read || it.BodyEN != "<p>a1 corrected</p>" {
			t.Fatalf("a1: %+v %v", it, err)
		}
		for _, id := range []string{n1, n2, "nope"} {
			if _, err := PublishedItem(ctx, db.Reader, m, id, t0.Add(time.Hour)); err != projections.ErrNotFound {
				t.Fatalf("%s: %v", id, err)
			}
		}

		all, _, err := All(ctx, db.Reader, "", "", t0, 1, 20)
		if err != nil || len(all) != 4 {
			t.Fatalf("ops list %v %v", titles(all), err)
		}
		for state, want := range map[string]int{events.NewsStateScheduled: 1, events.NewsStateDraft: 1, events.NewsStateWithdrawn: 1, events.NewsStatePublished: 1} {
			if got, _, err := All(ctx, db.Reader, "", state, t0, 1, 20); err != nil || len(got) != want {
				t.Fatalf("ops list in %s: %v %v", state, titles(got), err)
			}
		}
		if got, _, _ := All(ctx, db.Reader, events.NewsKindArticle, events.NewsStatePublished, t0.Add(time.Hour), 1, 20); len(got) != 2 {
			t.Fatalf("published articles at t+1h: %v", titles(got))
		}
		h, err := History(ctx, db.Reader, a1)
		if err != nil || len(h) != 3 || h[0].Action != ActionDraft || h[1].Action != ActionPublish || h[2].Action != ActionEdit || h[2].Actor != "ops:ops" {
			t.Fatalf("history %+v %v", h, err)
		}
		it, err := Get(ctx, db.Reader, n1, t0)
		if err != nil || it.State != events.NewsStateWithdrawn || it.UpdatedBy != "ops:ops" {
			t.Fatalf("n1 %+v %v", it, err)
		}

		projtest.NoDiffs(t, r.Runner)
		if err := r.Rebuild(ctx, "news", nil); err != nil {
			t.Fatal(err)
		}
		check(t0.Add(time.Hour), m, []string{"a2", "a1 corrected"}, Unread{Articles: 1})
	})
}

// TestNewsOneByOne: the page fold agrees with applying every event in its own page.
func TestNewsOneByOne(t *testing.T) {
	e := projtest.SQLite(t)
	m := e.Register("0912345678")
	write(e, m, time.Date(2026, 3, 2, 2, 0, 0, 0, time.UTC))
	e.OneByOne(projector)
}

// TestNewsSplitLikeOne: items on their own streams and members' read marks, over both
// partitions of two, give two partitions the same rows as one runner: the scenario, then (applied
// by partitions that already hold the items) the scheduled article edited and published, four
// more items, and five more members reading.
func TestNewsSplitLikeOne(t *testing.T) {
	projtest.Backends(t, func(t *testing.T, e *projtest.Env) {
		t0 := time.Date(2026, 3, 2, 2, 0, 0, 0, time.UTC)
		id := func(i int) string { return fmt.Sprintf("0a1b2c3d-0000-5000-8000-0000000001%02d", i) }
		e.SplitLikeOne(t, projector, func() {
			write(e, e.Register("0912345678"), t0)
		}, func() {
			e.Add(events.NewsStream(a2), "ops:ops", events.NewsEdited{NewsText: text("a2 corrected")}, events.NewsPublished{At: t0.Add(time.Minute)})
			for i := range 4 {
				e.Add(events.NewsStream(id(i)), "ops:ops", events.NewsDrafted{ID: id(i), Kind: events.NewsKindNotice, NewsText: text(id(i))},
					events.NewsPublished{At: t0})
			}
			for i := range 5 {
				m := e.Register(fmt.Sprintf("09444444%02d", i))
				e.Add(events.MemberStream(m), "member:m", events.NewsRead{ID: a1}, events.NewsRead{ID: id(i % 4)})
			}
		})
	})
}
