package api

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/lotbook/lotbook/api/httpx"
)

func TestPanicAnswersSystemBusy(t *testing.T) {
	s := &server{log: slog.New(slog.NewTextHandler(io.Discard, nil)), metrics: newHTTPMetrics(prometheus.NewRegistry())}
	h := s.accessLog(s.recoverPanics(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { panic("boom") })))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/api/vue/user/info", nil))
	if rec.Code != 500 || !strings.Contains(rec.Body.String(), `"msg":"system_busy"`) {
		t.Fatalf("got %d %s", rec.Code, rec.Body)
	}
}

// A handler waiting on a database that went silent ends at the request deadline with 503
// system_busy, the answer a client retries with the same key.
func TestServerDeadlineAnswersUnavailable(t *testing.T) {
	s := &server{log: slog.New(slog.NewTextHandler(io.Discard, nil)), timeout: 50 * time.Millisecond}
	h := s.admit(httpx.Public)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		<-r.Context().Done() // the silent database: only the deadline ends the wait
		writeError(w, r, s.log, fmt.Errorf("read member-1: %w", r.Context().Err()))
	}))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/api/vue/user/info", nil))
	if rec.Code != http.StatusServiceUnavailable || !strings.Contains(rec.Body.String(), `"msg":"system_busy"`) {
		t.Fatalf("got %d %s", rec.Code, rec.Body)
	}
}

func TestAccessLogHasNoSecrets(t *testing.T) {
	var logged strings.Builder
	s := &server{log: slog.New(slog.NewTextHandler(&logged, &slog.HandlerOptions{Level: slog.LevelDebug})), metrics: newHTTPMetrics(prometheus.NewRegistry())}
	h := s.accessLog(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.ReadAll(r.Body)
		w.WriteHeader(422)
	}))
	req := httptest.NewRequest("POST", "/api/vue/user/login?x=secretquery", strings.NewReader(`{"password":"hunter22"}`))
	req.Header.Set("token", "tok-SECRET")
	h.ServeHTTP(httptest.NewRecorder(), req)
	for _, secret := range []string{"hunter22", "tok-SECRET", "secretquery"} {
		if strings.Contains(logged.String(), secret) {
			t.Fatalf("access log holds %q: %s", secret, logged.String())
		}
	}
	if !strings.Contains(logged.String(), "status=422") {
		t.Fatalf("access log: %s", logged.String())
	}
}

func TestServeShutsDownWithContext(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- Serve(ctx, addr, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { _, _ = io.WriteString(w, "up") }))
	}()
	deadline := time.Now().Add(5 * time.Second)
	for {
		resp, err := http.Get("http://" + addr + "/")
		if err == nil {
			resp.Body.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("server never answered: %v", err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("serve: %v", err)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("serve did not return after cancel")
	}
}
