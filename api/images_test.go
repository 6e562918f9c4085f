package api

import (
	"bytes"
	"errors"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"github.com/lotbook/lotbook/api/wire"
)

func testImage(w, h int) image.Image {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.Set(x, y, color.RGBA{uint8(x), uint8(y), 128, 255})
		}
	}
	return img
}

func pngBytes(t testing.TB, w, h int) []byte {
	var b bytes.Buffer
	if err := png.Encode(&b, testImage(w, h)); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func jpegBytes(t testing.TB, w, h int) []byte {
	var b bytes.Buffer
	if err := jpeg.Encode(&b, testImage(w, h), nil); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// webpBytes is a small lossy WebP from golang.org/x/image's test data.
func webpBytes(t testing.TB) []byte {
	b, err := os.ReadFile("testdata/proof.webp")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// pngHeaderClaiming returns a PNG signature and IHDR that claim w x h pixels, with no pixel data.
func pngHeaderClaiming(t testing.TB, w, h int) []byte {
	b := pngBytes(t, 1, 1)
	out := append([]byte(nil), b...)
	// IHDR width/height live at bytes 16..23; the CRC is not checked by DecodeConfig.
	out[16], out[17], out[18], out[19] = byte(w>>24), byte(w>>16), byte(w>>8), byte(w)
	out[20], out[21], out[22], out[23] = byte(h>>24), byte(h>>16), byte(h>>8), byte(h)
	return out
}

func TestReencode(t *testing.T) {
	exifJPEG := append([]byte{0xFF, 0xD8, 0xFF, 0xE1, 0x00, 0x0E, 'E', 'x', 'i', 'f', 0, 0, 'G', 'P', 'S', '!', '!', '!'}, jpegBytes(t, 8, 8)[2:]...)
	cases := []struct {
		name   string
		in     []byte
		ct     string
		status int
	}{
		{"png", pngBytes(t, 20, 10), "image/png", 0},
		{"jpeg", jpegBytes(t, 20, 10), "image/jpeg", 0},
		{"jpeg with exif", exifJPEG, "image/jpeg", 0},
		{"webp", webpBytes(t), "image/jpeg", 0},
		{"text named .png", []byte("hello, this is not an image"), "", http.StatusUnsupportedMediaType},
		{"html", []byte("<html><script>alert(1)</script>"), "", http.StatusUnsupportedMediaType},
		{"gif", []byte("GIF89a\x01\x00\x01\x00\x00\x00\x00;"), "", http.StatusUnsupportedMediaType},
		{"truncated png", pngBytes(t, 20, 10)[:40], "", http.StatusUnsupportedMediaType},
		{"png header only", []byte("\x89PNG\r\n\x1a\n"), "", http.StatusUnsupportedMediaType},
		{"bomb", pngHeaderClaiming(t, 100000, 100000), "", http.StatusUnsupportedMediaType},
		{"too wide", pngHeaderClaiming(t, 20000, 10), "", http.StatusUnsupportedMediaType},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out, err := reencode(tc.in)
			if tc.status != 0 {
				var ae *apiError
				if !errors.As(err, &ae) || ae.status != tc.status || ae.key != wire.MessageKeyFileTypeInvalid {
					t.Fatalf("got %v, want %d file_type_invalid", err, tc.status)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if out.ContentType != tc.ct || imageKind(out.Bytes) == "" {
				t.Fatalf("content type %s, kind %q", out.ContentType, imageKind(out.Bytes))
			}
			if bytes.Contains(out.Bytes, []byte("Exif")) || bytes.Contains(out.Bytes, []byte("GPS!")) {
				t.Fatal("metadata survived re-encoding")
			}
		})
	}
}

func TestFileStoreByContentHash(t *testing.T) {
	fs := fileStore{dir: filepath.Join(t.TempDir(), "files")}
	id, err := fs.put([]byte("abc"))
	if err != nil {
		t.Fatal(err)
	}
	if id != "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" {
		t.Fatalf("id %s", id)
	}
	if again, err := fs.put([]byte("abc")); err != nil || again != id {
		t.Fatalf("second put %s, %v", again, err)
	}
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
