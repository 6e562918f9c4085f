package api

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"runtime/debug"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/google/uuid"
	"github.com/gorilla/mux"

	"github.com/lotbook/lotbook/api/httpx"
	"github.com/lotbook/lotbook/api/wire"
	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/projections"
)

// statusWriter remembers the status and size of an answer for the access log and metrics.
type statusWriter struct {
	http.ResponseWriter
	status int
	bytes  int64
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	n, err := w.ResponseWriter.Write(b)
	w.bytes += int64(n)
	return n, err
}

func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// Hijack keeps WebSocket upgrades possible through the wrapper.
func (w *statusWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	h, ok := w.ResponseWriter.(http.Hijacker)
	if !ok {
		return nil, nil, errors.New("api: response writer cannot hijack")
	}
	conn, rw, err := h.Hijack()
	if err == nil && w.status == 0 {
		w.status = http.StatusSwitchingProtocols
	}
	return conn, rw, err
}

// accessLog logs one line per request: method, route template, status, size, duration, client
// IP. Never headers (tokens), bodies (passwords) or query strings.
func (s *server) accessLog(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		sw := &statusWriter{ResponseWriter: w}
		next.ServeHTTP(sw, r)
		if sw.status == 0 {
			sw.status = http.StatusOK
		}
		name := "static"
		if rt := mux.CurrentRoute(r); rt != nil && rt.GetName() != "" {
			name = rt.GetName()
		}
		d := time.Since(start)
		series := s.metrics.of(name, sw.status)
		series.requests.Inc()
		if sw.status != http.StatusSwitchingProtocols { // a socket's lifetime is no latency
			series.latency.Observe(d.Seconds())
		}
		// Successes log at debug: a busy server neither builds nor writes their lines unless asked.
		if level := levelFor(sw.status); s.log.Enabled(r.Context(), level) {
			s.log.LogAttrs(r.Context(), level, "http",
				slog.String("method", r.Method), slog.String("route", name), slog.Int("status", sw.status),
				slog.Int64("bytes", sw.bytes), slog.Duration("duration", d), slog.String("ip", httpx.ClientIP(r)))
		}
	})
}

// recoverPanics turns a panic in a handler into 500 system_busy and a logged stack.
func (s *server) recoverPanics(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				s.log.ErrorContext(r.Context(), "panic", "method", r.Method, "path", r.URL.Path,
					"panic", fmt.Sprint(v), "stack", string(debug.Stack()))
				httpx.WriteRaw(w, http.StatusInternalServerError, httpx.EncodeEnvelope(0, wire.MessageKeySystemBusy, nil))
			}
		}()
		next.ServeHTTP(w, r)
	})
}

func securityHeaders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Referrer-Policy", "no-referrer")
		next.ServeHTTP(w, r)
	})
}

