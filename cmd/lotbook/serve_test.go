package main

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/lotbook/lotbook/api"
)

func TestParseMarketSeed(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want uint64
		ok   bool
	}{
		{"", 1, true}, {"42", 42, true}, {"18446744073709551615", 18446744073709551615, true},
		{"0", 0, false}, {"-1", 0, false}, {"x", 0, false}, {"1.5", 0, false}, {"18446744073709551616", 0, false},
	} {
		got, err := parseMarketSeed(tc.in)
		if got != tc.want || (err == nil) != tc.ok || (err != nil && !errors.Is(err, errUsage)) {
			t.Errorf("parseMarketSeed(%q) = %d, %v", tc.in, got, err)
		}
	}
}

func TestServeRefusesNegativeBrokerRules(t *testing.T) {
	for _, args := range [][]string{{"--lock-minutes", "-1"}, {"--hold-days", "-2"}} {
		err := serve(t.Context(), append(args, "--data", t.TempDir()), slog.New(slog.DiscardHandler))
		if !errors.Is(err, errUsage) {
			t.Errorf("serve %v = %v, want a usage error", args, err)
		}
	}
}

// TestServeRefusesRolesItCannotRun: an unknown role, a role other than all without the shared
// PostgreSQL, an API instance without NATS, and a partition that is not i/n of a projector
// instance are usage errors, before anything is opened.
func TestServeRefusesRolesItCannotRun(t *testing.T) {
	t.Setenv("LOTBOOK_NATS_URL", "")
	for _, tc := range []struct {
		db   string
		args []string
	}{
		{"", []string{"--role", "worker"}},
		{"", []string{"--role", "projector"}},
		{"", []string{"--role", "api", "--nats", "nats://127.0.0.1:4222"}},
		{"postgres://127.0.0.1:1/none", []string{"--role", "api"}},
		{"postgres://127.0.0.1:1/none", []string{"--role", "projector", "--partition", "2/2"}},
		{"postgres://127.0.0.1:1/none", []string{"--role", "process", "--partition", "0/2"}},
		{"", []string{"--partition", "1/2"}},
	} {
		t.Setenv("LOTBOOK_DATABASE_URL", tc.db)
		err := serve(t.Context(), append(tc.args, "--data", t.TempDir()), slog.New(slog.DiscardHandler))
		if !errors.Is(err, errUsage) {
			t.Errorf("serve %v with database %q = %v, want a usage error", tc.args, tc.db, err)
		}
	}
}

// TestServeKeepsMetricsOffThePublicAddress: /metrics answers on --metrics-addr only; the public
// address answers 404 for it. The default metrics address is loopback.
func TestServeKeepsMetricsOffThePublicAddress(t *testing.T) {
	t.Setenv("LOTBOOK_SECRET_KEY", strings.Repeat("ab", 32))
	t.Setenv("LOTBOOK_DATABASE_URL", "")
	t.Setenv("LOTBOOK_EVENTS_URL", "")
	addr, metricsAddr := freeAddr(t), freeAddr(t)
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() {
		done <- serve(ctx, []string{"--addr", addr, "--metrics-addr", metricsAddr, "--data", t.TempDir()}, slog.New(slog.DiscardHandler))
	}()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("serve: %v", err)
		}
	}()
	get := func(url string) (int, string) {
		t.Helper()
		ctx, stop := context.WithTimeout(t.Context(), 10*time.Second)
		defer stop()
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return 0, err.Error()
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(body)
	}
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(50 * time.Millisecond) {
		if code, _ := get("http://" + addr + "/healthz"); code == 200 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("lotbook serve did not answer /healthz within a minute")
		}
	}
	if code, body := get("http://" + addr + "/metrics"); code != 404 || strings.Contains(body, "lotbook_") {
		t.Errorf("public /metrics answered %d", code)
	}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		code, body := get("http://" + metricsAddr + "/metrics")
		if code == 200 && strings.Contains(body, "lotbook_http_requests_total") && strings.Contains(body, "lotbook_projection") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("metrics listener answered %d", code)
		}
	}
	if code, _ := get("http://" + metricsAddr + "/api/vue/market/stocks"); code != 404 {
		t.Errorf("the metrics listener serves the API: %d", code)
	}
	host, _, err := net.SplitHostPort(api.DefaultMetricsAddr)
	if ip := net.ParseIP(host); err != nil || ip == nil || !ip.IsLoopback() {
		t.Errorf("default metrics address %s is not loopback", api.DefaultMetricsAddr)
	}
}

func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}
