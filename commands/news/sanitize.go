package news

import (
	"strings"

	"github.com/microcosm-cc/bluemonday"
)

// bodyPolicy is the allow-list an article's or notice's body is cut to before it is written:
// paragraphs, emphasis, lists, quotes, small headings and links to http, https and mailto URLs
// (opened in a new tab, nofollow, noreferrer). Everything else goes: script and style with their
// content, event-handler and style attributes, images (no upload path of their own yet), and
// javascript: or data: URLs. A policy is safe for concurrent use once built.
var bodyPolicy = func() *bluemonday.Policy {
	p := bluemonday.NewPolicy()
	p.AllowElements("p", "br", "strong", "b", "em", "i", "u", "s", "ul", "ol", "li", "h3", "h4", "blockquote", "hr")
	p.AllowAttrs("href").OnElements("a")
	p.AllowURLSchemes("http", "https", "mailto")
	p.RequireParseableURLs(true)
	p.RequireNoFollowOnLinks(true)
	p.RequireNoReferrerOnLinks(true)
	p.AddTargetBlankToFullyQualifiedLinks(true)
	return p
}()

// textOnly keeps no element at all: what a body says once its markup is gone.
var textOnly = bluemonday.StrictPolicy()

// Sanitize cuts ops' HTML to the body allow-list.
func Sanitize(html string) string { return strings.TrimSpace(bodyPolicy.Sanitize(html)) }

// hasText tells whether sanitised HTML shows any text.
func hasText(html string) bool { return strings.TrimSpace(textOnly.Sanitize(html)) != "" }
