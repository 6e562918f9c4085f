package web

import (
	"bytes"
	"compress/gzip"
	"io"
	"io/fs"
	"path"
	"strings"
	"testing"
)

// TestDistTextFilesPrecompressed: the embedded build carries a brotli and a gzip twin of every
// text file (the server sends those, never compressing per request); the gzip twin decodes to
// the file itself.
func TestDistTextFilesPrecompressed(t *testing.T) {
	dist := Dist()
	text := map[string]bool{".html": true, ".js": true, ".css": true, ".svg": true, ".json": true}
	n := 0
	err := fs.WalkDir(dist, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && strings.HasPrefix(d.Name(), ".") && p != "." {
			return fs.SkipDir // build records (.vite/manifest.json), never served to the app
		}
		if d.IsDir() || !text[path.Ext(p)] {
			return nil
		}
		n++
		data, err := fs.ReadFile(dist, p)
		if err != nil {
			return err
		}
		br, err := fs.ReadFile(dist, p+".br")
		if err != nil || len(br) == 0 {
			t.Errorf("%s: no brotli twin (%v)", p, err)
		}
		gz, err := fs.ReadFile(dist, p+".gz")
		if err != nil {
			t.Errorf("%s: no gzip twin (%v)", p, err)
			return nil
		}
		zr, err := gzip.NewReader(bytes.NewReader(gz))
		if err != nil {
			t.Errorf("%s.gz: %v", p, err)
			return nil
		}
		plain, err := io.ReadAll(zr)
		if err != nil || !bytes.Equal(plain, data) {
			t.Errorf("%s.gz does not decode to %s (%v)", p, p, err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		t.Fatal("no text file in the embedded build")
	}
}
