package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"mime/multipart"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
)

// client speaks lotbook's HTTP API (ARCHITECTURE.md "HTTP API conventions").
type client struct {
	base    string
	metrics string // the server's metrics listener, apart from base
	http    *http.Client
}

func newClient(base, metrics string, conns int) *client {
	tr := &http.Transport{MaxIdleConns: conns * 2, MaxIdleConnsPerHost: conns * 2, IdleConnTimeout: time.Minute}
	return &client{base: base, metrics: metrics, http: &http.Client{Transport: tr, Timeout: 30 * time.Second}}
}

// session is a logged-in user's headers.
type session struct {
	Account string `json:"account"`
	Token   string `json:"token"`
}

type envelope struct {
	Status int             `json:"status"`
	Msg    string          `json:"msg"`
	Data   json.RawMessage `json:"data"`
}

// apiError is a refusal: the HTTP status and the message key.
type apiError struct {
	Status int
	Msg    string
	Retry  time.Duration
}

func (e *apiError) Error() string { return fmt.Sprintf("HTTP %d %s", e.Status, e.Msg) }

// do sends one request and decodes data into out. Every POST carries a fresh Idempotency-Key
// unless key is given.
func (c *client) do(ctx context.Context, s *session, method, path, key string, body any, out any, hdr map[string]string) error {
	_, err := c.doHeader(ctx, s, method, path, key, body, out, hdr)
	return err
}

