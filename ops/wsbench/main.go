// Command wsbench measures the market socket's fan-out for `make bench`: it starts `lotbook serve
// --demo` (or targets -url), opens many WebSocket clients that each subscribe to the busiest
// symbols, waits until every client has its snapshots, and reports over a fixed window the
// messages delivered per second, the delivery delay (client receive time minus the frame's ts,
// when its state fell due: the trade's second plus the symbol's offset within it, so the time the
// simulator takes to publish counts too; one clock, one machine), the server's memory per
// connection and its CPU, including idle CPU before any client (the simulator ticking every
// instrument), and the machine's load average (other processes share the cores).
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorilla/websocket"
	"github.com/lotbook/lotbook/ops/internal/serve"
	"github.com/lotbook/lotbook/ops/internal/wsresult"
)

type config struct {
	bin, url    string
	metricsURL  string
	conns       int
	symbols     int
	channels    string
	duration    time.Duration
	warmup      time.Duration
	dialWorkers int
	jsonOut     bool
}

func main() {
	var c config
	flag.StringVar(&c.bin, "bin", "bin/lotbook", "lotbook binary to start (ignored with -url)")
	flag.StringVar(&c.url, "url", "", "target a running server (http://host:port) instead of starting one")
	flag.StringVar(&c.metricsURL, "metrics-url", serve.DefaultMetricsURL, "with -url: the server's metrics listener (its --metrics-addr)")
	flag.IntVar(&c.conns, "conns", 10000, "WebSocket clients")
	flag.IntVar(&c.symbols, "symbols", 50, "symbols per client: the busiest by volume (each trades every few seconds)")
	flag.StringVar(&c.channels, "channels", "quote", "comma-separated channels per symbol (quote, candles:1m, ...)")
	flag.DurationVar(&c.duration, "duration", 20*time.Second, "measurement window")
	flag.DurationVar(&c.warmup, "warmup", 3*time.Second, "wait after the last client subscribed, before measuring")
	flag.IntVar(&c.dialWorkers, "dial-workers", 32, "concurrent handshakes while connecting")
	flag.BoolVar(&c.jsonOut, "json", false, "print the result as JSON")
	flag.Parse()

	serve.Main("wsbench", c.jsonOut, func(ctx context.Context, log *slog.Logger) (*wsresult.Result, error) { return run(ctx, c, log) }, func(res *wsresult.Result) {
		fmt.Printf("%d clients × %d symbols (%s): %.0f messages/s delivered, delay p50 %.1f ms / p99 %.1f ms / max %.1f ms\n",
			res.Connected, len(res.Symbols), strings.Join(res.Channels, ","), res.MessagesPerSec, res.DelayP50ms, res.DelayP99ms, res.DelayMaxms)
		fmt.Printf("server: %.1f KB per connection, CPU %.0f%% of one core (idle %.1f%%); this tool %.0f%%; %d dropped, %d error frames\n",
			res.KBPerConn, res.ServerCPUPct, res.IdleCPUPct, res.ClientCPUPct, res.Dropped, res.ErrorFrames)
	})
}

