// Package crashtest puts `lotbook serve` under a stream of commands (deposits, their approvals
// and orders, each with an idempotency key) and breaks it: kill -9 of the server (SQLite and
// PostgreSQL), and the PostgreSQL connection cut and restored behind a TCP proxy. After each
// fault every request without an answer is sent again with its key, and the tests prove that
// every acknowledged command is stored exactly once, a retry gets the first answer and writes
// nothing, and `lotbook verify` passes.
package crashtest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/events/backend"
	"github.com/lotbook/lotbook/ops/internal/proofs"
)

// binary is the lotbook binary under test: $LOTBOOK_BIN (make sets it) or a fresh build.
func binary(t *testing.T) string {
	t.Helper()
	if b := os.Getenv("LOTBOOK_BIN"); b != "" {
		abs, err := filepath.Abs(b)
		if err != nil {
			t.Fatal(err)
		}
		// The stat also ties go test's cached result to this build of the binary.
		if _, err := os.Stat(abs); err != nil {
			t.Fatalf("LOTBOOK_BIN: %v", err)
		}
		return abs
	}
	out := filepath.Join(t.TempDir(), "lotbook")
	cmd := exec.Command("go", "build", "-o", out, "./cmd/lotbook")
	cmd.Dir = "../.."
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, b)
	}
	return out
}

type server struct {
	t       *testing.T
	cmd     *exec.Cmd
	base    string
	metrics string
	done    chan struct{}
}

// freeAddrs are n loopback addresses free at the time of the call, for the server's listeners.
func freeAddrs(t *testing.T, n int) []string {
	t.Helper()
	var out []string
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, l.Addr().String())
		l.Close()
	}
	return out
}

// start runs `lotbook serve` on the data in dir (and dbURL), with the extra flags given.
func start(t *testing.T, bin, dir, dbURL string, extra ...string) *server {
	t.Helper()
	addrs := freeAddrs(t, 2)
	addr, metrics := addrs[0], addrs[1]
	logf, err := os.OpenFile(filepath.Join(dir, "serve.log"), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, append([]string{"serve", "--demo", "--addr", addr, "--metrics-addr", metrics, "--data", dir}, extra...)...)
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.Env = withDB(dbURL)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := &server{t: t, cmd: cmd, base: "http://" + addr, metrics: "http://" + metrics + "/metrics", done: make(chan struct{})}
	go func() { _ = cmd.Wait(); logf.Close(); close(s.done) }()
	t.Cleanup(func() { s.kill() })
	ok := poll(60*time.Second, func() bool {
		select {
		case <-s.done:
			t.Fatalf("lotbook serve exited early; log:\n%s", tail(dir))
		default:
		}
		resp, err := http.Get(s.base + "/readyz")
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == http.StatusOK
	})
	if !ok {
		t.Fatalf("lotbook serve not ready in 60 s; log:\n%s", tail(dir))
	}
	return s
}

// poll calls cond every 10 ms until it holds (true) or the deadline passes (false).
func poll(within time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(within)
	for {
		if cond() {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func (s *server) kill() {
	_ = s.cmd.Process.Signal(syscall.SIGKILL)
	<-s.done
}

func (s *server) stop() {
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-s.done:
	case <-time.After(30 * time.Second):
		s.t.Error("lotbook serve did not stop on SIGTERM within 30 s")
		s.kill()
	}
}

func tail(dir string) string {
	b, _ := os.ReadFile(filepath.Join(dir, "serve.log"))
	if len(b) > 4000 {
		b = b[len(b)-4000:]
	}
	return string(b)
}

// metricLines are the lines of the server's /metrics page that start with one of prefixes.
func (s *server) metricLines(prefixes ...string) ([]string, error) {
	resp, err := http.Get(s.metrics)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, line := range strings.Split(string(b), "\n") {
		for _, p := range prefixes {
			if strings.HasPrefix(line, p) {
				out = append(out, line)
			}
		}
	}
	return out, nil
}

// grepLog is the first n lines of the server's log that contain s.
func grepLog(dir, s string, n int) string {
	b, _ := os.ReadFile(filepath.Join(dir, "serve.log"))
	var out []string
	for _, line := range strings.Split(string(b), "\n") {
		if strings.Contains(line, s) && len(out) < n {
			out = append(out, line)
		}
	}
	return strings.Join(out, "\n")
}

// withDB is the environment of a lotbook process: PostgreSQL for events and read models when
// dbURL is set, SQLite in the data folder otherwise.
func withDB(dbURL string) []string {
	env := []string{}
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "LOTBOOK_DATABASE_URL=") && !strings.HasPrefix(kv, "LOTBOOK_EVENTS_URL=") {
			env = append(env, kv)
		}
	}
	if dbURL != "" {
		env = append(env, "LOTBOOK_DATABASE_URL="+dbURL)
	}
	return env
}

