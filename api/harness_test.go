package api

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	ptrading "github.com/lotbook/lotbook/projections/trading"
	"io"
	"log/slog"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/api/wire"
	"github.com/lotbook/lotbook/commands"
	fundscmd "github.com/lotbook/lotbook/commands/funds"
	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/events/postgres/pgtest"
	"github.com/lotbook/lotbook/projections/audit"
)

// testDB says where a scenario's events and read models live.
type testDB struct {
	kind string // "sqlite" or "postgres"
}

func backends() []testDB { return []testDB{{kind: "sqlite"}, {kind: "postgres"}} }

// forEachBackend runs a scenario on SQLite and on PostgreSQL.
func forEachBackend(t *testing.T, fn func(t *testing.T, h *harness)) {
	for _, db := range backends() {
		t.Run(db.kind, func(t *testing.T) {
			t.Parallel()
			fn(t, newHarness(t, db, RateLimits{LoginPerAccount: 1000, LoginPerIP: 1000, RegisterPerIP: 1000, UploadPerMember: 1000}))
		})
	}
}

// testClock is a settable clock: Monday 2 March 2026, 10:00 in Taipei (the deposit window is open).
type testClock struct {
	mu  sync.Mutex
	now time.Time
}

func newTestClock() *testClock {
	return &testClock{now: time.Date(2026, 3, 2, 2, 0, 0, 0, time.UTC)}
}

func (c *testClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *testClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

func testLogger(t testing.TB) *slog.Logger {
	if testing.Verbose() {
		return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	}
	return slog.New(slog.NewTextHandler(io.Discard, nil))
}

var testWeb = fstest.MapFS{
	"index.html":         {Data: []byte("<!doctype html><title>lotbook</title>")},
	"assets/app-1a2b.js": {Data: []byte("console.log(1)")},
}

// newTestStack opens a Stack on a fresh database and runs its projections until the test ends.
func newTestStack(t *testing.T, db testDB) *Stack {
	st, _ := openTestStack(t, db, RateLimits{}, newTestClock())
	return st
}

// openTestStack opens a stack with cheap password hashing; opts may change the config (a test
// that measures login timing wants the production cost).
func openTestStack(t testing.TB, db testDB, lim RateLimits, clock *testClock, opts ...func(*Config)) (*Stack, context.CancelFunc) {
	t.Helper()
	cfg := Config{
		DataDir:      t.TempDir(),
		Logger:       testLogger(t),
		PasswordCost: commands.PasswordCost{Time: 1, MemoryKiB: 64, Threads: 1},
		Clock:        clock.Now,
		RateLimits:   lim,
		Web:          testWeb,
		Demo:         true,
		Market:       testMarket(t),
	}
	if db.kind == "postgres" {
		cfg.DatabaseURL = pgtest.NewDatabase(t)
	}
	for _, o := range opts {
		o(&cfg)
	}
	ctx, cancel := context.WithCancel(context.Background())
	st, err := OpenStack(ctx, cfg)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- st.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("run: %v", err)
		}
		if err := st.Close(); err != nil {
			t.Errorf("close: %v", err)
		}
	})
	return st, cancel
}

// harness is a running server with the demo's staff, invite code and channels.
type harness struct {
	t     testing.TB
	st    *Stack
	srv   *httptest.Server
	clock *testClock
	ops   *client
	aud   *client
}

func newHarness(t testing.TB, db testDB, lim RateLimits, opts ...func(*Config)) *harness {
	t.Helper()
	clock := newTestClock()
	st, _ := openTestStack(t, db, lim, clock, opts...)
	srv := httptest.NewServer(st.Handler())
	t.Cleanup(srv.Close)
	h := &harness{t: t, st: st, srv: srv, clock: clock}
	h.seed()
	// Checked last of all (cleanups run in reverse): the ledger proves itself after the scenario.
	t.Cleanup(h.verify)
	h.ops = h.login("ops", "opsdemo1")
	h.aud = h.login("audit", "auditdemo1")
	return h
}

