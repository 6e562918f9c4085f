package api

import (
	_ "embed"
	"io/fs"
	"net/http"
	"path"
	"strings"
)

//go:embed logo.svg
var logoSVG []byte

// static serves the embedded web build: index.html never cached (it names the current hashed
// assets), hashed assets cached for a year. The app uses hash routing, so there is no fallback.
func (s *server) static() http.Handler {
	files := http.FileServerFS(s.web)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := strings.TrimPrefix(path.Clean(r.URL.Path), "/")
		if p == "" || p == "index.html" {
			index, err := fs.ReadFile(s.web, "index.html")
			if err != nil {
				http.NotFound(w, r)
				return
			}
			h := w.Header()
			h.Set("Content-Type", "text/html; charset=utf-8")
			h.Set("Cache-Control", "no-cache")
			h.Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; connect-src 'self' ws: wss:; frame-ancestors 'none'; base-uri 'self'; form-action 'self'")
			_, _ = w.Write(index)
			return
		}
		if _, err := fs.Stat(s.web, p); err != nil {
			http.NotFound(w, r)
			return
		}
		if strings.HasPrefix(p, "assets/") {
			w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
		} else {
			w.Header().Set("Cache-Control", "public, max-age=3600")
		}
		files.ServeHTTP(w, r)
	})
}

// logo is the default site logo, at /api/logo.svg (the app's image base is /api/).
func (s *server) logo(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Type", "image/svg+xml")
	h.Set("Cache-Control", "public, max-age=86400")
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'")
	_, _ = w.Write(logoSVG)
}
