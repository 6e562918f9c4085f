// Package crashtest kills `lotbook serve` with SIGKILL in the middle of a stream of deposit
// commands and proves that, after a restart, every acknowledged command is stored exactly once,
// a retry with the same idempotency key gets the same answer and writes nothing, and
// `lotbook verify` passes. It runs on SQLite (the default) and on PostgreSQL (LOTBOOK_TEST_PG).
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
	"github.com/lotbook/lotbook/events/postgres/pgtest"
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
	t    *testing.T
	cmd  *exec.Cmd
	base string
	done chan struct{}
}

func start(t *testing.T, bin, dir, dbURL string) *server {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	logf, err := os.OpenFile(filepath.Join(dir, "serve.log"), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "serve", "--demo", "--addr", addr, "--data", dir)
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.Env = withDB(dbURL)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := &server{t: t, cmd: cmd, base: "http://" + addr, done: make(chan struct{})}
	go func() { _ = cmd.Wait(); logf.Close(); close(s.done) }()
	t.Cleanup(func() { s.kill() })
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		if resp, err := http.Get(s.base + "/readyz"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return s
			}
		}
		select {
		case <-s.done:
			t.Fatalf("lotbook serve exited early; log:\n%s", tail(dir))
		case <-time.After(100 * time.Millisecond):
		}
	}
	t.Fatalf("lotbook serve not ready in 60 s; log:\n%s", tail(dir))
	return nil
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

// post sends one command; it returns the HTTP status and the envelope's data.
func post(ctx context.Context, hc *http.Client, base string, s *session, path, key, contentType string, body []byte) (int, string, json.RawMessage, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, base+path, bytes.NewReader(body))
	if err != nil {
		return 0, "", nil, err
	}
	req.Header.Set("Content-Type", contentType)
	req.Header.Set("Idempotency-Key", key)
	if s != nil {
		req.Header.Set("token", s.Token)
		req.Header.Set("account", s.Account)
	}
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
		Status int             `json:"status"`
		Msg    string          `json:"msg"`
		Data   json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal(raw, &env); err != nil {
		return resp.StatusCode, "", nil, fmt.Errorf("not an envelope: %.200s", raw)
	}
	return resp.StatusCode, env.Msg, env.Data, nil
}

func postJSON(ctx context.Context, hc *http.Client, base string, s *session, path, key string, body any) (int, string, json.RawMessage, error) {
	raw, err := json.Marshal(body)
	if err != nil {
		return 0, "", nil, err
	}
	return post(ctx, hc, base, s, path, key, "application/json", raw)
}

func mustOK(t *testing.T, status int, msg string, err error, what string) {
	t.Helper()
	if err != nil || status != http.StatusOK {
		t.Fatalf("%s: HTTP %d %s %v", what, status, msg, err)
	}
}

func login(t *testing.T, hc *http.Client, base, account, password string) *session {
	t.Helper()
	st, msg, data, err := postJSON(context.Background(), hc, base, nil, "/api/vue/user/login", uuid.NewString(),
		map[string]string{"account": account, "password": password})
	mustOK(t, st, msg, err, "login "+account)
	var s session
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatal(err)
	}
	return &s
}

// acked is a command the server acknowledged before it was killed.
type acked struct {
	kind    string // "deposit" or "approve"
	member  string // member id whose account stream holds the command's events
	session *session
	path    string
	key     string
	body    map[string]string
	data    json.RawMessage
	orderNo string
}

func TestKill9DuringDeposits(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and kills the server: not in -short")
	}
	bin := binary(t)
	t.Run("sqlite", func(t *testing.T) { crash(t, bin, "") })
	t.Run("postgres", func(t *testing.T) { crash(t, bin, pgtest.NewDatabase(t)) })
}

