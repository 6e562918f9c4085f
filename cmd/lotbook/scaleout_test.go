package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"mime/multipart"
	"net/http"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/gorilla/websocket"

	"github.com/lotbook/lotbook/api/testimage"
	"github.com/lotbook/lotbook/api/wire"
	"github.com/lotbook/lotbook/events/postgres/pgtest"
	"github.com/lotbook/lotbook/ops/seed"
	"github.com/lotbook/lotbook/projections"
)

// childEnv makes the test binary run lotbook's main: the deployment test starts its instances
// as processes of their own, sharing nothing but PostgreSQL, NATS and the uploads folder.
const childEnv = "LOTBOOK_TEST_RUN_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(childEnv) == "1" {
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestScaleOutJourney runs a deployment of two API instances (A and B), one projector and one
// process instance on a fresh PostgreSQL database and takes a member through both APIs in
// turn: what one instance wrote, the other reads (once its answer says it reflects the write's
// position), an order placed on A is filled by the process instance and seen on B, a chat
// message sent on A reaches an ops socket on B (from the log), typing crosses both ways (over
// NATS), and `lotbook verify` passes.
func TestScaleOutJourney(t *testing.T) { scaleOutJourney(t, "0/1") }

// TestScaleOutJourneyPartitioned is the journey with the projector role split in two instances
// (--partition 0/2 and 1/2): reads on either API wait for both, and verify compares the read
// models they share with their replay.
func TestScaleOutJourneyPartitioned(t *testing.T) { scaleOutJourney(t, "0/2", "1/2") }

