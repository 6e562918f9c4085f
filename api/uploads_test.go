package api

import (
	"bytes"
	"context"
	"errors"
	"github.com/lotbook/lotbook/api/files"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
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

func TestUploadRateLimitPerMember(t *testing.T) {
	h := newHarness(t, testDB{kind: "sqlite"}, RateLimits{UploadPerMember: 3})
	m, other := h.register("0933000002"), h.register("0933000003")
	for range 3 {
		m.photo()
	}
	var a answer
	h.unchanged(func() { a = m.upload("receipt.png", testimage.GradientPNG(7, 7)) })
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
	first := testimage.GradientPNG(24, 24) // about 110 bytes once re-encoded
	want(t, m.upload("a.png", first), 200, "ok")
	files := h.storedFiles()
	h.unchanged(func() { want(t, m.upload("b.png", testimage.GradientPNG(25, 24)), 422, "upload_quota_exceeded") })
	if n := h.storedFiles(); n != files {
		t.Fatalf("a refused upload left %d files", n-files)
	}
	// The same image again takes no more room; another member has a quota of its own.
	want(t, m.upload("a-again.png", first), 200, "ok")
	want(t, h.register("0933000005").upload("b.png", testimage.GradientPNG(25, 24)), 200, "ok")
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
	for range files.MaxDecodes {
		leave, err := h.st.decodes.Enter(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		leaves = append(leaves, leave)
	}
	h.unchanged(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
		defer cancel()
		if resp, err := send(ctx, testimage.GradientPNG(9, 9)); !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("an upload decoded while %d decodes ran: %v %v", files.MaxDecodes, resp, err)
		}
	})
	done := make(chan int, 1)
	go func() {
		resp, err := send(context.Background(), testimage.GradientPNG(9, 9))
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
	a := m.upload("receipt.png", testimage.GradientPNG(10, 9))
	want(t, a, 200, "ok")
	a.data(t, &f)
}
