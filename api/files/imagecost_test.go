package files

import (
	"bytes"
	"math"
	"os"
	"runtime"
	"testing"

	"github.com/lotbook/lotbook/api/testimage"
)

// jpegFrameOnly is SOI and a frame header (marker sof) of w x h with the components' sampling
// factors (h<<4|v): enough for costOf, which reads no further.
func jpegFrameOnly(sof byte, w, h int, sampling ...byte) []byte {
	seg := []byte{8, byte(h >> 8), byte(h), byte(w >> 8), byte(w), byte(len(sampling))}
	for i, s := range sampling {
		seg = append(seg, byte(i+1), s, 0)
	}
	n := len(seg) + 2
	return append([]byte{0xFF, 0xD8, 0xFF, 0xE0, 0, 4, 0, 0, 0xFF, sof, byte(n >> 8), byte(n)}, seg...)
}

// pngWith is a PNG header changed by edit (IHDR starts at byte 8), chunks inserted after IHDR.
func pngWith(raw []byte, edit func(b []byte), chunks ...[]byte) []byte {
	out := append([]byte(nil), raw[:33]...)
	edit(out)
	for _, c := range chunks {
		out = append(out, c...)
	}
	return append(out, raw[33:]...)
}

func TestCostOf(t *testing.T) {
	grey8 := testimage.PNG(100, 10, 8, testimage.Grey, 0)
	trns := []byte{0, 0, 0, 2, 't', 'R', 'N', 'S', 0, 0, 0, 0, 0, 0}
	tests := []struct {
		name         string
		raw          []byte
		pixels, work int64
	}{
		{"16-bit RGBA", testimage.PNG(100, 10, 16, testimage.RGBA, 0), 8000, 8000},
		{"8-bit RGBA", testimage.PNG(100, 10, 8, testimage.RGBA, 0), 4000, 4000},
		{"8-bit RGB", testimage.PNG(100, 10, 8, testimage.RGB, 0), 4000, 4000},
		{"8-bit grey", testimage.PNG(100, 10, 8, testimage.Grey, 0), 1000, 1000},
		{"16-bit grey", testimage.PNG(100, 10, 16, testimage.Grey, 0), 2000, 2000},
		{"16-bit grey with alpha", testimage.PNG(100, 10, 16, testimage.GreyAlpha, 0), 8000, 8000},
		{"paletted", testimage.PNG(100, 10, 8, testimage.Paletted, 0), 1000, 1000},
		{"interlaced 8-bit RGBA", testimage.Interlaced(100, 10, 8, testimage.RGBA, 0), 4000, 8000},
		{"8-bit grey with tRNS", pngWith(grey8, func([]byte) {}, trns), 4000, 4000},
		{"jpeg 4:2:0 baseline", testimage.GradientJPEG(32, 16), 32*16 + 2*16*8, 32*16 + 2*16*8},
		{"jpeg 4:4:4 progressive", jpegFrameOnly(0xC2, 1000, 1000, 0x11, 0x11, 0x11), 3 * 125 * 125 * 64, 3 * 125 * 125 * (64 + 256)},
		{"jpeg CMYK baseline", jpegFrameOnly(0xC0, 80, 80, 0x11, 0x11, 0x11, 0x11), 4*80*80 + 4*80*80, 4*80*80 + 4*80*80},
		{"lossy webp", testimage.WebP(), 0, 0}, // priced from its VP8 header; checked below
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := costOf(imageKind(tc.raw), tc.raw)
			if err != nil {
				t.Fatal(err)
			}
			if tc.pixels == 0 {
				if c.pixels <= 0 || c.work < c.pixels {
					t.Fatalf("cost %+v", c)
				}
				return
			}
			if c.pixels != tc.pixels || c.work != tc.work {
				t.Fatalf("cost %+v, want pixels %d work %d", c, tc.pixels, tc.work)
			}
		})
	}
}

// TestCostBoundsTheDecode checks the header's price against what the Go decoders allocate: at
// most the price plus a fixed overhead (Huffman tables, inflate window, row buffers).
func TestCostBoundsTheDecode(t *testing.T) {
	progressive, err := os.ReadFile("testdata/progressive.jpeg") // Go's image/testdata, 4:4:4
	if err != nil {
		t.Fatal(err)
	}
	const overhead = 128 << 10
	for name, raw := range map[string][]byte{
		"16-bit RGBA png":       testimage.PNG(600, 600, 16, testimage.RGBA, 0),
		"8-bit grey png":        testimage.PNG(1000, 1000, 8, testimage.Grey, 0),
		"baseline jpeg":         testimage.GradientJPEG(600, 400),
		"progressive jpeg":      progressive,
		"lossy webp":            testimage.WebP(),
		"8-bit paletted png":    testimage.PNG(1000, 1000, 8, testimage.Paletted, 0),
		"16-bit grey+alpha png": testimage.PNG(500, 500, 16, testimage.GreyAlpha, 0),
		"interlaced RGBA png":   testimage.Interlaced(500, 400, 8, testimage.RGBA, 0),
	} {
		t.Run(name, func(t *testing.T) {
			kind, cost, err := checkImage(raw)
			if err != nil {
				t.Fatal(err)
			}
			var least uint64 = math.MaxUint64
			for range 3 { // the least of three: other goroutines allocate too
				var before, after runtime.MemStats
				runtime.GC()
				runtime.ReadMemStats(&before)
				if _, err := codecs[kind].decode(bytes.NewReader(raw)); err != nil {
					t.Fatal(err)
				}
				runtime.ReadMemStats(&after)
				least = min(least, after.TotalAlloc-before.TotalAlloc)
			}
			if int64(least) > cost.work+overhead {
				t.Fatalf("decoding allocated %d bytes, priced %+v", least, cost)
			}
		})
	}
}