func (h *harness) seed() {
	h.t.Helper()
	ctx := context.Background()
	meta := func(id string) commands.Meta { return commands.Meta{CommandID: id, Actor: "system"} }
	must := func(_ commands.Result, err error) {
		h.t.Helper()
		if err != nil {
			h.t.Fatalf("seed: %v", err)
		}
	}
	c := h.st.Commands
	must(c.IssueRootInviteCode(ctx, meta("seed-invite"), "LOTBOOK"))
	must(c.AddStaff(ctx, meta("seed-ops"), commands.AddStaff{Account: "ops", Role: events.RoleOps, Password: "opsdemo1"}))
	must(c.AddStaff(ctx, meta("seed-audit"), commands.AddStaff{Account: "audit", Role: events.RoleAuditor, Password: "auditdemo1"}))
	weekdays := events.TimeWindow{Weekdays: []int{1, 2, 3, 4, 5}, Open: "09:30", Close: "19:30", TZ: "Asia/Taipei", ClosedOnHolidays: true}
	must(h.st.Funds.ConfigureDepositChannel(ctx, meta("seed-bank"), fundscmd.ChannelInput{
		ID: "bank", Name: "Bank transfer", Currency: "TWD", Min: "1000", Max: "1000000", Password: "8888", Window: weekdays, Enabled: true,
	}))
	night := events.TimeWindow{Weekdays: []int{0, 1, 2, 3, 4, 5, 6}, Open: "22:00", Close: "23:00", TZ: "Asia/Taipei"}
	must(h.st.Funds.ConfigureDepositChannel(ctx, meta("seed-night"), fundscmd.ChannelInput{
		ID: "night", Name: "Night desk", Currency: "TWD", Min: "1000", Max: "1000000", Password: "8888", Window: night, Enabled: true,
	}))
	must(h.st.Funds.ConfigureDepositChannel(ctx, meta("seed-off"), fundscmd.ChannelInput{
		ID: "off", Name: "Retired", Currency: "TWD", Min: "1000", Max: "1000000", Password: "8888", Window: weekdays, Enabled: false,
	}))
	h.catchUp()
}

// catchUp waits until the projections reached the store's head.
func (h *harness) catchUp() {
	h.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	head := h.head()
	if err := h.st.Runner.WaitFor(ctx, head); err != nil {
		h.t.Fatalf("projections did not reach %d: %v", head, err)
	}
}

func (h *harness) head() int64 {
	h.t.Helper()
	head, err := h.st.Store.Head(context.Background())
	if err != nil {
		h.t.Fatal(err)
	}
	return head
}

// verify runs the auditor's invariant check: balanced postings, no negative balance, read
// models equal to their replay, share accounts equal to the positions held.
func (h *harness) verify() {
	h.t.Helper()
	if h.t.Failed() {
		return
	}
	h.catchUp()
	rep, err := audit.Verify(context.Background(), h.st.Store, h.st.Runner, audit.WithShares(ptrading.HoldingsIn(h.st.Read.Reader)))
	if err != nil {
		h.t.Fatalf("verify: %v", err)
	}
	if !rep.OK() {
		h.t.Fatalf("verify found problems:\n%s", rep)
	}
}

// answer is a decoded envelope.
type answer struct {
	code   int
	header http.Header
	Status int             `json:"status"`
	Msg    string          `json:"msg"`
	Data   json.RawMessage `json:"data"`
}

func (a answer) String() string {
	return fmt.Sprintf("%d %d %s %s", a.code, a.Status, a.Msg, a.Data)
}

// data decodes the answer's data strictly into v (the server must not send undocumented fields).
func (a answer) data(t testing.TB, v any) {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(a.Data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		t.Fatalf("data %s: %v", a.Data, err)
	}
}

// concurrently sends n requests at once and returns their answers, in order.
func concurrently(n int, send func(i int) answer) []answer {
	answers := make([]answer, n)
	var wg sync.WaitGroup
	for i := range answers {
		wg.Go(func() { answers[i] = send(i) })
	}
	wg.Wait()
	return answers
}

// successes returns the answers that succeeded; every other one must be a refusal refused accepts.
func successes(t testing.TB, what string, answers []answer, refused func(answer) bool) []answer {
	t.Helper()
	var ok []answer
	for _, a := range answers {
		switch {
		case a.code == 200:
			ok = append(ok, a)
		case !refused(a):
			t.Fatalf("%s answered %s", what, a)
		}
	}
	return ok
}

// notPending is the refusal of a decision on an order that another decision already took.
func notPending(a answer) bool { return a.code == 422 && a.Msg == "order_not_pending" }

// client is a logged-in (or anonymous) user.
type client struct {
	h              *harness
	token, account string
}

