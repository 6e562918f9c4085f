package api

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	_ "embed"
	"encoding/base64"
	"fmt"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strconv"
	"strings"
)

//go:embed logo.svg
var logoSVG []byte

// indexCSP lets the inline shell's style attribute and <style> in index.html apply; scripts are
// same-origin files plus index.html's own inline scripts, each allowed by its hash (filled in for
// %s: the first paint's boot script picks the prerendered welcome page before any file loads).
const indexCSP = "default-src 'self'; script-src 'self'%s; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; connect-src 'self' ws: wss:; frame-ancestors 'none'; base-uri 'self'; form-action 'self'"

// inlineScriptHashes lists the CSP sources (" 'sha256-...'") of the inline scripts of page: each
// <script> without src, hashed over its exact text as the browser does. A page that cannot be
// read allows none.
func inlineScriptHashes(page []byte) string {
	var out strings.Builder
	for {
		start := bytes.Index(page, []byte("<script"))
		if start < 0 {
			return out.String()
		}
		page = page[start:]
		tagEnd := bytes.IndexByte(page, '>')
		end := bytes.Index(page, []byte("</script>"))
		if tagEnd < 0 || end < tagEnd {
			return out.String()
		}
		if !bytes.Contains(page[:tagEnd], []byte(" src=")) {
			sum := sha256.Sum256(page[tagEnd+1 : end])
			out.WriteString(" 'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'")
		}
		page = page[end:]
	}
}

// precompressed lists the content codings the web build ships beside each text asset (NAME.br,
// NAME.gz, written by the build), most preferred first: brotli is smaller, so it wins a tie.
var (
	precompressed = []string{"br", "gzip"}
	codingSuffix  = map[string]string{"br": ".br", "gzip": ".gz"}
)

// static serves the embedded web build: index.html never cached (it names the current hashed
// assets, and carries the market list's first quotes: firstview.go), hashed assets cached for a
// year. Text files are sent in the precompressed coding the
// client prefers. The app uses hash routing, so there is no fallback; directories and hidden
// paths (the bundler's .vite/manifest.json maps every source file to its chunk) answer 404.
func (s *server) static() http.Handler {
	// The build is embedded, so index.html's inline scripts are fixed for the server's life.
	var page []byte
	if s.web != nil {
		page, _ = fs.ReadFile(s.web, "index.html")
	}
	csp := fmt.Sprintf(indexCSP, inlineScriptHashes(page))
	first, err := newFirstView(page, s.mkt, s.now, s.log)
	if err != nil {
		// The page is then served as built: its skeleton stands in for the market list.
		s.log.Error("index.html without the market list", "err", err)
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := strings.TrimPrefix(path.Clean(r.URL.Path), "/")
		if p == "" {
			p = "index.html"
		}
		info, err := fs.Stat(s.web, p)
		if err != nil || info.IsDir() || hidden(p) {
			http.NotFound(w, r)
			return
		}
		h := w.Header()
		switch {
		case p == "index.html":
			h.Set("Cache-Control", "no-cache")
			h.Set("Content-Security-Policy", csp)
		case p == "sw.js":
			// The service worker (the offline app shell) is checked for a new build as often as
			// the page.
			h.Set("Cache-Control", "no-cache")
		case strings.HasPrefix(p, "assets/"):
			h.Set("Cache-Control", "public, max-age=31536000, immutable")
		default:
			h.Set("Cache-Control", "public, max-age=3600")
		}
		if p == "index.html" && first != nil && first.serve(w, r) {
			return
		}
		s.serveFile(w, r, p)
	})
}

// hidden tells a path with a segment starting with a dot: build metadata, not part of the app.
func hidden(p string) bool {
	return strings.HasPrefix(p, ".") || strings.Contains(p, "/.")
}