func run(ctx context.Context, c config, log *slog.Logger) (*wsresult.Result, error) {
	if c.conns < 1 || c.symbols < 1 {
		return nil, errors.New("need at least one client and one symbol")
	}
	res := &wsresult.Result{Conns: c.conns, Channels: strings.Split(c.channels, ",")}
	base, metrics, pid := c.url, c.metricsURL, 0
	if base == "" {
		dir, err := os.MkdirTemp("", "lotbook-wsbench-")
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(dir)
		srv, err := startServer(ctx, c.bin, dir, log)
		if err != nil {
			return nil, err
		}
		defer func() {
			if err := srv.stop(); err != nil {
				log.Warn("stopping lotbook", "err", err)
			}
		}()
		base, metrics, pid = srv.base, srv.metrics, srv.cmd.Process.Pid
	}
	syms, err := busiest(ctx, base, c.symbols)
	if err != nil {
		return nil, err
	}
	res.Symbols = syms

	if pid != 0 {
		// Idle: the server with no client, the simulator ticking every instrument once a second
		// (after the start's one-off work: history, warming the index candles).
		if err := sleep(ctx, 10*time.Second); err != nil {
			return nil, err
		}
		cpu0, t0 := serve.CPU(pid), time.Now()
		if err := sleep(ctx, 5*time.Second); err != nil {
			return nil, err
		}
		res.IdleCPUPct = 100 * (serve.CPU(pid) - cpu0).Seconds() / time.Since(t0).Seconds()
		res.RSSBeforeMB = float64(serve.StatusKB(pid, "VmRSS")) / 1024
	}
	mem0, err := leastInUse(ctx, metrics, 3)
	if err != nil {
		return nil, err
	}

	sub, err := json.Marshal(map[string]any{"op": "subscribe", "symbols": syms, "channels": res.Channels})
	if err != nil {
		return nil, err
	}
	wsURL := "ws" + strings.TrimPrefix(base, "http") + "/api/vue/ws"
	var measuring atomic.Bool
	clients := make([]*client, c.conns)
	t0 := time.Now()
	var retried atomic.Int64
	if err := parallel(ctx, c.conns, c.dialWorkers, func(i int) error {
		cl, err := dial(ctx, wsURL, sub, &measuring)
		// A loaded machine can starve the server past its 10 s header timeout; a client
		// tries again, as browsers' reconnecting sockets do, and the retries are reported.
		for try := 1; err != nil && try < 3 && ctx.Err() == nil; try++ {
			retried.Add(1)
			cl, err = dial(ctx, wsURL, sub, &measuring)
		}
		clients[i] = cl
		return err
	}); err != nil {
		closeAll(clients)
		return nil, fmt.Errorf("connect: %w", err)
	}
	defer closeAll(clients)
	res.Connected = len(clients)
	res.ConnectSeconds = time.Since(t0).Seconds()
	res.DialRetries = retried.Load()
	log.Info("clients connected", "clients", len(clients), "symbols", len(syms), "seconds", res.ConnectSeconds)
	// Measure delivery, not the subscriptions' backlog: a snapshot carries the ts its state was
	// published at, long ago for a quiet symbol, so the window starts once every client has had
	// a frame for each of its (symbol, channel) keys.
	keys := int64(len(syms) * len(res.Channels))
	short, err := awaitSnapshots(ctx, clients, keys, 3*time.Minute)
	if err != nil {
		return nil, err
	}
	res.SubscribeSecs = time.Since(t0).Seconds()
	if short > 0 {
		log.Warn("clients still waiting for snapshots; measuring anyway", "clients", short)
	} else {
		log.Info("clients subscribed", "seconds", res.SubscribeSecs)
	}
	// The least of several samples over the warm-up (as before any client): the heap in use
	// includes garbage until a collection, which comes at its own time.
	mem1, err := leastInUse(ctx, metrics, int(c.warmup/(500*time.Millisecond))+1)
	if err != nil {
		return nil, err
	}
	if pid != 0 {
		res.RSSAfterMB = float64(serve.StatusKB(pid, "VmRSS")) / 1024
	}
	res.KBPerConn = (mem1 - mem0) / 1024 / float64(len(clients))
	res.LoadAvg = loadAvg()

	var srvCPU0 time.Duration
	if pid != 0 {
		srvCPU0 = serve.CPU(pid)
	}
	selfCPU0 := serve.CPU(os.Getpid())
	start := time.Now()
	measuring.Store(true)
	if err := sleep(ctx, c.duration); err != nil {
		return nil, err
	}
	measuring.Store(false)
	elapsed := time.Since(start)
	if pid != 0 {
		res.ServerCPUPct = 100 * (serve.CPU(pid) - srvCPU0).Seconds() / elapsed.Seconds()
	}
	res.ClientCPUPct = 100 * (serve.CPU(os.Getpid()) - selfCPU0).Seconds() / elapsed.Seconds()

	var delays []time.Duration
	for _, cl := range clients {
		cl.mu.Lock()
		res.Messages += cl.messages
		res.ErrorFrames += cl.errors
		delays = append(delays, cl.delays...)
		if cl.dropped {
			res.Dropped++
		}
		cl.mu.Unlock()
	}
	slices.Sort(delays)
	res.Seconds = elapsed.Seconds()
	res.MessagesPerSec = float64(res.Messages) / elapsed.Seconds()
	res.DelayP50ms = percentile(delays, 0.50)
	res.DelayP99ms = percentile(delays, 0.99)
	res.DelayMaxms = percentile(delays, 1)
	return res, nil
}