// scaleOutJourney runs the journey with a projector instance of each partition.
func scaleOutJourney(t *testing.T, partitions ...string) {
	if os.Getenv("LOTBOOK_TEST_PG") == "" {
		t.Skip("LOTBOOK_TEST_PG is not set")
	}
	natsURL := os.Getenv("LOTBOOK_TEST_NATS")
	if natsURL == "" {
		natsURL = "nats://127.0.0.1:4222"
	}
	dsn := pgtest.NewDatabase(t)
	data := t.TempDir()
	t.Setenv("LOTBOOK_DATABASE_URL", dsn)
	t.Setenv("LOTBOOK_EVENTS_URL", "")
	t.Setenv("LOTBOOK_SECRET_KEY", strings.Repeat("cd", 32))
	subject := "lotbook.test." + strings.ReplaceAll(uuid.NewString(), "-", "")

	start := func(role string, more ...string) string {
		addr := freeAddr(t)
		startInstance(t, append([]string{"--role", role, "--addr", addr, "--data", data, "--demo", "--metrics-addr", "",
			"--nats", natsURL, "--nats-subject", subject}, more...)...)
		return "http://" + addr
	}
	// The process instance seeds the demo first; the API instances' seeding then writes nothing.
	for _, part := range partitions {
		start("projector", "--partition", part)
	}
	start("process")
	a := &instance{t: t, base: start("api")}
	b := &instance{t: t, base: start("api")}

	// Register on A; the session answers on B.
	memberA := a.register("0912000001")
	memberB := memberA.on(b)
	var info wire.UserInfo
	memberB.readAt(0, "/api/vue/user/info", &info)
	if info.Account != memberA.account {
		t.Fatalf("B knows the session as %q", info.Account)
	}

	// Deposit on B, approve on A, read the balance on B.
	proof := memberB.upload()
	var order wire.OrderResult
	memberB.post("/api/vue/funds/deposits", map[string]string{
		"channelId": seed.ChannelID, "amount": "300000", "proofFileId": proof, "channelPassword": seed.ChannelPassword,
	}, &order)
	opsA := a.login(seed.OpsAccount, seed.OpsPassword)
	var approved wire.OrderResult
	opsA.postAt(order.Position, "/api/vue/ops/deposits/"+order.OrderNo+"/approve", map[string]string{"remark": "two instances"}, &approved)
	if approved.Status != wire.ReviewStatusApproved {
		t.Fatalf("approve answered %+v", approved)
	}
	memberB.readAt(approved.Position, "/api/vue/user/info", &info)
	if info.Assets.Available != "300000.00" {
		t.Fatalf("balance on B after the approval on A: %+v", info.Assets)
	}

	// A market order placed on A: the process instance fills it, B lists it filled.
	var placed wire.TradeResult
	memberA.postAt(approved.Position, "/api/vue/trade/orders", map[string]any{"symbol": "2603", "direction": "long", "type": "market", "lots": 1}, &placed)
	filled := memberB.until("the order filled on B", placed.Position, "/api/vue/trade/orders?status=all", func(raw json.RawMessage) bool {
		var p wire.TradeOrderPage
		decode(t, raw, &p)
		for _, o := range p.Items {
			if o.OrderNo == placed.OrderNo {
				return o.Status == wire.TradeOrderStatusFilled && o.Filled == 1000
			}
		}
		return false
	})
	memberB.readAt(filled, "/api/vue/user/info", &info)
	if info.Assets.Available == "300000.00" || info.Assets.Frozen != "0.00" {
		t.Fatalf("cash on B after the fill: %+v", info.Assets)
	}

	// Chat: the member's socket on A, an ops socket on B.
	opsB := b.login(seed.OpsAccount, seed.OpsPassword)
	opsWS, memberWS := opsB.socket(), memberA.socket()
	// Requests of a socket are taken in order: the refusal of a typing op for an unknown
	// account shows the ops socket bound; a quote after subscribing, the member's.
	opsWS.send(map[string]any{"op": "typing", "account": "0900000000"})
	opsWS.until("the refusal after auth", func(f wire.WsChatFrame, raw []byte) bool {
		return bytes.Contains(raw, []byte(`"chat_not_found"`))
	})
	memberWS.send(map[string]any{"op": "subscribe", "symbols": []string{"2603"}})
	memberWS.until("a quote after auth", func(_ wire.WsChatFrame, raw []byte) bool {
		return bytes.Contains(raw, []byte(`"2603"`))
	})
	memberWS.send(map[string]any{"op": "typing"})
	opsWS.until("the member typing on A", func(f wire.WsChatFrame, _ []byte) bool {
		return f.Type == wire.WsChatFrameTypeChat && f.Kind == wire.WsChatFrameKindTyping && f.Account == memberA.account
	})
	opsWS.send(map[string]any{"op": "typing", "account": memberA.account})
	memberWS.until("ops typing on B", func(f wire.WsChatFrame, _ []byte) bool {
		return f.Kind == wire.WsChatFrameKindTyping && f.Side != nil && *f.Side == wire.WsChatFrameSideOps
	})
	memberA.post("/api/vue/chat/messages", map[string]string{"text": "sent on A"}, nil)
	opsWS.until("the message sent on A", func(f wire.WsChatFrame, _ []byte) bool {
		return f.Kind == wire.WsChatFrameKindMessage && f.Message != nil && f.Message.Text == "sent on A" && f.Account == memberA.account
	})

	var out, errs bytes.Buffer
	if err := run(t.Context(), []string{"verify", "--data", data}, strings.NewReader(""), &out, &errs, slog.New(slog.DiscardHandler)); err != nil {
		t.Fatalf("verify: %v\n%s%s", err, out.String(), errs.String())
	}
	// Every read model split over the partitions (journal, wallet, balances, trading, ...) is
	// compared whole with one replay of the log: the rows of both partitions together.
	_, compared, _ := strings.Cut(out.String(), "read models compared with their replay: ")
	compared, _, _ = strings.Cut(compared, "\n")
	names := strings.Split(compared, ", ")
	for _, p := range projections.Registered() {
		if p.Partitioned && !slices.Contains(names, p.Name) {
			t.Errorf("verify did not compare the partitioned read model %s:\n%s", p.Name, out.String())
		}
	}
}

