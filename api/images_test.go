package api

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"github.com/lotbook/lotbook/api/httpx"
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
	out := append([]byte(nil), pngBytes(t, 1, 1)...)
	// IHDR's width and height live at bytes 16..23, its CRC (over type and data) at 29..32.
	binary.BigEndian.PutUint32(out[16:], uint32(w))
	binary.BigEndian.PutUint32(out[20:], uint32(h))
	binary.BigEndian.PutUint32(out[29:], crc32.ChecksumIEEE(out[12:29]))
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
		{"bomb", pngHeaderClaiming(t, 100000, 100000), "", http.StatusUnprocessableEntity},
		{"too wide", pngHeaderClaiming(t, 20000, 10), "", http.StatusUnprocessableEntity},
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