// busiest are the n symbols with the most volume today: they trade every second or so.
func busiest(ctx context.Context, base string, n int) ([]string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, fmt.Sprintf("%s/api/vue/market/stocks?tab=volume&size=%d", base, min(n, 100)), nil)
	if err != nil {
		return nil, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, fmt.Errorf("market list: %w", err)
	}
	defer resp.Body.Close()
	var env struct {
		Status int `json:"status"`
		Data   struct {
			Items []struct {
				Symbol string `json:"symbol"`
			} `json:"items"`
		} `json:"data"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&env); err != nil || env.Status != 1 {
		return nil, fmt.Errorf("market list: HTTP %d: %v", resp.StatusCode, err)
	}
	var out []string
	for _, it := range env.Data.Items {
		out = append(out, it.Symbol)
	}
	if len(out) < n {
		return nil, fmt.Errorf("market list has %d symbols, want %d", len(out), n)
	}
	return out, nil
}

// leastInUse is the least of n samples of inUse, half a second apart.
func leastInUse(ctx context.Context, metrics string, n int) (float64, error) {
	least := 0.0
	for i := range n {
		if i > 0 {
			if err := sleep(ctx, 500*time.Millisecond); err != nil {
				return 0, err
			}
		}
		v, err := inUse(ctx, metrics)
		if err != nil {
			return 0, err
		}
		if i == 0 || v < least {
			least = v
		}
	}
	return least, nil
}

// awaitSnapshots waits until every client has read at least keys frames, or for at most wait;
// it returns how many clients have fewer.
func awaitSnapshots(ctx context.Context, clients []*client, keys int64, wait time.Duration) (int, error) {
	deadline := time.Now().Add(wait)
	for {
		short := 0
		for _, cl := range clients {
			if cl.frames.Load() < keys {
				short++
			}
		}
		if short == 0 || time.Now().After(deadline) {
			return short, nil
		}
		if err := sleep(ctx, 200*time.Millisecond); err != nil {
			return short, err
		}
	}
}

// loadAvg is the machine's 1-minute load average (0 when unknown).
func loadAvg() float64 {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return 0
	}
	v, _ := strconv.ParseFloat(f[0], 64)
	return v
}

// inUse is the server's Go heap and goroutine stacks in use, in bytes, from the /metrics of its
// metrics listener.
func inUse(ctx context.Context, metrics string) (float64, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, metrics+"/metrics", nil)
	if err != nil {
		return 0, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, fmt.Errorf("metrics: %w", err)
	}
	defer resp.Body.Close()
	var b bytes.Buffer
	if _, err := b.ReadFrom(resp.Body); err != nil {
		return 0, fmt.Errorf("metrics: %w", err)
	}
	return metricSum(b.String(), "go_memstats_heap_inuse_bytes", "go_memstats_stack_inuse_bytes")
}

// metricSum adds the values of unlabelled metrics in Prometheus text format.
func metricSum(page string, names ...string) (float64, error) {
	var sum float64
	found := 0
	for line := range strings.SplitSeq(page, "\n") {
		f := strings.Fields(line)
		if len(f) == 2 && slices.Contains(names, f[0]) {
			v, err := strconv.ParseFloat(f[1], 64)
			if err != nil {
				return 0, fmt.Errorf("metric %s: %w", f[0], err)
			}
			sum += v
			found++
		}
	}
	if found != len(names) {
		return 0, fmt.Errorf("metrics page lacks some of %v", names)
	}
	return sum, nil
}

// client is one socket; its reader counts frames and, while measuring, their delays.
type client struct {
	ws     *websocket.Conn
	frames atomic.Int64 // every frame read, measuring or not

	mu       sync.Mutex
	messages int64
	errors   int64
	delays   []time.Duration
	dropped  bool
}

// A read buffer of several frames: each read system call takes what has arrived.
var dialer = websocket.Dialer{HandshakeTimeout: 30 * time.Second, ReadBufferSize: 16 << 10, WriteBufferSize: 512}

func dial(ctx context.Context, url string, sub []byte, measuring *atomic.Bool) (*client, error) {
	ws, _, err := dialer.DialContext(ctx, url, nil)
	if err != nil {
		return nil, err
	}
	if err := ws.WriteMessage(websocket.TextMessage, sub); err != nil {
		ws.Close()
		return nil, err
	}
	c := &client{ws: ws}
	go c.read(measuring)
	return c, nil
}

var tsField = []byte(`"ts":"`)

func (c *client) read(measuring *atomic.Bool) {
	for {
		_, msg, err := c.ws.ReadMessage()
		if err != nil {
			c.mu.Lock()
			c.dropped = !errors.Is(err, net.ErrClosed)
			c.mu.Unlock()
			return
		}
		now := time.Now()
		c.frames.Add(1)
		if !measuring.Load() {
			continue
		}
		if bytes.HasPrefix(msg, []byte(`{"msg"`)) { // an error frame (fields are sorted by name)
			c.mu.Lock()
			c.errors++
			c.mu.Unlock()
			continue
		}
		d, ok := delay(msg, now)
		c.mu.Lock()
		c.messages++
		if ok {
			c.delays = append(c.delays, d)
		}
		c.mu.Unlock()
	}
}

// delay is now minus the frame's ts (found without decoding the whole frame).
func delay(msg []byte, now time.Time) (time.Duration, bool) {
	i := bytes.LastIndex(msg, tsField)
	if i < 0 {
		return 0, false
	}
	rest := msg[i+len(tsField):]
	j := bytes.IndexByte(rest, '"')
	if j < 0 {
		return 0, false
	}
	ts, err := time.Parse(time.RFC3339Nano, string(rest[:j]))
	if err != nil {
		return 0, false
	}
	return now.Sub(ts), true
}

func closeAll(clients []*client) {
	for _, c := range clients {
		if c != nil {
			c.ws.Close()
		}
	}
}

// parallel runs fn(0..n-1) on workers goroutines; the first error stops it.
func parallel(ctx context.Context, n, workers int, fn func(i int) error) error {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	next := atomic.Int64{}
	var wg sync.WaitGroup
	for range min(workers, n) {
		wg.Go(func() {
			for ctx.Err() == nil {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				if err := fn(i); err != nil {
					cancel(err)
					return
				}
			}
		})
	}
	wg.Wait()
	return context.Cause(ctx)
}

func sleep(ctx context.Context, d time.Duration) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(d):
		return nil
	}
}

