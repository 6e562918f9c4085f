package news

import (
	"strings"
	"testing"
	"time"

	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/commands/commandstest"
	"github.com/lotbook/lotbook/events"
)

func TestSanitizeRemovesWhatCouldRun(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`<p>Hi<script>alert(1)</script></p>`, `<p>Hi</p>`},
		{`<img src=x onerror="alert(1)"><p onclick="alert(2)">text</p>`, `<p>text</p>`},
		{`<a href="javascript:alert(1)">x</a>`, `x`},
		{`<a href="JaVaScRiPt:alert(1)">x</a>`, `x`},
		{`<a href="data:text/html,<script>alert(1)</script>">x</a>`, `x`},
		{`<a href="https://www.twse.com.tw/">TWSE</a>`, `<a href="https://www.twse.com.tw/" rel="nofollow noreferrer noopener" target="_blank">TWSE</a>`},
		{`<p style="position:fixed">a</p><style>p{}</style><iframe src="https://x"></iframe>`, `<p>a</p>`},
		{`<svg><script>alert(1)</script></svg><p>ok</p>`, `<p>ok</p>`},
		{`<ul><li><strong>漲停</strong>價</li></ul>`, `<ul><li><strong>漲停</strong>價</li></ul>`},
		{`1 < 2 & "q"`, `1 &lt; 2 &amp; &#34;q&#34;`},
	} {
		if got := Sanitize(tc.in); got != tc.want {
			t.Errorf("Sanitize(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestCleanText(t *testing.T) {
	ok := events.NewsText{TitleTW: "公告", TitleEN: "Notice", BodyTW: "<p>內容</p>", BodyEN: "<p>Body</p>"}
	with := func(f func(*events.NewsText)) events.NewsText { x := ok; f(&x); return x }
	for _, tc := range []struct {
		name string
		in   events.NewsText
		key  string
	}{
		{"fine", ok, ""},
		{"titles are trimmed", with(func(x *events.NewsText) { x.TitleEN = "  Notice " }), ""},
		{"no tw title", with(func(x *events.NewsText) { x.TitleTW = " " }), KeyNewsTitleInvalid},
		{"no en title", with(func(x *events.NewsText) { x.TitleEN = "" }), KeyNewsTitleInvalid},
		{"title too long", with(func(x *events.NewsText) { x.TitleTW = strings.Repeat("長", MaxTitle+1) }), KeyNewsTitleInvalid},
		{"title at the limit", with(func(x *events.NewsText) { x.TitleTW = strings.Repeat("長", MaxTitle) }), ""},
		{"control character", with(func(x *events.NewsText) { x.TitleEN = "a\u0007b" }), KeyNewsTitleInvalid},
		{"body only a script", with(func(x *events.NewsText) { x.BodyEN = "<script>alert(1)</script>" }), KeyNewsBodyInvalid},
		{"empty body", with(func(x *events.NewsText) { x.BodyTW = "" }), KeyNewsBodyInvalid},
		{"body too long", with(func(x *events.NewsText) { x.BodyTW = strings.Repeat("字", MaxBody+1) }), KeyNewsBodyInvalid},
		{"body not utf-8", with(func(x *events.NewsText) { x.BodyTW = "\xff\xfe" }), KeyNewsBodyInvalid},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := cleanText(tc.in)
			commandstest.WantKey(t, err, tc.key)
			if err == nil && got.TitleEN != "Notice" {
				t.Fatalf("title %q", got.TitleEN)
			}
		})
	}
}

var (
	t0   = time.Date(2026, 3, 2, 2, 0, 0, 0, time.UTC)
	text = events.NewsText{TitleTW: "標題", TitleEN: "Title", BodyTW: "<p>內容</p>", BodyEN: "<p>Body</p>"}
)

// itemOf is an item that lived through ps.
func itemOf(ps ...events.Payload) *item {
	it := &item{}
	for _, p := range ps {
		it.Apply(events.RecordedEvent{}, p)
	}
	return it
}

