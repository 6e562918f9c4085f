package events

// The news events' samples join the catalogue's (catalogue_test.go) from this file.
func init() {
	text := NewsText{TitleTW: "休市公告", TitleEN: "Market holiday", BodyTW: "<p>12 月 25 日<strong>休市</strong>。</p>",
		BodyEN: `<p>Closed on 25 December. <a href="https://www.twse.com.tw" rel="nofollow noopener" target="_blank">TWSE</a></p>`}
	samples = append(samples,
		NewsDrafted{ID: "8f14e45f-ceea-567a-a2b0-4d6e8b7c9a10", Kind: NewsKindNotice, NewsText: text},
		NewsEdited{NewsText: text},
		NewsScheduled{At: mustTime("2026-12-20T01:00:00Z")},
		NewsPublished{At: mustTime("2026-12-20T01:00:00Z")},
		NewsWithdrawn{Reason: "date corrected"},
		NewsRead{ID: "8f14e45f-ceea-567a-a2b0-4d6e8b7c9a10"},
	)
}