// tokenHash is how sessions are keyed: the server never stores a token, only its SHA-256.
func tokenHash(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// admitted is the session a role subrouter admitted, with its token's hash (how the server
// keys a session's own writes), computed once per request.
type admitted struct {
	sess      projections.Session
	tokenHash string
}

// authenticate finds the session of the token and account headers.
func (s *server) authenticate(ctx context.Context, h http.Header) (*admitted, error) {
	token, account := h.Get("token"), h.Get("account")
	if token == "" || account == "" {
		return nil, httpx.ErrUnauthorized
	}
	a := &admitted{tokenHash: tokenHash(token)}
	var err error
	a.sess, err = s.sessionOf(ctx, a.tokenHash, account)
	return a, err
}

// session is the live session of token, which must be account's (the HTTP headers, or a
// socket's auth request).
func (s *server) session(ctx context.Context, token, account string) (projections.Session, error) {
	if token == "" || account == "" {
		return projections.Session{}, httpx.ErrUnauthorized
	}
	return s.sessionOf(ctx, tokenHash(token), account)
}

// sessionOf is the live session of the token hashed as hash. The write side's member aggregate
// answers (commands.SessionOf): it holds a session as soon as its login is stored, with no query
// and no wait for the read models, and drops it with the logout, the password change or the flag
// that ends it.
func (s *server) sessionOf(ctx context.Context, hash, account string) (projections.Session, error) {
	sess, ok, err := s.cmd.SessionOf(ctx, account, hash)
	if err != nil {
		return projections.Session{}, fmt.Errorf("session lookup: %w", err)
	}
	if !ok {
		return projections.Session{}, httpx.ErrUnauthorized
	}
	if slices.Contains(sess.Flags, events.FlagDisabled) {
		return projections.Session{}, httpx.Refuse(http.StatusForbidden, wire.MessageKeyAccountDisabled, nil)
	}
	// The session's reads wait for the read models to hold its member as the log does (the
	// registration or login that opened it, say): read-your-writes from its first request on.
	s.written.note(hash, sess.Position)
	return projections.Session{MemberID: sess.MemberID, Account: sess.Account, Role: sess.Role, ExpiresAt: sess.ExpiresAt, Flags: sess.Flags}, nil
}

// keyedLocks serialises requests carrying the same idempotency key within this process, so a
// duplicate sent while the first is still running waits and then gets the stored answer.
type keyedLocks struct {
	mu    sync.Mutex
	locks map[string]*keyedLock
}

type keyedLock struct {
	ch   chan struct{}
	refs int
}

func newKeyedLocks() *keyedLocks { return &keyedLocks{locks: map[string]*keyedLock{}} }

func (k *keyedLocks) lock(ctx context.Context, key string) (unlock func(), err error) {
	k.mu.Lock()
	l, ok := k.locks[key]
	if !ok {
		l = &keyedLock{ch: make(chan struct{}, 1)}
		k.locks[key] = l
	}
	l.refs++
	k.mu.Unlock()
	release := func() {
		k.mu.Lock()
		if l.refs--; l.refs == 0 {
			delete(k.locks, key)
		}
		k.mu.Unlock()
	}
	select {
	case l.ch <- struct{}{}:
		return func() { <-l.ch; release() }, nil
	case <-ctx.Done():
		release()
		return nil, ctx.Err()
	}
}

// command runs a state-changing route: Idempotency-Key, body read once, the request bound to
// the key (a replay of its stored answer, or 409 when the key belongs to another request), the
// handler, and the key's claim stored with the answer when it may be replayed.
func (s *server) command(c *httpx.Call, rt httpx.Route) {
	key := c.R.Header.Get("Idempotency-Key")
	if key != "" {
		if _, err := uuid.Parse(key); err != nil {
			writeError(c.W, c.R, s.log, httpx.InvalidRequest(fmt.Errorf("Idempotency-Key is not a UUID")))
			return
		}
	} else if rt.Idem != httpx.IdemOptional {
		writeError(c.W, c.R, s.log, httpx.Refuse(http.StatusBadRequest, wire.MessageKeyIdempotencyKeyRequired, nil))
		return
	}
	c.IdemKey = key
	// Register and login answers hold a token the server never keeps; logout goes with them.
	c.Replayable = rt.Idem != httpx.IdemOptional
	if key != "" {
		// Requests under one key run one at a time in this process, so the second of two
		// duplicates finds the first one's claim.
		unlock, err := s.idemLocks.lock(c.R.Context(), key)
		if err != nil {
			writeError(c.W, c.R, s.log, fmt.Errorf("idempotency lock: %w", err))
			return
		}
		defer unlock()
	}
	if rt.Idem != httpx.IdemOwnBody {
		body, err := httpx.ReadBody(c.W, c.R)
		if err != nil {
			writeError(c.W, c.R, s.log, err)
			return
		}
		c.Body = body
		if s.Bind(c, body) {
			return
		}
	}
	rep, err := rt.Handle(c)
	if err == nil {
		s.noteWrite(c, rep)
	}
	s.settle(c, rep, err)
}

// requestHash fingerprints a request: caller, method, path and payload. It is keyed (HMAC with a
// key derived from the server's secret) because payloads hold passwords: a plain hash of a
// six-digit fund password and a known body is reversed by trying a million candidates.
func (s *server) requestHash(actor, method, path string, payload []byte) string {
	sum := sha256.Sum256(payload)
	return s.sealer.KeyedHash("request", actor+"\n"+method+" "+path+"\n"+hex.EncodeToString(sum[:]))
}

// Bind fingerprints the request for its command's metadata (c.Meta) and claims its key: the
// stored answer of the same earlier request is replayed; a key that another caller, route or
// payload used answers 409 idempotency_key_reused. It reports whether it answered the request.
func (s *server) Bind(c *httpx.Call, payload []byte) bool {
	actor := c.Meta().Actor
	c.Request = s.requestHash(actor, c.R.Method, c.R.URL.Path, payload)
	if c.IdemKey == "" {
		return false
	}
	rec, found, err := s.idem.get(c.R.Context(), c.IdemKey)
	switch {
	case err != nil:
		// The records' database is failing (a cut connection): 503, as for the event store, so
		// that the client retries with the same key rather than take it for a server bug.
		writeError(c.W, c.R, s.log, httpx.Refuse(http.StatusServiceUnavailable, wire.MessageKeySystemBusy, fmt.Errorf("idempotency lookup: %w", err)))
		return true
	case found && (rec.Actor != actor || rec.RequestHash != c.Request):
		writeError(c.W, c.R, s.log, httpx.Refuse(http.StatusConflict, wire.MessageKeyIdempotencyKeyReused, nil))
		return true
	case found && rec.HTTPStatus != 0:
		c.W.Header().Set("Idempotent-Replayed", "true")
		httpx.WriteRaw(c.W, rec.HTTPStatus, rec.Body)
		return true
	}
	// First use, or a retry of a request whose answer was not kept: it runs (again), and the
	// command side answers a retry from its own events.
	c.Claim = &projections.IdemRecord{Key: c.IdemKey, Actor: actor, RequestHash: c.Request}
	return false
}

// settle stores the key's claim, with the answer when it may be replayed (a success on a route
// whose answer holds no token), then sends the answer. A refusal's claim keeps the key its own
// (no other request may use it) without an answer: the same request sent again is decided again
// and may succeed later.
func (s *server) settle(c *httpx.Call, rep httpx.Reply, err error) {
	if c.Claim == nil {
		s.finish(c, rep, err)
		return
	}
	rec := *c.Claim
	var body []byte
	if err == nil && !rep.Written && c.Replayable {
		data := rep.Data
		if data == nil {
			data = struct{}{}
		}
		body = httpx.EncodeEnvelope(1, rep.Key, data)
		rec.HTTPStatus, rec.Body = http.StatusOK, body
	}
	if perr := s.idem.put(c.R.Context(), rec); perr != nil {
		// The command side still binds the key: its events carry the request's fingerprint.
		s.log.WarnContext(c.R.Context(), "idempotency record not stored", "err", perr)
	}
	if body == nil {
		s.finish(c, rep, err)
		return
	}
	c.W.Header().Set("Lotbook-Position", strconv.FormatInt(s.runner.Position(), 10))
	httpx.WriteRaw(c.W, http.StatusOK, body)
}

func newUUID() string { return uuid.NewString() }

// levelFor logs server errors as errors, refusals as info and successes at debug, so that a
// busy server does not write one line per request unless asked to.
func levelFor(status int) slog.Level {
	switch {
	case status >= 500:
		return slog.LevelError
	case status >= 400:
		return slog.LevelInfo
	}
	return slog.LevelDebug
}