func (h *harness) anon() *client { return &client{h: h} }

// raw sends a request with a raw body; headers are pairs.
func (c *client) raw(method, path, contentType string, body []byte, headers ...string) answer {
	c.h.t.Helper()
	if contentType != "" {
		headers = append([]string{"Content-Type", contentType}, headers...)
	}
	resp, b := c.send(method, path, body, headers...)
	a := answer{code: resp.StatusCode, header: resp.Header}
	if !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") && resp.StatusCode == 200 {
		return a // an image
	}
	if err := json.Unmarshal(b, &a); err != nil {
		c.h.t.Fatalf("%s %s: %d not an envelope: %q", method, path, resp.StatusCode, b)
	}
	if !wire.MessageKey(a.Msg).Valid() {
		c.h.t.Fatalf("%s %s: msg %q is not in openapi.yaml's MessageKey enum", method, path, a.Msg)
	}
	return a
}

// send sends a request with the client's session and the headers (pairs), and returns the answer
// as it came: the body is decoded by the transport only when the request names no Accept-Encoding.
func (c *client) send(method, path string, body []byte, headers ...string) (*http.Response, []byte) {
	c.h.t.Helper()
	req, err := http.NewRequest(method, c.h.srv.URL+path, bytes.NewReader(body))
	if err != nil {
		c.h.t.Fatal(err)
	}
	if c.token != "" {
		req.Header.Set("token", c.token)
		req.Header.Set("account", c.account)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := c.h.srv.Client().Do(req)
	if err != nil {
		c.h.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		c.h.t.Fatal(err)
	}
	return resp, b
}

// post sends JSON with a fresh idempotency key.
func (c *client) post(path string, body any) answer {
	c.h.t.Helper()
	return c.postKey(path, uuid.NewString(), body)
}

func (c *client) postKey(path, key string, body any) answer {
	c.h.t.Helper()
	b, err := json.Marshal(body)
	if err != nil {
		c.h.t.Fatal(err)
	}
	return c.raw("POST", path, "application/json", b, "Idempotency-Key", key)
}

func (c *client) get(path string, headers ...string) answer {
	c.h.t.Helper()
	return c.raw("GET", path, "", nil, headers...)
}

func (c *client) upload(name string, content []byte) answer {
	c.h.t.Helper()
	var b bytes.Buffer
	mw := multipart.NewWriter(&b)
	fw, err := mw.CreateFormFile("file", name)
	if err != nil {
		c.h.t.Fatal(err)
	}
	_, _ = fw.Write(content)
	_ = mw.Close()
	return c.raw("POST", "/api/vue/files", mw.FormDataContentType(), b.Bytes(), "Idempotency-Key", uuid.NewString())
}

func (h *harness) login(account, password string) *client {
	h.t.Helper()
	a := h.anon().post("/api/vue/user/login", map[string]string{"account": account, "password": password})
	if a.code != 200 || a.Status != 1 {
		h.t.Fatalf("login %s: %s", account, a)
	}
	var s struct{ Token, Account, Role string }
	a.data(h.t, &s)
	return &client{h: h, token: s.Token, account: s.Account}
}

// register signs a member up with the root invite code and returns the logged-in client.
func (h *harness) register(account string) *client {
	h.t.Helper()
	a := h.anon().post("/api/vue/user/register", map[string]string{
		"account": account, "password": "secret123", "confirmPassword": "secret123", "inviteCode": "LOTBOOK",
	})
	if a.code != 200 || a.Status != 1 {
		h.t.Fatalf("register %s: %s", account, a)
	}
	var s struct {
		Token, Account, Role string
		Position             int64
	}
	a.data(h.t, &s)
	return &client{h: h, token: s.Token, account: s.Account}
}

// want checks an answer's HTTP status and message key.
func want(t testing.TB, a answer, code int, msg string) {
	t.Helper()
	if a.code != code || a.Msg != msg || (a.Status == 1) != (code == 200) {
		t.Fatalf("got %s, want %d %s", a, code, msg)
	}
}

// unchanged runs fn and fails if it appended any event.
func (h *harness) unchanged(fn func()) {
	h.t.Helper()
	before := h.head()
	fn()
	if after := h.head(); after != before {
		h.t.Fatalf("a refused request changed the log: head %d -> %d", before, after)
	}
}

func dec(s string) decimal.Decimal { return decimal.RequireFromString(s) }
