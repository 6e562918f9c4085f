package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"time"

	"github.com/lotbook/lotbook/ops/internal/serve"
)

// server is a `lotbook serve --demo` process started by the tool.
type server struct {
	bin, dir, base string
	metrics        string // base URL of its metrics listener
	pprof          string // the profiler's address when started with it
	cmd            *exec.Cmd
	done           chan error
	log            *slog.Logger
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

func startServer(ctx context.Context, bin, dir string, pprof bool, log *slog.Logger) (*server, error) {
	port, err := freePort()
	if err != nil {
		return nil, fmt.Errorf("free port: %w", err)
	}
	mport, err := freePort()
	if err != nil {
		return nil, fmt.Errorf("free port: %w", err)
	}
	addr, metricsAddr := "127.0.0.1:"+strconv.Itoa(port), "127.0.0.1:"+strconv.Itoa(mport)
	args := []string{"serve", "--demo", "--addr", addr, "--metrics-addr", metricsAddr, "--data", dir}
	pprofAddr := ""
	if pprof {
		pp, err := freePort()
		if err != nil {
			return nil, fmt.Errorf("free port: %w", err)
		}
		pprofAddr = "127.0.0.1:" + strconv.Itoa(pp)
		args = append(args, "--pprof", pprofAddr)
	}
	logFile, err := os.Create(dir + "/serve.log")
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, args...)
	cmd.Stdout, cmd.Stderr = logFile, logFile
	cmd.Env = os.Environ()
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", bin, err)
	}
	s := &server{bin: bin, dir: dir, base: "http://" + addr, metrics: "http://" + metricsAddr, pprof: pprofAddr, cmd: cmd, done: make(chan error, 1), log: log}
	go func() { s.done <- cmd.Wait(); logFile.Close() }()
	log.Info("started lotbook serve", "pid", cmd.Process.Pid, "addr", addr, "data", dir)
	// Ready means the projections caught up with the members and proofs recorded offline (a
	// quarter of a million events with many members): on a shared machine that took over 60 s.
	err = serve.WaitReady(ctx, s.base, s.done, 100*time.Millisecond, readyWait)
	var exited *serve.Exited
	switch {
	case err == nil:
		return s, nil
	case errors.As(err, &exited):
		return nil, fmt.Errorf("lotbook serve exited (%v); see %s/serve.log", exited.Err, dir)
	case errors.Is(err, serve.ErrNotReady):
		_ = s.stop()
		return nil, fmt.Errorf("lotbook serve not ready after %s; see %s/serve.log", readyWait, dir)
	default:
		_ = s.stop()
		return nil, err
	}
}

// readyWait bounds the wait for a started server's /readyz.
const readyWait = 5 * time.Minute

func (s *server) pid() int { return s.cmd.Process.Pid }

// stop ends the server gracefully (SIGTERM), killing it if it does not exit within 20 s.
func (s *server) stop() error { return serve.Stop(s.cmd, s.done) }

// rebuiltLine is the summary `lotbook rebuild` prints: events replayed and seconds spent on them
// (without the process start).
var rebuiltLine = regexp.MustCompile(`rebuilt \S+: (\d+) events in ([0-9.]+)s`)

// rebuild runs `lotbook rebuild NAME` over the data folder of the stopped server.
func (s *server) rebuild(ctx context.Context, name string) (Rebuild, error) {
	cmd := exec.CommandContext(ctx, s.bin, "rebuild", name, "--data", s.dir)
	cmd.Env = os.Environ()
	var out bytes.Buffer
	cmd.Stdout = &out
	if err := cmd.Run(); err != nil {
		return Rebuild{}, fmt.Errorf("lotbook rebuild %s: %w: %s", name, err, out.Bytes())
	}
	m := rebuiltLine.FindSubmatch(out.Bytes())
	if m == nil {
		return Rebuild{}, fmt.Errorf("lotbook rebuild %s: no summary line in %q", name, out.Bytes())
	}
	n, _ := strconv.ParseInt(string(m[1]), 10, 64)
	secs, _ := strconv.ParseFloat(string(m[2]), 64)
	s.log.Info("rebuilt", "name", name, "events", n, "seconds", secs)
	return Rebuild{Name: name, Events: n, Seconds: secs, EventsPerSec: float64(n) / secs}, nil
}

// profile saves the server's CPU profile over most of the load's duration to file.
func (s *server) profile(ctx context.Context, d time.Duration, file string) error {
	secs := max(1, int((d-time.Second)/time.Second))
	req, err := http.NewRequestWithContext(ctx, http.MethodGet,
		fmt.Sprintf("http://%s/debug/pprof/profile?seconds=%d", s.pprof, secs), nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("cpu profile: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("cpu profile: HTTP %d", resp.StatusCode)
	}
	f, err := os.Create(file)
	if err != nil {
		return err
	}
	if _, err := io.Copy(f, resp.Body); err != nil {
		f.Close()
		return fmt.Errorf("cpu profile: %w", err)
	}
	s.log.Info("server CPU profile written", "file", file)
	return f.Close()
}
