package api

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/lotbook/lotbook/api/testimage"
	"github.com/lotbook/lotbook/api/wire"
)

// wireSend sends a request naming its Accept-Encoding, so that the client does not decode the
// answer: the body is what came over the wire.
func (c *client) wireSend(method, path, accept string, body []byte, headers ...string) (*http.Response, []byte) {
	c.h.t.Helper()
	return c.send(method, path, body, append([]string{"Accept-Encoding", accept}, headers...)...)
}

func gunzip(t *testing.T, b []byte) []byte {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("not gzip: %v", err)
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		t.Fatalf("gunzip: %v", err)
	}
	return out
}

func sameJSON(t *testing.T, a, b []byte) bool {
	t.Helper()
	var va, vb any
	if err := json.Unmarshal(a, &va); err != nil {
		t.Fatalf("not JSON: %v: %.80q", err, a)
	}
	if err := json.Unmarshal(b, &vb); err != nil {
		t.Fatalf("not JSON: %v: %.80q", err, b)
	}
	return reflect.DeepEqual(va, vb)
}

func varies(h http.Header) bool {
	for _, v := range h.Values("Vary") {
		for _, f := range strings.Split(v, ",") {
			if strings.EqualFold(strings.TrimSpace(f), "Accept-Encoding") {
				return true
			}
		}
	}
	return false
}

// TestServerCompressesJSON: a large JSON list goes out gzipped (with Vary) to a client that
// accepts gzip and decodes to the plain answer; small answers, uploaded images, the logo and the
// WebSocket keep their own handling, and an idempotent replay answers the same body.
func TestServerCompressesJSON(t *testing.T) {
	h := newHarness(t, testDB{kind: "sqlite"}, RateLimits{LoginPerAccount: 1000, LoginPerIP: 1000, RegisterPerIP: 1000, UploadPerMember: 1000})
	m := h.register("0912000001")
	const list = "/api/vue/market/stocks?page=1&size=100"

	zresp, zbody := m.wireSend("GET", list, "gzip, deflate, br", nil)
	presp, pbody := m.wireSend("GET", list, "identity", nil)
	if zresp.StatusCode != 200 || zresp.Header.Get("Content-Encoding") != "gzip" || !varies(zresp.Header) {
		t.Fatalf("list with gzip: %d encoding %q vary %q", zresp.StatusCode, zresp.Header.Get("Content-Encoding"), zresp.Header.Values("Vary"))
	}
	if presp.StatusCode != 200 || presp.Header.Get("Content-Encoding") != "" || !varies(presp.Header) || len(pbody) < 1024 {
		t.Fatalf("list without gzip: %d encoding %q vary %q, %d bytes", presp.StatusCode, presp.Header.Get("Content-Encoding"), presp.Header.Values("Vary"), len(pbody))
	}
	if len(zbody) >= len(pbody) || !sameJSON(t, gunzip(t, zbody), pbody) {
		t.Fatalf("gzipped list (%d bytes) is not the plain one (%d bytes), smaller", len(zbody), len(pbody))
	}
	t.Logf("%s: %d bytes plain, %d gzipped", list, len(pbody), len(zbody))

	// A small answer (an error envelope, a command's reply) goes out as it is.
	sresp, sbody := m.wireSend("GET", "/api/vue/market/stocks/9999", "gzip", nil)
	if sresp.Header.Get("Content-Encoding") != "" || !json.Valid(sbody) {
		t.Errorf("small answer: encoding %q body %.80q", sresp.Header.Get("Content-Encoding"), sbody)
	}
	key := uuid.NewString()
	pw := []byte(`{"loginPassword":"secret123","fundPassword":"123456","confirmFundPassword":"123456"}`)
	first, fbody := m.wireSend("POST", "/api/vue/user/fundPassword", "gzip", pw, "Content-Type", "application/json", "Idempotency-Key", key)
	again, abody := m.wireSend("POST", "/api/vue/user/fundPassword", "gzip", pw, "Content-Type", "application/json", "Idempotency-Key", key)
	if first.StatusCode != 200 || again.StatusCode != 200 || again.Header.Get("Idempotent-Replayed") != "true" ||
		first.Header.Get("Content-Encoding") != "" || again.Header.Get("Content-Encoding") != "" || !bytes.Equal(fbody, abody) {
		t.Errorf("command and its replay: %d %q / %d %q replayed %q", first.StatusCode, fbody, again.StatusCode, abody, again.Header.Get("Idempotent-Replayed"))
	}

	// An uploaded image is sent as stored: it is compressed already.
	var f wire.FileRef
	up := m.upload("chart.jpg", testimage.GradientJPEG(400, 300))
	want(t, up, 200, "ok")
	up.data(t, &f)
	iresp, ibody := m.wireSend("GET", "/api/vue/files/"+f.Id, "gzip", nil)
	if iresp.StatusCode != 200 || iresp.Header.Get("Content-Encoding") != "" || !strings.HasPrefix(iresp.Header.Get("Content-Type"), "image/") ||
		len(ibody) < 1024 {
		t.Errorf("image: %d encoding %q type %q, %d bytes", iresp.StatusCode, iresp.Header.Get("Content-Encoding"), iresp.Header.Get("Content-Type"), len(ibody))
	}

	// The logo is gzipped once by its own handler, not twice.
	lresp, lbody := h.anon().wireSend("GET", "/api/logo.svg", "gzip", nil)
	if lresp.Header.Get("Content-Encoding") != "gzip" || !bytes.Equal(lbody, logoGzip) {
		t.Errorf("logo: encoding %q, %d bytes, want its own %d", lresp.Header.Get("Content-Encoding"), len(lbody), len(logoGzip))
	}

	// The socket still upgrades for a client that offers gzip.
	if _, resp, err := h.dial(http.Header{"Accept-Encoding": {"gzip"}}, 0); err != nil || resp.StatusCode != http.StatusSwitchingProtocols {
		t.Fatalf("socket: %v", err)
	}
}