func crash(t *testing.T, bin, dbURL string) {
	dir := t.TempDir()
	srv := start(t, bin, dir, dbURL)
	hc := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 32}}

	ops := login(t, hc, srv.base, "ops", "opsdemo1")
	type member struct {
		s      *session
		id     string
		proofs []string // one proof backs one deposit
		next   *atomic.Int64
	}
	var members []member
	accounts := []string{"0912345678", "0922000001", "0922000002", "0922000003"}
	for i, acc := range accounts {
		var s *session
		if i == 0 {
			s = login(t, hc, srv.base, acc, "demo1234")
		} else {
			st, msg, data, err := postJSON(context.Background(), hc, srv.base, nil, "/api/vue/user/register", uuid.NewString(),
				map[string]string{"account": acc, "password": "crash1234", "confirmPassword": "crash1234", "inviteCode": "LOTBOOK"})
			mustOK(t, st, msg, err, "register "+acc)
			s = &session{}
			if err := json.Unmarshal(data, s); err != nil {
				t.Fatal(err)
			}
		}
		members = append(members, member{s: s, id: events.MemberID(acc), next: new(atomic.Int64)})
	}
	// Record plenty of proofs while the server is down: uploading them would meet the
	// per-member upload limit long before the kill.
	srv.stop()
	store, err := backend.Open(context.Background(), dir, dbURL)
	if err != nil {
		t.Fatal(err)
	}
	for i := range members {
		if members[i].proofs, _, err = proofs.Record(context.Background(), store, members[i].id, 5000); err != nil {
			t.Fatal(err)
		}
	}
	store.Close()
	srv = start(t, bin, dir, dbURL)

	// Stream commands from 8 clients and SIGKILL the server at a random moment while they run.
	var mu sync.Mutex
	var acks []acked
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	for c := range 8 {
		wg.Go(func() {
			m := members[c%len(members)]
			for n := 0; ctx.Err() == nil; n++ {
				k := int(m.next.Add(1) - 1)
				if k >= len(m.proofs) {
					return
				}
				a := acked{kind: "deposit", member: m.id, session: m.s, path: "/api/vue/funds/deposits", key: uuid.NewString(),
					body: map[string]string{"channelId": "bank", "amount": strconv.Itoa(1000 + rand.IntN(5000)),
						"proofFileId": m.proofs[k], "channelPassword": "8888"}}
				st, _, data, err := postJSON(ctx, hc, srv.base, a.session, a.path, a.key, a.body)
				if err != nil || st != http.StatusOK {
					continue
				}
				var res struct{ OrderNo string }
				if json.Unmarshal(data, &res) != nil || res.OrderNo == "" {
					continue
				}
				a.data, a.orderNo = data, res.OrderNo
				mu.Lock()
				acks = append(acks, a)
				mu.Unlock()
				if n%2 == 0 { // every other deposit is approved by ops right after
					ap := acked{kind: "approve", member: m.id, session: ops, path: "/api/vue/ops/deposits/" + res.OrderNo + "/approve",
						key: uuid.NewString(), body: map[string]string{"remark": "crash test"}, orderNo: res.OrderNo}
					st, _, data, err := postJSON(ctx, hc, srv.base, ap.session, ap.path, ap.key, ap.body)
					if err == nil && st == http.StatusOK {
						ap.data = data
						mu.Lock()
						acks = append(acks, ap)
						mu.Unlock()
					}
				}
			}
		})
	}
	time.Sleep(1500*time.Millisecond + rand.N(1500*time.Millisecond))
	srv.kill()
	cancel()
	wg.Wait()
	if len(acks) < 20 {
		t.Fatalf("only %d commands acknowledged before the kill: too few to prove anything; log:\n%s", len(acks), tail(dir))
	}
	t.Logf("%d commands acknowledged before kill -9", len(acks))

	countByCommand := func() (map[string]int, int64) {
		t.Helper()
		store, err := backend.Open(context.Background(), dir, dbURL)
		if err != nil {
			t.Fatal(err)
		}
		defer store.Close()
		head, err := store.Head(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		n := map[string]int{}
		for _, m := range members {
			evs, err := store.ReadStream(context.Background(), events.AccountStream(m.id), 0)
			if err != nil {
				t.Fatal(err)
			}
			for _, ev := range evs {
				n[ev.Metadata.CommandID+" "+ev.Type]++
			}
		}
		return n, head
	}
	typeOf := map[string]string{"deposit": events.TypeName(events.DepositRequested{}), "approve": events.TypeName(events.DepositApproved{})}
	checkOnce := func(when string) int64 {
		n, head := countByCommand()
		for _, a := range acks {
			if got := n[a.key+" "+typeOf[a.kind]]; got != 1 {
				t.Errorf("%s: acknowledged %s %s (order %s) stored %d times", when, a.kind, a.key, a.orderNo, got)
			}
		}
		return head
	}
	checkOnce("after kill -9")

	srv = start(t, bin, dir, dbURL)
	before := checkOnce("after restart")
	for _, a := range acks {
		st, msg, data, err := postJSON(context.Background(), hc, srv.base, a.session, a.path, a.key, a.body)
		if err != nil || st != http.StatusOK {
			t.Errorf("retry of %s %s: HTTP %d %s %v", a.kind, a.key, st, msg, err)
			continue
		}
		if !sameJSON(data, a.data) {
			t.Errorf("retry of %s %s answered %s, first answer %s", a.kind, a.key, data, a.data)
		}
	}
	if after := checkOnce("after retries"); after != before {
		t.Errorf("retries with the same keys wrote events: head %d -> %d", before, after)
	}
	srv.stop()

	verify := exec.Command(bin, "verify", "--data", dir)
	verify.Env = withDB(dbURL)
	out, err := verify.CombinedOutput()
	if err != nil {
		t.Fatalf("lotbook verify after the crash: %v\n%s", err, out)
	}
	t.Logf("lotbook verify:\n%s", out)
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