// serveFile sends the file at p, or its precompressed twin when the client accepts that coding.
// Content-Type always names the original file's type; Content-Length is the bytes sent.
func (s *server) serveFile(w http.ResponseWriter, r *http.Request, p string) {
	h := w.Header()
	ctype := mime.TypeByExtension(path.Ext(p))
	if path.Ext(p) == ".webmanifest" {
		ctype = "application/manifest+json"
	}
	if ctype == "" {
		ctype = "application/octet-stream"
	}
	h.Set("Content-Type", ctype)
	name := p
	var offered []string
	for _, c := range precompressed {
		if info, err := fs.Stat(s.web, p+codingSuffix[c]); err == nil && !info.IsDir() {
			offered = append(offered, c)
		}
	}
	if len(offered) > 0 {
		h.Add("Vary", "Accept-Encoding")
		if coding := negotiateEncoding(r.Header.Get("Accept-Encoding"), offered); coding != "" {
			name = p + codingSuffix[coding]
			h.Set("Content-Encoding", coding)
		}
	}
	data, err := fs.ReadFile(s.web, name)
	if err != nil {
		h.Del("Content-Encoding")
		http.NotFound(w, r)
		return
	}
	// Written whole (the files are small): http.ServeContent leaves out Content-Length on an
	// encoded body.
	h.Set("Content-Length", strconv.Itoa(len(data)))
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		_, _ = w.Write(data)
	}
}

// negotiateEncoding picks the content coding to send from the ones offered (most preferred
// first), following the client's Accept-Encoding q-values (RFC 9110 §12.5.3): the highest q
// wins, a tie goes to the earlier offer, q=0 refuses, "*" stands for any coding not named, and
// "identity" named with a higher weight than every offer keeps the file as it is. "" means send
// the file as it is.
func negotiateEncoding(accept string, offered []string) string {
	q := map[string]float64{}
	star, hasStar := 0.0, false
	for _, part := range strings.Split(accept, ",") {
		coding, params, _ := strings.Cut(part, ";")
		coding = strings.ToLower(strings.TrimSpace(coding))
		if coding == "" {
			continue
		}
		weight := 1.0
		for _, param := range strings.Split(params, ";") {
			k, v, ok := strings.Cut(param, "=")
			if !ok || strings.ToLower(strings.TrimSpace(k)) != "q" {
				continue
			}
			f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
			if err != nil || f < 0 || f > 1 {
				f = 0 // a malformed weight is not consent to a coding
			}
			weight = f
		}
		if coding == "*" {
			star, hasStar = weight, true
			continue
		}
		q[coding] = weight
	}
	best, bestQ := "", 0.0
	for _, c := range offered {
		w, named := q[c]
		if !named && hasStar {
			w, named = star, true
		}
		if named && w > bestQ {
			best, bestQ = c, w
		}
	}
	if w, named := q["identity"]; named && w > bestQ {
		return ""
	}
	return best
}

// logoGzip is the logo compressed once: like the web build's text files, it is text sent to
// every new visitor.
var logoGzip = gzipBest(logoSVG)

// gzipBest compresses text sent alike to many visitors, at the best level: it is compressed once
// and sent often.
func gzipBest(p []byte) []byte {
	var b bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&b, gzip.BestCompression) // the level is valid
	_, _ = zw.Write(p)                                     // writes to memory cannot fail
	_ = zw.Close()
	return b.Bytes()
}

// logo is the default site logo, at /api/logo.svg (the app's image base is /api/).
func (s *server) logo(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Type", "image/svg+xml")
	h.Set("Cache-Control", "public, max-age=86400")
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'")
	writeGzipped(w, r, logoSVG, logoGzip)
}

// writeGzipped answers 200 with the gzipped form of a body when the client takes gzip, else the
// plain one, with the headers that say which (the caller sets the type and caching).
func writeGzipped(w http.ResponseWriter, r *http.Request, plain, gzipped []byte) {
	h := w.Header()
	h.Add("Vary", "Accept-Encoding")
	body := plain
	if negotiateEncoding(r.Header.Get("Accept-Encoding"), []string{"gzip"}) == "gzip" {
		h.Set("Content-Encoding", "gzip")
		body = gzipped
	}
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		_, _ = w.Write(body)
	}
}
