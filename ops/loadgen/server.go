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
	"strings"
	"time"

	"github.com/lotbook/lotbook/ops/internal/serve"
)

// server is a `lotbook serve --demo` process started by the tool.
type server struct {
	bin, dir, name string
	base           string
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

// startServer starts `lotbook serve --demo` on dir with extra arguments, logging to
// dir/name.log, and waits until it is ready.
func startServer(ctx context.Context, bin, dir, name string, pprof bool, log *slog.Logger, extra ...string) (*server, error) {
	port, err := freePort()
	if err != nil {
		return nil, fmt.Errorf("free port: %w", err)
	}
	mport, err := freePort()
	if err != nil {
		return nil, fmt.Errorf("free port: %w", err)
	}
	addr, metricsAddr := "127.0.0.1:"+strconv.Itoa(port), "127.0.0.1:"+strconv.Itoa(mport)
	args := append([]string{"serve", "--demo", "--addr", addr, "--metrics-addr", metricsAddr, "--data", dir}, extra...)
	pprofAddr := ""
	if pprof {
		pp, err := freePort()
		if err != nil {
			return nil, fmt.Errorf("free port: %w", err)
		}
		pprofAddr = "127.0.0.1:" + strconv.Itoa(pp)
		args = append(args, "--pprof", pprofAddr)
	}
	logFile, err := os.Create(dir + "/" + name + ".log")
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, args...)
	cmd.Stdout, cmd.Stderr = logFile, logFile
	cmd.Env = os.Environ()
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", bin, err)
	}
	s := &server{bin: bin, dir: dir, name: name, base: "http://" + addr, metrics: "http://" + metricsAddr, pprof: pprofAddr, cmd: cmd, done: make(chan error, 1), log: log}
	go func() { s.done <- cmd.Wait(); logFile.Close() }()
	log.Info("started lotbook serve", "name", name, "pid", cmd.Process.Pid, "addr", addr, "data", dir)
	// Ready means the projections caught up with the members and proofs recorded offline (a
	// quarter of a million events with many members): on a shared machine that took over 60 s.
	err = serve.WaitReady(ctx, s.base, s.done, 100*time.Millisecond, readyWait)
	var exited *serve.Exited
	switch {
	case err == nil:
		return s, nil
	case errors.As(err, &exited):
		return nil, fmt.Errorf("lotbook serve exited (%v); see %s/%s.log", exited.Err, dir, name)
	case errors.Is(err, serve.ErrNotReady):
		_ = s.stop()
		return nil, fmt.Errorf("lotbook serve not ready after %s; see %s/%s.log", readyWait, dir, name)
	default:
		_ = s.stop()
		return nil, err
	}
}

// fleet is every lotbook process the tool started: one `serve` doing everything, or a deployment
// (-api-instances) of a projector, a process instance and API instances sharing one PostgreSQL.
type fleet []*server

// startDeployment starts a projector, a process instance and n API instances on dir (their
// uploads folder) and the database of LOTBOOK_DATABASE_URL, relaying typing over natsURL on a
// subject of their own.
func startDeployment(ctx context.Context, bin, dir, natsURL string, n int, log *slog.Logger) (fleet, error) {
	subject := "lotbook.load." + strconv.FormatInt(time.Now().UnixNano(), 36)
	var f fleet
	start := func(name string, args ...string) error {
		s, err := startServer(ctx, bin, dir, name, false, log, args...)
		if err == nil {
			f = append(f, s)
		}
		return err
	}
	err := start("projector", "--role", "projector")
	if err == nil {
		err = start("process", "--role", "process")
	}
	for i := 0; err == nil && i < n; i++ {
		err = start("api-"+strconv.Itoa(i+1), "--role", "api", "--nats", natsURL, "--nats-subject", subject)
	}
	if err != nil {
		return nil, errors.Join(err, f.stop())
	}
	return f, nil
}

// apis are the servers that serve HTTP: the API instances of a deployment, else the one server.
func (f fleet) apis() fleet {
	if len(f) == 1 {
		return f
	}
	return f[2:]
}

// metrics is the metrics listener that reports projection lag: the projector's in a deployment.
func (f fleet) metrics() string { return f[0].metrics }