// doHeader is do that also returns the answer's headers.
func (c *client) doHeader(ctx context.Context, s *session, method, path, key string, body any, out any, hdr map[string]string) (http.Header, error) {
	var rd io.Reader
	contentType := ""
	switch b := body.(type) {
	case nil:
	case *multipartBody:
		rd, contentType = bytes.NewReader(b.data), b.contentType
	default:
		raw, err := json.Marshal(b)
		if err != nil {
			return nil, err
		}
		rd, contentType = bytes.NewReader(raw), "application/json"
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, rd)
	if err != nil {
		return nil, err
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	if method != http.MethodGet {
		if key == "" {
			key = uuid.NewString()
		}
		req.Header.Set("Idempotency-Key", key)
	}
	if s != nil {
		req.Header.Set("token", s.Token)
		req.Header.Set("account", s.Account)
	}
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	var env envelope
	if err := json.Unmarshal(raw, &env); err != nil {
		return nil, fmt.Errorf("%s %s: HTTP %d, not an envelope: %.200s", method, path, resp.StatusCode, raw)
	}
	if resp.StatusCode != http.StatusOK || env.Status != 1 {
		e := &apiError{Status: resp.StatusCode, Msg: env.Msg}
		if s, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil {
			e.Retry = time.Duration(s) * time.Second
		}
		return resp.Header, e
	}
	if out != nil {
		if err := json.Unmarshal(env.Data, out); err != nil {
			return resp.Header, fmt.Errorf("%s %s: data: %w", method, path, err)
		}
	}
	return resp.Header, nil
}

type multipartBody struct {
	data        []byte
	contentType string
}

// proofImage is a small PNG that passes the upload's sniffing and re-encoding.
func proofImage(seed int) (*multipartBody, error) {
	img := image.NewRGBA(image.Rect(0, 0, 32, 32))
	for x := range 32 {
		for y := range 32 {
			img.Set(x, y, color.RGBA{uint8(seed), uint8(x * 8), uint8(y * 8), 255})
		}
	}
	var pic bytes.Buffer
	if err := png.Encode(&pic, img); err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	part, err := w.CreateFormFile("file", "proof.png")
	if err != nil {
		return nil, err
	}
	if _, err := part.Write(pic.Bytes()); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return &multipartBody{data: buf.Bytes(), contentType: w.FormDataContentType()}, nil
}

func (c *client) login(ctx context.Context, account, password string) (*session, error) {
	var s session
	err := c.do(ctx, nil, http.MethodPost, "/api/vue/user/login", "",
		map[string]string{"account": account, "password": password}, &s, nil)
	if err != nil {
		return nil, fmt.Errorf("login %s: %w", account, err)
	}
	return &s, nil
}

func (c *client) register(ctx context.Context, account, password, invite string) (*session, error) {
	var s session
	for {
		err := c.do(ctx, nil, http.MethodPost, "/api/vue/user/register", "", map[string]string{
			"account": account, "password": password, "confirmPassword": password, "inviteCode": invite,
		}, &s, nil)
		if e, ok := err.(*apiError); ok && e.Status == http.StatusTooManyRequests {
			// Registration is rate limited per IP; against a shared server the tool waits its turn.
			wait := max(e.Retry, time.Second)
			select {
			case <-time.After(wait):
				continue
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}
		if e, ok := err.(*apiError); ok && e.Msg == "account_exists" {
			return c.login(ctx, account, password)
		}
		if err != nil {
			return nil, fmt.Errorf("register %s: %w", account, err)
		}
		return &s, nil
	}
}

func (c *client) upload(ctx context.Context, s *session, n int) (string, error) {
	body, err := proofImage(n)
	if err != nil {
		return "", err
	}
	var out struct {
		ID string `json:"id"`
	}
	if err := c.do(ctx, s, http.MethodPost, "/api/vue/files", "", body, &out, nil); err != nil {
		return "", fmt.Errorf("upload proof: %w", err)
	}
	return out.ID, nil
}

type orderResult struct {
	OrderNo  string `json:"orderNo"`
	Status   string `json:"status"`
	Position int64  `json:"position"`
}

func (c *client) deposit(ctx context.Context, s *session, key, amount, proof string) (orderResult, error) {
	var out orderResult
	err := c.do(ctx, s, http.MethodPost, "/api/vue/funds/deposits", key, map[string]string{
		"channelId": "bank", "amount": amount, "proofFileId": proof, "channelPassword": "8888",
	}, &out, nil)
	return out, err
}

func (c *client) approve(ctx context.Context, ops *session, orderNo string) (orderResult, error) {
	var out orderResult
	err := c.do(ctx, ops, http.MethodPost, "/api/vue/ops/deposits/"+orderNo+"/approve", "",
		map[string]string{"remark": "load test"}, &out, nil)
	return out, err
}

// balances reads the member's balances, which loads its account stream on the command side
// (what a withdrawal accepts).
func (c *client) balances(ctx context.Context, s *session) error {
	return c.do(ctx, s, http.MethodGet, "/api/vue/funds/balances", "", nil, nil, nil)
}

// readAt reads the member's info once projections reached position (read-your-writes).
func (c *client) readAt(ctx context.Context, s *session, position int64) error {
	return c.do(ctx, s, http.MethodGet, "/api/vue/user/info", "", nil, nil,
		map[string]string{"Lotbook-Position": strconv.FormatInt(position, 10)})
}

// waitProjected polls until the server's projections reached position (reads answer with the
// position they reflect in Lotbook-Position); a big log takes a while to catch up after start.
func (c *client) waitProjected(ctx context.Context, s *session, position int64, limit time.Duration) error {
	deadline := time.Now().Add(limit)
	for {
		h, err := c.doHeader(ctx, s, http.MethodGet, "/api/vue/user/info", "", nil, nil,
			map[string]string{"Lotbook-Position": strconv.FormatInt(position, 10)})
		if err == nil {
			if p, perr := strconv.ParseInt(h.Get("Lotbook-Position"), 10, 64); perr == nil && p >= position {
				return nil
			}
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("projections did not reach position %d within %s (last error %v)", position, limit, err)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// projectionLag reads the metrics listener's /metrics: the largest lotbook_projection_lag_seconds over the projectors
// (the age of the oldest event some read model has not applied yet).
func (c *client) projectionLag(ctx context.Context) (time.Duration, error) {
	page, err := c.metricsPage(ctx)
	if err != nil {
		return 0, err
	}
	return maxLagSeconds(page)
}

// allocated is what the server has allocated since it started: bytes and objects (the Go
// collector's go_memstats_alloc_bytes_total and go_memstats_mallocs_total).
func (c *client) allocated(ctx context.Context) (bytes, objects float64, err error) {
	page, err := c.metricsPage(ctx)
	if err != nil {
		return 0, 0, err
	}
	for line := range strings.SplitSeq(page, "\n") {
		name, v, ok := strings.Cut(line, " ")
		if name != "go_memstats_alloc_bytes_total" && name != "go_memstats_mallocs_total" || !ok {
			continue
		}
		f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if err != nil {
			return 0, 0, fmt.Errorf("metrics: %q: %w", line, err)
		}
		if name == "go_memstats_mallocs_total" {
			objects = f
		} else {
			bytes = f
		}
	}
	return bytes, objects, nil
}

// metricsPage is the metrics listener's /metrics.
func (c *client) metricsPage(ctx context.Context) (string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.metrics+"/metrics", nil)
	if err != nil {
		return "", err
	}
	// Uncompressed: gzipping the whole page ten times a second cost the measured server about
	// 2 % of its CPU under the load, charged to the commands.
	req.Header.Set("Accept-Encoding", "identity")
	resp, err := c.http.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return "", err
	}
	return string(raw), nil
}

// maxLagSeconds is the largest lotbook_projection_lag_seconds sample of a Prometheus text page.
func maxLagSeconds(page string) (time.Duration, error) {
	found := false
	var worst float64
	for line := range strings.SplitSeq(page, "\n") {
		if !strings.HasPrefix(line, "lotbook_projection_lag_seconds{") {
			continue
		}
		f := strings.Fields(line)
		v, err := strconv.ParseFloat(f[len(f)-1], 64)
		if err != nil {
			return 0, fmt.Errorf("metrics: %q: %w", line, err)
		}
		found, worst = true, max(worst, v)
	}
	if !found {
		return 0, fmt.Errorf("metrics: no lotbook_projection_lag_seconds")
	}
	return time.Duration(worst * float64(time.Second)), nil
}