func TestDecideItem(t *testing.T) {
	drafted := events.NewsDrafted{ID: "x", Kind: events.NewsKindNotice, NewsText: text}
	later, soon := t0.Add(2*time.Hour), t0.Add(time.Minute)
	edited := text
	edited.BodyEN = "<p>Corrected</p>"
	for _, tc := range []struct {
		name   string
		decide func() ([]events.Payload, error)
		want   events.Payload // nil: no change
		key    string
	}{
		{"draft", func() ([]events.Payload, error) { return decideDraft(itemOf(), "x", events.NewsKindArticle, text) },
			events.NewsDrafted{ID: "x", Kind: events.NewsKindArticle, NewsText: text}, ""},
		{"draft over an item", func() ([]events.Payload, error) {
			return decideDraft(itemOf(drafted), "x", events.NewsKindArticle, text)
		}, nil, KeyNewsStateInvalid},
		{"edit", func() ([]events.Payload, error) { return decideEdit(itemOf(drafted), edited) }, events.NewsEdited{NewsText: edited}, ""},
		{"edit with the same text", func() ([]events.Payload, error) { return decideEdit(itemOf(drafted), text) }, nil, ""},
		{"edit a missing item", func() ([]events.Payload, error) { return decideEdit(itemOf(), text) }, nil, KeyNewsNotFound},
		{"schedule a draft", func() ([]events.Payload, error) { return decideSchedule(itemOf(drafted), later, t0) }, events.NewsScheduled{At: later}, ""},
		{"schedule in the past", func() ([]events.Payload, error) { return decideSchedule(itemOf(drafted), t0, t0) }, nil, KeyNewsScheduleInvalid},
		{"schedule too far", func() ([]events.Payload, error) {
			return decideSchedule(itemOf(drafted), t0.Add(MaxAhead+time.Second), t0)
		}, nil, KeyNewsScheduleInvalid},
		{"reschedule", func() ([]events.Payload, error) {
			return decideSchedule(itemOf(drafted, events.NewsScheduled{At: later}), soon, t0)
		}, events.NewsScheduled{At: soon}, ""},
		{"schedule again the same", func() ([]events.Payload, error) {
			return decideSchedule(itemOf(drafted, events.NewsScheduled{At: later}), later, t0)
		}, nil, ""},
		{"schedule a published item", func() ([]events.Payload, error) {
			return decideSchedule(itemOf(drafted, events.NewsPublished{At: t0}), later, t0)
		}, nil, KeyNewsStateInvalid},
		{"schedule one whose time came", func() ([]events.Payload, error) {
			return decideSchedule(itemOf(drafted, events.NewsScheduled{At: soon}), later, soon)
		}, nil, KeyNewsStateInvalid},
		{"schedule a withdrawn item", func() ([]events.Payload, error) {
			return decideSchedule(itemOf(drafted, events.NewsPublished{At: t0}, events.NewsWithdrawn{}), later, t0)
		}, events.NewsScheduled{At: later}, ""},
		{"publish a draft", func() ([]events.Payload, error) { return decidePublish(itemOf(drafted), t0) }, events.NewsPublished{At: t0}, ""},
		{"publish a scheduled item early", func() ([]events.Payload, error) {
			return decidePublish(itemOf(drafted, events.NewsScheduled{At: later}), t0)
		}, events.NewsPublished{At: t0}, ""},
		{"publish one whose time came", func() ([]events.Payload, error) {
			return decidePublish(itemOf(drafted, events.NewsScheduled{At: soon}), later)
		}, nil, ""},
		{"publish again", func() ([]events.Payload, error) {
			return decidePublish(itemOf(drafted, events.NewsPublished{At: t0}), later)
		}, nil, ""},
		{"publish a missing item", func() ([]events.Payload, error) { return decidePublish(itemOf(), t0) }, nil, KeyNewsNotFound},
		{"withdraw", func() ([]events.Payload, error) {
			return decideWithdraw(itemOf(drafted, events.NewsPublished{At: t0}), "wrong date")
		}, events.NewsWithdrawn{Reason: "wrong date"}, ""},
		{"withdraw a scheduled item", func() ([]events.Payload, error) {
			return decideWithdraw(itemOf(drafted, events.NewsScheduled{At: later}), "")
		}, events.NewsWithdrawn{}, ""},
		{"withdraw a draft", func() ([]events.Payload, error) { return decideWithdraw(itemOf(drafted), "") }, nil, KeyNewsStateInvalid},
		{"withdraw again", func() ([]events.Payload, error) {
			return decideWithdraw(itemOf(drafted, events.NewsPublished{At: t0}, events.NewsWithdrawn{}), "")
		}, nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.decide()
			commandstest.WantKey(t, err, tc.key)
			if tc.want == nil {
				if len(got) != 0 {
					t.Fatalf("got %#v, want no change", got)
				}
				return
			}
			if len(got) != 1 || got[0] != tc.want {
				t.Fatalf("got %#v, want %#v", got, tc.want)
			}
		})
	}
}