// cpu is the CPU time the fleet has used so far.
func (f fleet) cpu() time.Duration {
	var d time.Duration
	for _, s := range f {
		d += serve.CPU(s.pid())
	}
	return d
}

// kb sums a "Vm..." field of /proc/<pid>/status over the fleet.
func (f fleet) kb(field string) int64 {
	var n int64
	for _, s := range f {
		n += serve.StatusKB(s.pid(), field)
	}
	return n
}

// quiet waits until every server went quiet (waitQuiet).
func (f fleet) quiet(ctx context.Context, limit time.Duration) bool {
	for _, s := range f {
		if !waitQuiet(ctx, s.pid(), limit) {
			return false
		}
	}
	return true
}

func (f fleet) stop() error {
	var errs []error
	for _, s := range f {
		errs = append(errs, s.stop())
	}
	return errors.Join(errs...)
}

// readyWait bounds the wait for a started server's /readyz (-ready-wait).
var readyWait = 5 * time.Minute

func (s *server) pid() int { return s.cmd.Process.Pid }

// stop ends the server gracefully (SIGTERM), killing it if it does not exit within 20 s.
func (s *server) stop() error { return serve.Stop(s.cmd, s.done) }

// restart stops s and starts it again on the same data, in place, as its name with suffix
// (with the profiler for pprof), and measures the start (started).
func (s *server) restart(ctx context.Context, suffix string, pprof bool, res *Result) error {
	start := time.Now()
	if err := s.startAgain(ctx, s.name+suffix, pprof); err != nil {
		return err
	}
	s.started(ctx, start, res)
	return nil
}

// started records the start of s on a log it had projected before, begun at start and now
// ready: the time to ready and the memory once quiet are the cost of a restart on a log of this
// size, which must come from the checkpoints (projections, processes, the command follower at
// the head), not grow with the log.
func (s *server) started(ctx context.Context, start time.Time, res *Result) {
	res.RestartSeconds = time.Since(start).Seconds()
	if !(fleet{s}).quiet(ctx, 60*time.Second) {
		s.log.Warn("the started server never went quiet; measuring anyway")
	}
	res.RestartRSSMB = float64(fleet{s}.kb("VmRSS")) / 1024
}

// startAgain stops s and starts it again on its log as name, with an empty aggregate cache.
func (s *server) startAgain(ctx context.Context, name string, pprof bool) error {
	if err := s.stop(); err != nil {
		return fmt.Errorf("stop before restart: %w", err)
	}
	again, err := startServer(ctx, s.bin, s.dir, name, pprof, s.log)
	if err != nil {
		return fmt.Errorf("restart: %w", err)
	}
	*s = *again
	return nil
}

// rebuiltLine is the summary `lotbook rebuild` prints: events replayed and seconds spent on them
// (without the process start).
var rebuiltLine = regexp.MustCompile(`rebuilt \S+: (\d+) events in ([0-9.]+)s`)

// readModels are the read models that list names (comma-separated), or every one the binary
// has for "all".
func (s *server) readModels(ctx context.Context, list string) ([]string, error) {
	if list != "all" {
		var out []string
		for name := range strings.SplitSeq(list, ",") {
			out = append(out, strings.TrimSpace(name))
		}
		return out, nil
	}
	out, err := exec.CommandContext(ctx, s.bin, "rebuild", "--list").Output()
	if err != nil {
		return nil, fmt.Errorf("lotbook rebuild --list: %w", err)
	}
	return strings.Fields(string(out)), nil
}

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

// profile saves the server's profile of kind ("profile" for CPU, "allocs") over most of the
// load's duration to file; for allocs, the difference between its start and its end.
func (s *server) profile(ctx context.Context, kind string, d time.Duration, file string) error {
	secs := max(1, int((d-time.Second)/time.Second))
	req, err := http.NewRequestWithContext(ctx, http.MethodGet,
		fmt.Sprintf("http://%s/debug/pprof/%s?seconds=%d", s.pprof, kind, secs), nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("%s profile: %w", kind, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s profile: HTTP %d", kind, resp.StatusCode)
	}
	f, err := os.Create(file)
	if err != nil {
		return err
	}
	if _, err := io.Copy(f, resp.Body); err != nil {
		f.Close()
		return fmt.Errorf("%s profile: %w", kind, err)
	}
	s.log.Info("server profile written", "kind", kind, "file", file)
	return f.Close()
}
