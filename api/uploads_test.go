package api

import (
	"bytes"
	"context"
	"errors"
	"math"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/lotbook/lotbook/api/testimage"
	"github.com/lotbook/lotbook/api/wire"
)

// storedFiles counts the files in the upload store (temporary files included).
func (h *harness) storedFiles() int {
	h.t.Helper()
	entries, err := os.ReadDir(filepath.Join(h.st.cfg.DataDir, "files"))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		h.t.Fatal(err)
	}
	return len(entries)
}

func TestUploadPricesTheDecodeInBytes(t *testing.T) {
	h := newHarness(t, testDB{kind: "sqlite"}, RateLimits{})
	m := h.register("0933000001")
	// Same 9 megapixels, far under the pixel cap: 16-bit RGBA decodes to 72 MB, 16-bit grey
	// to 18 MB. Both are a few KB on the wire.
	rgba16 := testimage.PNG(3000, 3000, 16, testimage.RGBA, 1)
	grey16 := testimage.PNG(3000, 3000, 16, testimage.Grey, 1)
	if len(rgba16) > 100<<10 {
		t.Fatalf("the bomb is %d bytes", len(rgba16))
	}
	files := h.storedFiles()
	h.unchanged(func() { want(t, m.upload("receipt.png", rgba16), 422, "image_too_large") })
	if n := h.storedFiles(); n != files {
		t.Fatalf("a refused upload left %d files", n-files)
	}
	want(t, m.upload("receipt.png", grey16), 200, "ok")
}

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
		{"jpeg 4:2:0 baseline", jpegBytes(t, 32, 16), 32*16 + 2*16*8, 32*16 + 2*16*8},
		{"jpeg 4:4:4 progressive", jpegFrameOnly(0xC2, 1000, 1000, 0x11, 0x11, 0x11), 3 * 125 * 125 * 64, 3 * 125 * 125 * (64 + 256)},
		{"jpeg CMYK baseline", jpegFrameOnly(0xC0, 80, 80, 0x11, 0x11, 0x11, 0x11), 4*80*80 + 4*80*80, 4*80*80 + 4*80*80},
		{"lossy webp", webpBytes(t), 0, 0}, // priced from its VP8 header; checked below
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
		"baseline jpeg":         jpegBytes(t, 600, 400),
		"progressive jpeg":      progressive,
		"lossy webp":            webpBytes(t),
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

func TestUploadRateLimitPerMember(t *testing.T) {
	h := newHarness(t, testDB{kind: "sqlite"}, RateLimits{UploadPerMember: 3})
	m, other := h.register("0933000002"), h.register("0933000003")
	for range 3 {
		m.photo()
	}
	var a answer
	h.unchanged(func() { a = m.upload("receipt.png", pngBytes(t, 7, 7)) })
	want(t, a, 429, "upload_rate_limited")
	if ra := a.header.Get("Retry-After"); ra == "" || ra == "0" {
		t.Fatalf("Retry-After %q", ra)
	}
	other.photo() // the limit is per member
	h.clock.Advance(time.Minute)
	m.photo()
}

func TestUploadQuotaPerMember(t *testing.T) {
	h := newHarness(t, testDB{kind: "sqlite"}, RateLimits{}, func(c *Config) { c.UploadQuota = 200 })
	m := h.register("0933000004")
	first := pngBytes(t, 24, 24) // about 110 bytes once re-encoded
	want(t, m.upload("a.png", first), 200, "ok")
	files := h.storedFiles()
	h.unchanged(func() { want(t, m.upload("b.png", pngBytes(t, 25, 24)), 422, "upload_quota_exceeded") })
	if n := h.storedFiles(); n != files {
		t.Fatalf("a refused upload left %d files", n-files)
	}
	// The same image again takes no more room; another member has a quota of its own.
	want(t, m.upload("a-again.png", first), 200, "ok")
	want(t, h.register("0933000005").upload("b.png", pngBytes(t, 25, 24)), 200, "ok")
}

func TestDepositProofBacksOneDeposit(t *testing.T) {
	forEachBackend(t, func(t *testing.T, h *harness) {
		m := h.register("0933000006")
		proof := m.photo()
		first := m.deposit("5000", proof)
		again := func() answer {
			return m.post("/api/vue/funds/deposits", map[string]string{
				"channelId": "bank", "amount": "7000", "proofFileId": proof, "channelPassword": "8888",
			})
		}
		h.unchanged(func() { want(t, again(), 422, "deposit_proof_used") })
		want(t, h.ops.post("/api/vue/ops/deposits/"+first.OrderNo+"/approve", map[string]string{}), 200, "ok")
		h.unchanged(func() { want(t, again(), 422, "deposit_proof_used") })

		// A rejected deposit frees its proof for a corrected request.
		other := m.photo()
		rejected := m.deposit("3000", other)
		want(t, h.ops.post("/api/vue/ops/deposits/"+rejected.OrderNo+"/reject", map[string]string{"remark": "amount differs"}), 200, "ok")
		m.deposit("3500", other)
	})
}

func TestUploadsWaitForADecodeSlot(t *testing.T) {
	h := newHarness(t, testDB{kind: "sqlite"}, RateLimits{})
	m := h.register("0933000007")
	send := func(ctx context.Context, img []byte) (*http.Response, error) {
		var b bytes.Buffer
		mw := multipart.NewWriter(&b)
		fw, _ := mw.CreateFormFile("file", "receipt.png")
		_, _ = fw.Write(img)
		_ = mw.Close()
		req, err := http.NewRequestWithContext(ctx, "POST", h.srv.URL+"/api/vue/files", &b)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", mw.FormDataContentType())
		req.Header.Set("token", m.token)
		req.Header.Set("account", m.account)
		req.Header.Set("Idempotency-Key", uuid.NewString())
		return h.srv.Client().Do(req)
	}
	// Two decodes are running (held here): a third upload waits, and gives up with its client.
	var leaves []func()
	for range maxDecodes {
		leave, err := h.st.decodes.enter(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		leaves = append(leaves, leave)
	}
	h.unchanged(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
		defer cancel()
		if resp, err := send(ctx, pngBytes(t, 9, 9)); !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("an upload decoded while %d decodes ran: %v %v", maxDecodes, resp, err)
		}
	})
	done := make(chan int, 1)
	go func() {
		resp, err := send(context.Background(), pngBytes(t, 9, 9))
		if err != nil {
			done <- 0
			return
		}
		resp.Body.Close()
		done <- resp.StatusCode
	}()
	select {
	case code := <-done:
		t.Fatalf("upload answered %d without a free decode slot", code)
	case <-time.After(200 * time.Millisecond):
	}
	leaves[0]()
	if code := <-done; code != http.StatusOK {
		t.Fatalf("upload after a slot freed: %d", code)
	}
	leaves[1]()
	var f wire.FileRef
	a := m.upload("receipt.png", pngBytes(t, 10, 9))
	want(t, a, 200, "ok")
	a.data(t, &f)
}