func TestDecideRead(t *testing.T) {
	reg := events.MemberRegistered{MemberID: "m1", Account: "0912345678", Role: events.RoleMember}
	member := func(ps ...events.Payload) *commands.Member {
		m := commands.NewMember("m1")
		for _, p := range ps {
			m.Apply(events.RecordedEvent{}, p)
		}
		return m
	}
	for _, tc := range []struct {
		name    string
		m       *commands.Member
		visible bool
		change  bool
		key     string
	}{
		{"first read", member(reg), true, true, ""},
		{"read again", member(reg, events.NewsRead{ID: "n1"}), true, false, ""},
		{"not visible", member(reg), false, false, KeyNewsNotFound},
		{"no member", member(), true, false, commands.KeyAccountNotExist},
		{"disabled", member(reg, events.AccountFlagChanged{Flag: events.FlagDisabled, On: true}), true, false, commands.KeyAccountDisabled},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := decideRead(tc.m, "n1", tc.visible)
			commandstest.WantKey(t, err, tc.key)
			if tc.change != (len(got) == 1) || tc.change && got[0] != (events.NewsRead{ID: "n1"}) {
				t.Fatalf("got %#v", got)
			}
		})
	}
}

// TestNewsAgainstTheStore: a retried draft writes once; a scheduled item cannot be read before
// its time and can after; a read is recorded once; a withdrawn item cannot be read; refusals
// write nothing.
func TestNewsAgainstTheStore(t *testing.T) {
	f := commandstest.New(t)
	f.SeedMembers()
	s := f.Register("0912345678", "LOTBOOK")
	n := New(f.Svc)
	ops := commandstest.Meta("ops:ops")

	id, r1, err := n.CreateDraft(f.Ctx, ops, Draft{Kind: events.NewsKindNotice, Text: text})
	f.Must(err)
	id2, r2, err := n.CreateDraft(f.Ctx, ops, Draft{Kind: events.NewsKindNotice, Text: text}) // the same key again
	f.Must(err)
	if id2 != id || r2 != r1 {
		t.Fatalf("retried draft: %s %+v, first %s %+v", id2, r2, id, r1)
	}
	_, err = n.Schedule(f.Ctx, commandstest.Meta("ops:ops"), id, f.Clock.Now().Add(time.Hour))
	f.Must(err)
	_, err = n.MarkRead(f.Ctx, commandstest.Meta("member:0912345678"), s.MemberID, id)
	commandstest.WantKey(t, err, KeyNewsNotFound)
	f.Clock.Add(time.Hour)
	_, err = n.MarkRead(f.Ctx, commandstest.Meta("member:0912345678"), s.MemberID, id)
	f.Must(err)
	_, err = n.MarkRead(f.Ctx, commandstest.Meta("member:0912345678"), s.MemberID, id)
	f.Must(err)
	_, err = n.Withdraw(f.Ctx, commandstest.Meta("ops:ops"), id, "superseded")
	f.Must(err)
	all := f.CheckLog()
	for typ, want := range map[string]int{"NewsDrafted": 1, "NewsScheduled": 1, "NewsRead": 1, "NewsWithdrawn": 1} {
		if got := commandstest.Count(all, typ); got != want {
			t.Errorf("%s: %d events, want %d", typ, got, want)
		}
	}

	bad := text
	bad.BodyEN = `<img src=x onerror="alert(1)">`
	for _, refuse := range []func() error{
		func() error { _, err := n.MarkRead(f.Ctx, commandstest.Meta("member:x"), s.MemberID, id); return err },
		func() error {
			_, err := n.MarkRead(f.Ctx, commandstest.Meta("member:x"), s.MemberID, "../member-x")
			return err
		},
		func() error { _, err := n.Edit(f.Ctx, commandstest.Meta("ops:ops"), id, bad); return err },
		func() error {
			_, _, err := n.CreateDraft(f.Ctx, commandstest.Meta("ops:ops"), Draft{Kind: "ad", Text: text})
			return err
		},
		func() error {
			_, err := n.Publish(f.Ctx, commandstest.Meta("ops:ops"), "9b2c6f4e-0000-4000-8000-000000000000")
			return err
		},
		func() error {
			_, err := n.Withdraw(f.Ctx, commandstest.Meta("ops:ops"), id, strings.Repeat("r", MaxReason+1))
			return err
		},
	} {
		if err := refuse(); err == nil {
			t.Errorf("refusal %d succeeded", len(all))
		}
	}
	if got := len(f.All()); got != len(all) {
		t.Fatalf("refusals wrote %d events", got-len(all))
	}
}