// percentile of sorted durations in milliseconds (q in 0..1).
func percentile(sorted []time.Duration, q float64) float64 {
	if len(sorted) == 0 {
		return 0
	}
	i := int(q*float64(len(sorted)-1) + 0.5)
	return float64(sorted[i]) / float64(time.Millisecond)
}

// server is a `lotbook serve --demo` process started by the tool.
type server struct {
	base    string
	metrics string // base URL of its metrics listener
	cmd     *exec.Cmd
	done    chan error
}

func startServer(ctx context.Context, bin, dir string, log *slog.Logger) (*server, error) {
	addr, err := freeAddr()
	if err != nil {
		return nil, err
	}
	metricsAddr, err := freeAddr()
	if err != nil {
		return nil, err
	}
	logFile, err := os.Create(dir + "/serve.log")
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, "serve", "--demo", "--addr", addr, "--metrics-addr", metricsAddr, "--data", dir)
	cmd.Stdout, cmd.Stderr = logFile, logFile
	if err := cmd.Start(); err != nil {
		logFile.Close()
		return nil, fmt.Errorf("start %s: %w", bin, err)
	}
	s := &server{base: "http://" + addr, metrics: "http://" + metricsAddr, cmd: cmd, done: make(chan error, 1)}
	go func() { s.done <- cmd.Wait(); logFile.Close() }()
	log.Info("started lotbook serve", "pid", cmd.Process.Pid, "addr", addr)
	// The simulator builds its history first.
	err = serve.WaitReady(ctx, s.base, s.done, 200*time.Millisecond, 2*time.Minute)
	var exited *serve.Exited
	switch {
	case err == nil:
		return s, nil
	case errors.As(err, &exited):
		return nil, fmt.Errorf("lotbook serve exited (%v); see its log in %s", exited.Err, dir)
	case errors.Is(err, serve.ErrNotReady):
		_ = s.stop()
		return nil, errors.New("lotbook serve not ready after 2 minutes")
	default:
		_ = s.stop()
		return nil, err
	}
}

// freeAddr is a loopback address with a port free at the time of asking.
func freeAddr() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer l.Close()
	return l.Addr().String(), nil
}

// stop ends the server with SIGTERM, killing it after 20 s.
func (s *server) stop() error { return serve.Stop(s.cmd, s.done) }