type session struct{ Token, Account string }

// post sends one command; it returns the HTTP status and the envelope's message and data.
func post(ctx context.Context, hc *http.Client, base string, s *session, path, key string, body any) (int, string, json.RawMessage, error) {
	raw, err := json.Marshal(body)
	if err != nil {
		return 0, "", nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, base+path, bytes.NewReader(raw))
	if err != nil {
		return 0, "", nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Idempotency-Key", key)
	if s != nil {
		req.Header.Set("token", s.Token)
		req.Header.Set("account", s.Account)
	}
	return do(hc, req)
}

// do sends req and decodes the envelope of the answer.
func do(hc *http.Client, req *http.Request) (int, string, json.RawMessage, error) {
	resp, err := hc.Do(req)
	if err != nil {
		return 0, "", nil, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return 0, "", nil, err
	}
	var env struct {
		Msg  string          `json:"msg"`
		Data json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal(raw, &env); err != nil {
		return resp.StatusCode, "", nil, fmt.Errorf("not an envelope: %.200s", raw)
	}
	return resp.StatusCode, env.Msg, env.Data, nil
}

// get reads path as the member of session s.
func get(hc *http.Client, base string, s *session, path string) (int, string, json.RawMessage, error) {
	req, err := http.NewRequest(http.MethodGet, base+path, nil)
	if err != nil {
		return 0, "", nil, err
	}
	req.Header.Set("token", s.Token)
	req.Header.Set("account", s.Account)
	return do(hc, req)
}

func mustOK(t *testing.T, status int, msg string, err error, what string) {
	t.Helper()
	if err != nil || status != http.StatusOK {
		t.Fatalf("%s: HTTP %d %s %v", what, status, msg, err)
	}
}

func login(t *testing.T, hc *http.Client, base, account, password string) *session {
	t.Helper()
	st, msg, data, err := post(context.Background(), hc, base, nil, "/api/vue/user/login", uuid.NewString(),
		map[string]string{"account": account, "password": password})
	mustOK(t, st, msg, err, "login "+account)
	var s session
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatal(err)
	}
	return &s
}

// request is one command sent with its idempotency key; typ is the event type the command
// stores exactly once when it is applied.
type request struct {
	typ     string
	session *session
	path    string
	key     string
	body    map[string]any
}

// answer is what the server answered to a request: HTTP status and message, or a transport
// error (status 0) when the server never answered.
type answer struct {
	request
	status int
	msg    string
	data   json.RawMessage
	phase  int32 // the load's phase when the request was sent and still when it was answered; -1 if it changed
	took   time.Duration
}

var (
	typeDeposit = events.TypeName(events.DepositRequested{})
	typeApprove = events.TypeName(events.DepositApproved{})
	typeOrder   = events.TypeName(events.OrderPlaced{})
)

type member struct {
	s      *session
	id     string
	proofs []string // one proof backs one deposit
	next   *atomic.Int64
}

// fixture is a server's data (SQLite in dir, or PostgreSQL at dbURL) with members ready for load:
// an ops session and members with cash and thousands of deposit proofs.
type fixture struct {
	t       *testing.T
	bin     string
	dir     string
	dbURL   string // the database as the test reaches it
	hc      *http.Client
	ops     *session
	members []member
}

// prepare starts the server on serveURL (the database as the server reaches it; dbURL when
// empty), registers the members, gives each NT$50,000 to trade with and records deposit proofs,
// and returns the fixture and the server running again, with the extra serve flags given.
func prepare(t *testing.T, bin, dbURL, serveURL string, extra ...string) (*fixture, *server) {
	if serveURL == "" {
		serveURL = dbURL
	}
	f := &fixture{t: t, bin: bin, dir: t.TempDir(), dbURL: dbURL,
		hc: &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 32}}}
	srv := start(t, bin, f.dir, serveURL, extra...)
	f.ops = login(t, f.hc, srv.base, "ops", "opsdemo1")
	for i, acc := range []string{"0912345678", "0922000001", "0922000002", "0922000003"} {
		var s *session
		if i == 0 {
			s = login(t, f.hc, srv.base, acc, "demo1234")
		} else {
			st, msg, data, err := post(context.Background(), f.hc, srv.base, nil, "/api/vue/user/register", uuid.NewString(),
				map[string]string{"account": acc, "password": "crash1234", "confirmPassword": "crash1234", "inviteCode": "LOTBOOK"})
			mustOK(t, st, msg, err, "register "+acc)
			s = &session{}
			if err := json.Unmarshal(data, s); err != nil {
				t.Fatal(err)
			}
		}
		f.members = append(f.members, member{s: s, id: events.MemberID(acc), next: new(atomic.Int64)})
	}
	// Record plenty of proofs while the server is down: uploading them would meet the
	// per-member upload limit long before the fault.
	srv.stop()
	store, err := backend.Open(context.Background(), f.dir, dbURL)
	if err != nil {
		t.Fatal(err)
	}
	for i := range f.members {
		if f.members[i].proofs, _, err = proofs.Record(context.Background(), store, f.members[i].id, 5000); err != nil {
			t.Fatal(err)
		}
	}
	store.Close()
	srv = start(t, bin, f.dir, serveURL, extra...)
	// Cash for the orders: one approved deposit each, spent a share at a time.
	for i := range f.members {
		m := &f.members[i]
		body, _ := depositBody(m)
		st, msg, data, err := post(context.Background(), f.hc, srv.base, m.s, "/api/vue/funds/deposits", uuid.NewString(), body)
		mustOK(t, st, msg, err, "deposit of "+m.id)
		var res struct{ OrderNo string }
		if err := json.Unmarshal(data, &res); err != nil {
			t.Fatal(err)
		}
		st, msg, _, err = post(context.Background(), f.hc, srv.base, f.ops, "/api/vue/ops/deposits/"+res.OrderNo+"/approve", uuid.NewString(),
			map[string]any{"remark": "crash test"})
		mustOK(t, st, msg, err, "approval of "+res.OrderNo)
	}
	return f, srv
}