// startInstance starts `lotbook serve` with args as a process of its own and waits until its
// /readyz answers 200; the test's end stops it (SIGTERM) and wants a clean exit.
func startInstance(t *testing.T, args ...string) {
	t.Helper()
	var addr string
	for i := range args {
		if args[i] == "--addr" {
			addr = args[i+1]
		}
	}
	var logs bytes.Buffer
	cmd := exec.Command(os.Args[0], append([]string{"serve"}, args...)...)
	cmd.Env = append(os.Environ(), childEnv+"=1")
	cmd.Stdout, cmd.Stderr = &logs, &logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("lotbook serve %v: %v\n%s", args, err, logs.String())
			}
		case <-time.After(30 * time.Second):
			_ = cmd.Process.Kill()
			<-done
			t.Errorf("lotbook serve %v did not stop within 30 s\n%s", args, logs.String())
		}
	})
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	for {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+addr+"/readyz", nil)
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return
			}
		}
		select {
		case err := <-done:
			done <- err
			t.Fatalf("lotbook serve %v exited: %v\n%s", args, err, logs.String())
		case <-ctx.Done():
			t.Fatalf("lotbook serve %v not ready within 2 minutes\n%s", args, logs.String())
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// instance is one API instance's base URL.
type instance struct {
	t    *testing.T
	base string
}

// session is a logged-in user on one instance.
type session struct {
	in             *instance
	token, account string
}

// on is the same session, sending its requests to another instance.
func (s *session) on(in *instance) *session {
	return &session{in: in, token: s.token, account: s.account}
}

type envelope struct {
	Status int             `json:"status"`
	Msg    string          `json:"msg"`
	Data   json.RawMessage `json:"data"`
}

// do sends a request and decodes the envelope; headers are pairs.
func (in *instance) do(s *session, method, path, contentType string, body []byte, headers ...string) (int, envelope, http.Header) {
	in.t.Helper()
	ctx, cancel := context.WithTimeout(in.t.Context(), time.Minute)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, in.base+path, bytes.NewReader(body))
	if err != nil {
		in.t.Fatal(err)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	if s != nil {
		req.Header.Set("token", s.token)
		req.Header.Set("account", s.account)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		in.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		in.t.Fatal(err)
	}
	var env envelope
	if err := json.Unmarshal(raw, &env); err != nil {
		in.t.Fatalf("%s %s%s: %d %q", method, in.base, path, resp.StatusCode, raw)
	}
	return resp.StatusCode, env, resp.Header
}

// ok fails unless the answer is 200 with status 1, then decodes its data into v (unless nil).
func (in *instance) ok(what string, code int, env envelope, v any) {
	in.t.Helper()
	if code != http.StatusOK || env.Status != 1 {
		in.t.Fatalf("%s on %s: %d %s %s", what, in.base, code, env.Msg, env.Data)
	}
	if v != nil {
		decode(in.t, env.Data, v)
	}
}

func decode(t *testing.T, raw json.RawMessage, v any) {
	t.Helper()
	if err := json.Unmarshal(raw, v); err != nil {
		t.Fatalf("decode %s: %v", raw, err)
	}
}

func (in *instance) register(account string) *session {
	in.t.Helper()
	b, _ := json.Marshal(map[string]string{"account": account, "password": "secret123", "confirmPassword": "secret123", "inviteCode": seed.InviteCode})
	code, env, _ := in.do(nil, "POST", "/api/vue/user/register", "application/json", b, "Idempotency-Key", uuid.NewString())
	var s struct{ Token, Account string }
	in.ok("register "+account, code, env, &s)
	return &session{in: in, token: s.Token, account: s.Account}
}

func (in *instance) login(account, password string) *session {
	in.t.Helper()
	b, _ := json.Marshal(map[string]string{"account": account, "password": password})
	code, env, _ := in.do(nil, "POST", "/api/vue/user/login", "application/json", b, "Idempotency-Key", uuid.NewString())
	var s struct{ Token, Account string }
	in.ok("login "+account, code, env, &s)
	return &session{in: in, token: s.Token, account: s.Account}
}

// post sends a command with a fresh idempotency key.
func (s *session) post(path string, body, v any) {
	s.in.t.Helper()
	s.postAt(0, path, body, v)
}

// postAt sends a command after the read models reached pos (the write it follows, made on
// another instance, is then in this instance's reads too).
func (s *session) postAt(pos int64, path string, body, v any) {
	s.in.t.Helper()
	b, err := json.Marshal(body)
	if err != nil {
		s.in.t.Fatal(err)
	}
	code, env, _ := s.in.do(s, "POST", path, "application/json", b, "Idempotency-Key", uuid.NewString(),
		"Lotbook-Position", strconv.FormatInt(pos, 10))
	s.in.ok("POST "+path, code, env, v)
}

// until reads path until done accepts the answer, which must come within a minute; it returns
// the position the accepted answer reflects.
func (s *session) until(what string, pos int64, path string, done func(json.RawMessage) bool) int64 {
	s.in.t.Helper()
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(20 * time.Millisecond) {
		code, env, h := s.in.do(s, "GET", path, "", nil, "Lotbook-Position", strconv.FormatInt(pos, 10))
		s.in.ok(what, code, env, nil)
		if done(env.Data) {
			at, _ := strconv.ParseInt(h.Get("Lotbook-Position"), 10, 64)
			return at
		}
		if time.Now().After(deadline) {
			s.in.t.Fatalf("no %s within a minute: %s", what, env.Data)
		}
	}
}

// readAt reads path into v once the answer says it reflects pos: the instance's read models
// are the projector instance's, so that is the read-your-writes promise across instances.
func (s *session) readAt(pos int64, path string, v any) {
	s.in.t.Helper()
	for deadline := time.Now().Add(time.Minute); ; {
		code, env, h := s.in.do(s, "GET", path, "", nil, "Lotbook-Position", strconv.FormatInt(pos, 10))
		s.in.ok("GET "+path, code, env, nil)
		at, err := strconv.ParseInt(h.Get("Lotbook-Position"), 10, 64)
		if err != nil {
			s.in.t.Fatalf("GET %s: Lotbook-Position %q", path, h.Get("Lotbook-Position"))
		}
		if at >= pos {
			decode(s.in.t, env.Data, v)
			return
		}
		// The instance waited its bound (2 s) and answered what it had: a loaded machine.
		if time.Now().After(deadline) {
			s.in.t.Fatalf("GET %s on %s reflected %d, not %d, for a minute", path, s.in.base, at, pos)
		}
	}
}

// upload stores a proof image and returns its file id.
func (s *session) upload() string {
	s.in.t.Helper()
	var b bytes.Buffer
	mw := multipart.NewWriter(&b)
	fw, err := mw.CreateFormFile("file", "proof.png")
	if err != nil {
		s.in.t.Fatal(err)
	}
	_, _ = fw.Write(testimage.GradientPNG(40, 30))
	_ = mw.Close()
	code, env, _ := s.in.do(s, "POST", "/api/vue/files", mw.FormDataContentType(), b.Bytes(), "Idempotency-Key", uuid.NewString())
	var f wire.FileRef
	s.in.ok("upload", code, env, &f)
	return f.Id
}

// socket is a WebSocket of the session's instance, bound to the session.
type socket struct {
	t      *testing.T
	c      *websocket.Conn
	frames chan []byte
}

func (s *session) socket() *socket {
	s.in.t.Helper()
	ctx, cancel := context.WithTimeout(s.in.t.Context(), 30*time.Second)
	defer cancel()
	c, resp, err := websocket.DefaultDialer.DialContext(ctx, "ws"+strings.TrimPrefix(s.in.base, "http")+"/api/vue/ws", nil)
	if err != nil {
		s.in.t.Fatalf("dial %s: %v", s.in.base, err)
	}
	resp.Body.Close()
	ws := &socket{t: s.in.t, c: c, frames: make(chan []byte, 1024)}
	s.in.t.Cleanup(func() { c.Close() })
	go func() {
		defer close(ws.frames)
		for {
			_, b, err := c.ReadMessage()
			if err != nil {
				return
			}
			ws.frames <- b
		}
	}()
	ws.send(map[string]any{"op": "auth", "token": s.token, "account": s.account})
	return ws
}

func (w *socket) send(v any) {
	w.t.Helper()
	if err := w.c.WriteJSON(v); err != nil {
		w.t.Fatal(err)
	}
}

// until reads frames until match accepts one (decoded as a chat frame, and raw); it fails
// after a minute or when the socket closes.
func (w *socket) until(what string, match func(f wire.WsChatFrame, raw []byte) bool) {
	w.t.Helper()
	end := time.After(time.Minute)
	for {
		select {
		case b, ok := <-w.frames:
			if !ok {
				w.t.Fatalf("socket closed before %s", what)
			}
			var f wire.WsChatFrame
			_ = json.Unmarshal(b, &f) // frames of other types decode to a zero chat frame
			if match(f, b) {
				return
			}
		case <-end:
			w.t.Fatal(fmt.Sprintf("no %s within a minute", what))
		}
	}
}
