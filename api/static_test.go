package api

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/base64"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
)

func TestStaticNegotiateEncoding(t *testing.T) {
	both := []string{"br", "gzip"}
	for _, tc := range []struct {
		accept  string
		offered []string
		want    string
	}{
		{"", both, ""},
		{"gzip, deflate, br, zstd", both, "br"}, // Chromium's header: br wins the tie
		{"gzip, deflate", both, "gzip"},
		{"br", []string{"gzip"}, ""},
		{"gzip;q=1, br;q=0.5", both, "gzip"},
		{"br;q=0.8, gzip;q=0.9", both, "gzip"},
		{"br;q=0, gzip", both, "gzip"},
		{"br;q=0, gzip;q=0", both, ""},
		{"*", both, "br"},
		{"*;q=0.5, br;q=0", both, "gzip"},
		{"gzip;q=0.5, identity", both, ""},
		{"identity;q=0.5, gzip", both, "gzip"},
		{"BR ; Q=0.7 , gzip;q=0.6", both, "br"},
		{"br;q=x, gzip", both, "gzip"}, // a malformed weight does not consent
		{"br;q=2", both, ""},
		{" , ,gzip", both, "gzip"},
	} {
		if got := negotiateEncoding(tc.accept, tc.offered); got != tc.want {
			t.Errorf("negotiateEncoding(%q, %v) = %q, want %q", tc.accept, tc.offered, got, tc.want)
		}
	}
}

