package files

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"github.com/lotbook/lotbook/api/httpx"
	"github.com/lotbook/lotbook/api/testimage"
	"github.com/lotbook/lotbook/api/wire"
)

func TestReencode(t *testing.T) {
	exifJPEG := append([]byte{0xFF, 0xD8, 0xFF, 0xE1, 0x00, 0x0E, 'E', 'x', 'i', 'f', 0, 0, 'G', 'P', 'S', '!', '!', '!'}, testimage.GradientJPEG(8, 8)[2:]...)
	cases := []struct {
		name   string
		in     []byte
		ct     string
		status int
	}{
		{"png", testimage.GradientPNG(20, 10), "image/png", 0},
		{"jpeg", testimage.GradientJPEG(20, 10), "image/jpeg", 0},
		{"jpeg with exif", exifJPEG, "image/jpeg", 0},
		{"webp", testimage.WebP(), "image/jpeg", 0},
		{"text named .png", []byte("hello, this is not an image"), "", http.StatusUnsupportedMediaType},
		{"html", []byte("<html><script>alert(1)</script>"), "", http.StatusUnsupportedMediaType},
		{"gif", []byte("GIF89a\x01\x00\x01\x00\x00\x00\x00;"), "", http.StatusUnsupportedMediaType},
		{"truncated png", testimage.GradientPNG(20, 10)[:40], "", http.StatusUnsupportedMediaType},
		{"png header only", []byte("\x89PNG\r\n\x1a\n"), "", http.StatusUnsupportedMediaType},
		{"bomb", testimage.PNGClaiming(100000, 100000), "", http.StatusUnprocessableEntity},
		{"too wide", testimage.PNGClaiming(20000, 10), "", http.StatusUnprocessableEntity},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			img, err := checkAndReencode(tc.in, &out)
			if tc.status != 0 {
				var ae *httpx.Error
				want := wire.MessageKeyFileTypeInvalid
				if tc.status == http.StatusUnprocessableEntity {
					want = wire.MessageKeyImageTooLarge
				}
				if !errors.As(err, &ae) || ae.Status != tc.status || ae.Key != want {
					t.Fatalf("got %v, want %d %s", err, tc.status, want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if img.ContentType != tc.ct || imageKind(out.Bytes()) == "" {
				t.Fatalf("content type %s, kind %q", img.ContentType, imageKind(out.Bytes()))
			}
			if bytes.Contains(out.Bytes(), []byte("Exif")) || bytes.Contains(out.Bytes(), []byte("GPS!")) {
				t.Fatal("metadata survived re-encoding")
			}
		})
	}
}

func checkAndReencode(raw []byte, w io.Writer) (cleanImage, error) {
	kind, _, err := checkImage(raw)
	if err != nil {
		return cleanImage{}, err
	}
	return reencode(kind, raw, w)
}

func TestFileStoreByContentHash(t *testing.T) {
	fs := fileStore{dir: filepath.Join(t.TempDir(), "files")}
	put := func(b []byte) (string, error) {
		f, err := fs.stage()
		if err != nil {
			return "", err
		}
		defer f.discard()
		if _, err := f.Write(b); err != nil {
			return "", err
		}
		return f.commit()
	}
	id, err := put([]byte("abc"))
	if err != nil {
		t.Fatal(err)
	}
	if id != "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" {
		t.Fatalf("id %s", id)
	}
	if again, err := put([]byte("abc")); err != nil || again != id {
		t.Fatalf("second put %s, %v", again, err)
	}
	discarded, err := fs.stage()
	if err != nil {
		t.Fatal(err)
	}
	_, _ = discarded.Write([]byte("refused"))
	discarded.discard()
	f, err := fs.open(id)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	for _, bad := range []string{"../../etc/passwd", "x", id[:63] + "g", ""} {
		if _, err := fs.open(bad); !errors.Is(err, errFileNotFound) {
			t.Fatalf("open %q: %v", bad, err)
		}
	}
	entries, _ := os.ReadDir(fs.dir)
	if len(entries) != 1 {
		t.Fatalf("%d files left, want 1 (no temp files)", len(entries))
	}
}