// depositBody is a deposit backed by the member's next unused proof; false when none is left.
func depositBody(m *member) (map[string]any, bool) {
	k := int(m.next.Add(1) - 1)
	if k >= len(m.proofs) {
		return nil, false
	}
	return map[string]any{"channelId": "bank", "amount": strconv.Itoa(1000 + rand.IntN(5000)),
		"proofFileId": m.proofs[k], "channelPassword": "8888"}, true
}

// load sends commands from many clients until stop: deposits (every other one approved by ops
// at once) and odd-lot market buys, each with a fresh idempotency key. Every answer is kept.
type load struct {
	f     *fixture
	base  string
	phase atomic.Int32 // what the test is doing to the server; stamped on each answer
	acked atomic.Int64 // commands answered 200

	mu      sync.Mutex
	answers []answer

	cancel context.CancelFunc
	wg     sync.WaitGroup
}

func (f *fixture) startLoad(base string, clients int) *load {
	ctx, cancel := context.WithCancel(context.Background())
	l := &load{f: f, base: base, cancel: cancel}
	for c := range clients {
		m := &f.members[c%len(f.members)]
		l.wg.Go(func() {
			for n := 0; ctx.Err() == nil; n++ {
				if c%4 == 3 { // a quarter of the clients trade
					l.send(ctx, request{typ: typeOrder, session: m.s, path: "/api/vue/trade/orders", key: uuid.NewString(),
						body: map[string]any{"symbol": "2884", "direction": "long", "type": "market", "shares": 1}})
					continue
				}
				body, ok := depositBody(m)
				if !ok {
					return
				}
				a := l.send(ctx, request{typ: typeDeposit, session: m.s, path: "/api/vue/funds/deposits", key: uuid.NewString(), body: body})
				var res struct{ OrderNo string }
				if a.status != http.StatusOK || json.Unmarshal(a.data, &res) != nil || res.OrderNo == "" || n%2 != 0 {
					continue
				}
				l.send(ctx, request{typ: typeApprove, session: f.ops, path: "/api/vue/ops/deposits/" + res.OrderNo + "/approve",
					key: uuid.NewString(), body: map[string]any{"remark": "crash test"}})
			}
		})
	}
	return l
}

func (l *load) send(ctx context.Context, r request) answer {
	phase := l.phase.Load()
	sent := time.Now()
	st, msg, data, err := post(ctx, l.f.hc, l.base, r.session, r.path, r.key, r.body)
	a := answer{request: r, status: st, msg: msg, data: data, phase: phase, took: time.Since(sent)}
	if err != nil {
		a.status, a.msg = 0, err.Error()
	}
	if l.phase.Load() != phase {
		a.phase = -1
	}
	if a.status == http.StatusOK {
		l.acked.Add(1)
	}
	l.mu.Lock()
	l.answers = append(l.answers, a)
	l.mu.Unlock()
	return a
}

// waitAcked waits until n more commands than now have been acknowledged.
func (l *load) waitAcked(t *testing.T, n int64) {
	t.Helper()
	want := l.acked.Load() + n
	if !poll(60*time.Second, func() bool { return l.acked.Load() >= want }) {
		t.Fatalf("load: %d of %d commands acknowledged in 60 s; log:\n%s", l.acked.Load(), want, tail(l.f.dir))
	}
}