func gz(t *testing.T, b []byte) []byte {
	t.Helper()
	var out bytes.Buffer
	zw := gzip.NewWriter(&out)
	if _, err := zw.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// TestStaticServesPrecompressed: a text asset goes out in the coding the browser prefers, with the
// original's type, the sent length and Vary; a file without twins goes out as it is.
func TestStaticServesPrecompressed(t *testing.T) {
	js := bytes.Repeat([]byte("console.log('lotbook');\n"), 50)
	html := []byte("<!doctype html><title>lotbook</title>")
	// The .br bodies are stand-ins: the server sends the build's bytes, it never encodes.
	web := fstest.MapFS{
		"index.html":            {Data: html},
		"index.html.br":         {Data: []byte("br-index")},
		"index.html.gz":         {Data: gz(t, html)},
		"assets/app-1a2b.js":    {Data: js},
		"assets/app-1a2b.js.br": {Data: []byte("br-js")},
		"assets/app-1a2b.js.gz": {Data: gz(t, js)},
		"assets/logo-3c4d.png":  {Data: []byte("\x89PNG\r\n\x1a\n")},
	}
	s := &server{web: web}
	get := func(method, p, accept string) *http.Response {
		req := httptest.NewRequest(method, p, nil)
		if accept != "" {
			req.Header.Set("Accept-Encoding", accept)
		}
		rec := httptest.NewRecorder()
		s.static().ServeHTTP(rec, req)
		return rec.Result()
	}
	for _, tc := range []struct {
		path, accept       string
		coding, ctype      string
		body               []byte
		vary, cacheControl string
	}{
		{"/assets/app-1a2b.js", "gzip, deflate, br, zstd", "br", "text/javascript; charset=utf-8", []byte("br-js"), "Accept-Encoding", "public, max-age=31536000, immutable"},
		{"/assets/app-1a2b.js", "gzip", "gzip", "text/javascript; charset=utf-8", gz(t, js), "Accept-Encoding", "public, max-age=31536000, immutable"},
		{"/assets/app-1a2b.js", "", "", "text/javascript; charset=utf-8", js, "Accept-Encoding", "public, max-age=31536000, immutable"},
		{"/", "br, gzip", "br", "text/html; charset=utf-8", []byte("br-index"), "Accept-Encoding", "no-cache"},
		{"/index.html", "gzip", "gzip", "text/html; charset=utf-8", gz(t, html), "Accept-Encoding", "no-cache"},
		{"/", "", "", "text/html; charset=utf-8", html, "Accept-Encoding", "no-cache"},
		{"/assets/logo-3c4d.png", "br, gzip", "", "image/png", []byte("\x89PNG\r\n\x1a\n"), "", "public, max-age=31536000, immutable"},
	} {
		resp := get("GET", tc.path, tc.accept)
		body, _ := io.ReadAll(resp.Body)
		h := resp.Header
		if resp.StatusCode != 200 || h.Get("Content-Encoding") != tc.coding || h.Get("Content-Type") != tc.ctype ||
			h.Get("Vary") != tc.vary || h.Get("Cache-Control") != tc.cacheControl ||
			h.Get("Content-Length") != strconv.Itoa(len(tc.body)) || !bytes.Equal(body, tc.body) {
			t.Errorf("GET %s (Accept-Encoding %q): %d encoding %q type %q vary %q cache %q length %q body %.80q",
				tc.path, tc.accept, resp.StatusCode, h.Get("Content-Encoding"), h.Get("Content-Type"), h.Get("Vary"),
				h.Get("Cache-Control"), h.Get("Content-Length"), body)
		}
	}
	if h := get("GET", "/", "").Header; h.Get("Content-Security-Policy") == "" {
		t.Error("index.html without its Content-Security-Policy")
	}
	head := get("HEAD", "/assets/app-1a2b.js", "gzip")
	if head.Header.Get("Content-Length") != strconv.Itoa(len(gz(t, js))) || head.Header.Get("Content-Encoding") != "gzip" {
		t.Errorf("HEAD: length %q encoding %q", head.Header.Get("Content-Length"), head.Header.Get("Content-Encoding"))
	}
}

// TestStaticNoDirectoryListing: no folder under the web root lists its files, with or without
// the trailing slash, and hidden build metadata (.vite) is not served.
func TestStaticNoDirectoryListing(t *testing.T) {
	s := &server{web: fstest.MapFS{
		"index.html":             {Data: []byte("<!doctype html>")},
		"assets/app-1a2b.js":     {Data: []byte("1")},
		"assets/img/logo-9f.svg": {Data: []byte("<svg/>")},
		".vite/manifest.json":    {Data: []byte(`{"app-1a2b":1}`)},
		"assets/.hidden":         {Data: []byte("app-1a2b")},
	}}
	for _, p := range []string{"/assets/", "/assets", "/assets/img/", "/assets/img", "/assets/./", "/assets/img/../",
		"/.vite/manifest.json", "/.vite/", "/assets/.hidden"} {
		rec := httptest.NewRecorder()
		s.static().ServeHTTP(rec, httptest.NewRequest("GET", p, nil))
		if rec.Code != http.StatusNotFound || bytes.Contains(rec.Body.Bytes(), []byte("app-1a2b")) || bytes.Contains(rec.Body.Bytes(), []byte("logo-9f")) {
			t.Errorf("GET %s: %d %q, want 404 without a listing", p, rec.Code, rec.Body.String())
		}
	}
}

// TestStaticLogoCompressed: the default logo (text, fetched by every first visit) goes out gzipped
// to a browser that accepts it, plain to one that does not.
func TestStaticLogoCompressed(t *testing.T) {
	s := &server{}
	for _, accept := range []string{"gzip, deflate, br", ""} {
		req := httptest.NewRequest("GET", "/api/logo.svg", nil)
		if accept != "" {
			req.Header.Set("Accept-Encoding", accept)
		}
		rec := httptest.NewRecorder()
		s.logo(rec, req)
		body := rec.Body.Bytes()
		if accept != "" {
			if rec.Header().Get("Content-Encoding") != "gzip" {
				t.Fatalf("Accept-Encoding %q: encoding %q", accept, rec.Header().Get("Content-Encoding"))
			}
			zr, err := gzip.NewReader(bytes.NewReader(body))
			if err != nil {
				t.Fatal(err)
			}
			if body, err = io.ReadAll(zr); err != nil {
				t.Fatal(err)
			}
		}
		if !bytes.Equal(body, logoSVG) || rec.Header().Get("Vary") != "Accept-Encoding" || rec.Header().Get("Content-Type") != "image/svg+xml" ||
			rec.Header().Get("Content-Length") != strconv.Itoa(rec.Body.Len()) {
			t.Errorf("Accept-Encoding %q: headers %v, body %q", accept, rec.Header(), body)
		}
	}
}

// TestStaticInlineScriptsAllowed: index.html's inline scripts (the first paint's boot script) run
// under its Content-Security-Policy, each by the hash of its exact text; script files stay
// same-origin, and a script the page does not carry is not allowed.
func TestStaticInlineScriptsAllowed(t *testing.T) {
	boot := "\n      (function () { document.title = 'x'; })();\n    "
	page := []byte(`<!doctype html><head><script type="module" crossorigin src="./assets/index-1a.js"></script></head>` +
		`<body><div id="root"></div><script>` + boot + `</script><script>load()</script></body>`)
	sum := func(s string) string {
		h := sha256.Sum256([]byte(s))
		return "'sha256-" + base64.StdEncoding.EncodeToString(h[:]) + "'"
	}
	s := &server{web: fstest.MapFS{"index.html": {Data: page}}}
	rec := httptest.NewRecorder()
	s.static().ServeHTTP(rec, httptest.NewRequest("GET", "/", nil))
	csp := rec.Header().Get("Content-Security-Policy")
	want := "script-src 'self' " + sum(boot) + " " + sum("load()") + ";"
	if !strings.Contains(csp, want) || strings.Contains(csp, "unsafe-inline'; img") || strings.Contains(csp, sum("other()")) {
		t.Errorf("CSP %q, want it to contain %q", csp, want)
	}
	if got := inlineScriptHashes([]byte("<script>unterminated")); got != "" {
		t.Errorf("an unterminated script allowed %q", got)
	}
}