func (l *load) stop() []answer {
	l.cancel()
	l.wg.Wait()
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.answers
}

// unanswered are the requests that got no answer (the connection broke) or a 5xx: their
// outcome is unknown to the client, which must send them again with the same key.
func unanswered(as []answer) []answer {
	var out []answer
	for _, a := range as {
		if a.status == 0 || a.status >= 500 {
			out = append(out, a)
		}
	}
	return out
}

func acknowledged(as []answer) []answer {
	var out []answer
	for _, a := range as {
		if a.status == http.StatusOK {
			out = append(out, a)
		}
	}
	return out
}

// stored counts, over the whole log, the events of each command id and type, and returns the head.
func (f *fixture) stored() (map[string]int, int64) {
	f.t.Helper()
	ctx := context.Background()
	store, err := backend.Open(ctx, f.dir, f.dbURL)
	if err != nil {
		f.t.Fatal(err)
	}
	defer store.Close()
	n := map[string]int{}
	var head int64
	for {
		evs, err := store.ReadAll(ctx, head, 5000)
		if err != nil {
			f.t.Fatal(err)
		}
		if len(evs) == 0 {
			return n, head
		}
		for _, ev := range evs {
			n[ev.Metadata.CommandID+" "+ev.Type]++
		}
		head = evs[len(evs)-1].Position
	}
}

// checkOnce fails the test unless every acknowledged command's event is in the log exactly
// once; it returns the log's head.
func (f *fixture) checkOnce(when string, acks []answer) int64 {
	f.t.Helper()
	n, head := f.stored()
	for _, a := range acks {
		if got := n[a.key+" "+a.typ]; got != 1 {
			f.t.Errorf("%s: acknowledged %s %s (%s) stored %d times", when, a.typ, a.key, a.data, got)
		}
	}
	return head
}

// retry sends each request again with its key against base and returns the answers. A retry
// of an acknowledged command must answer as the first time; every retry must get an answer.
func (f *fixture) retry(base string, as []answer) []answer {
	f.t.Helper()
	var out []answer
	for _, a := range as {
		st, msg, data, err := post(context.Background(), f.hc, base, a.session, a.path, a.key, a.body)
		if err != nil || st >= 500 {
			f.t.Errorf("retry of %s %s: HTTP %d %s %v", a.typ, a.key, st, msg, err)
			continue
		}
		if a.status == http.StatusOK && (st != http.StatusOK || !sameJSON(data, a.data)) {
			f.t.Errorf("retry of %s %s answered %d %s %s, first answer %s", a.typ, a.key, st, msg, data, a.data)
		}
		out = append(out, answer{request: a.request, status: st, msg: msg, data: data})
	}
	return out
}

// recover sends every unanswered request again with its key and checks that each applied
// exactly once (answered 200) or not at all (refused), and that retrying the acknowledged ones
// writes nothing.
func (f *fixture) recover(base string, as []answer) {
	f.t.Helper()
	acks := acknowledged(as)
	before := f.checkOnce("before retries", acks)
	f.retry(base, acks)
	if after := f.checkOnce("after retries of acknowledged commands", acks); after != before {
		f.t.Errorf("retries of acknowledged commands with the same keys wrote events: head %d -> %d", before, after)
	}
	lost := unanswered(as)
	retried := f.retry(base, lost)
	n, _ := f.stored()
	applied := 0
	for _, a := range retried {
		want := 0
		if a.status == http.StatusOK {
			want, applied = 1, applied+1
		}
		if got := n[a.key+" "+a.typ]; got != want {
			f.t.Errorf("retried %s %s answered %d %s and is stored %d times, want %d", a.typ, a.key, a.status, a.msg, got, want)
		}
	}
	refused := map[string]int{}
	for _, a := range retried {
		if a.status != http.StatusOK {
			refused[fmt.Sprintf("%s %d %s", a.typ, a.status, a.msg)]++
		}
	}
	f.t.Logf("%d commands acknowledged; %d unanswered sent again: %d applied once, refused %v", len(acks), len(lost), applied, refused)
}

// verify runs `lotbook verify` on the fixture's data.
func (f *fixture) verify() {
	f.t.Helper()
	verify := exec.Command(f.bin, "verify", "--data", f.dir)
	verify.Env = withDB(f.dbURL)
	out, err := verify.CombinedOutput()
	if err != nil {
		f.t.Fatalf("lotbook verify: %v\n%s", err, out)
	}
	if i := bytes.Index(out, []byte("OK:")); i >= 0 {
		f.t.Logf("lotbook verify: %s", bytes.TrimSpace(out[i:]))
	}
}

func sameJSON(a, b json.RawMessage) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	xa, _ := json.Marshal(x)
	ya, _ := json.Marshal(y)
	return bytes.Equal(xa, ya)
}
