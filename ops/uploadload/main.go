// Command uploadload measures the memory of `lotbook serve` while worst-case uploads arrive at
// once. It starts the server on a fresh data folder, registers one member per upload (each from
// its own loopback address, so the registration limit per IP does not slow it down), then sends
// every upload at the same moment and reads the server's peak resident memory (VmHWM in
// /proc/PID/status). The uploads are PNGs of zero pixels: "bombs", 16-bit RGBA at 40 megapixels
// (320 MB decoded, a few hundred KB sent), and the largest image the server accepts, 8-bit RGBA
// at 4096 x 4096 (64 MB decoded); optionally the costliest accepted decode, an interlaced PNG.
//
//	go build -o bin/lotbook ./cmd/lotbook && go run ./ops/uploadload -bin bin/lotbook
//
// It exits 1 when the peak is over -max-mb (400 by default). A server whose memory passes
// -abort-mb is killed, so that measuring an unbounded build cannot take the machine down.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"mime/multipart"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/google/uuid"

	"github.com/lotbook/lotbook/api/testimage"
	"github.com/lotbook/lotbook/ops/internal/serve"
)

func main() {
	bin := flag.String("bin", "bin/lotbook", "lotbook binary to start")
	bombs := flag.Int("bombs", 8, "uploads of 16-bit RGBA PNG at 6400 x 6400 (320 MB decoded)")
	largest := flag.Int("largest", 8, "uploads of 8-bit RGBA PNG at 4096 x 4096 (64 MB decoded, the largest accepted)")
	interlaced := flag.Int("interlaced", 0, "uploads of interlaced 8-bit RGBA PNG at 3547 x 3547 (the costliest accepted decode: 48 MB, and its passes)")
	maxMB := flag.Float64("max-mb", 400, "peak resident memory allowed (MB)")
	abortMB := flag.Float64("abort-mb", 4096, "kill the server when its resident memory passes this (MB)")
	keep := flag.Bool("keep", false, "keep the data folder")
	flag.Parse()
	log := slog.New(slog.NewTextHandler(os.Stderr, nil))
	res, err := run(context.Background(), *bin, *bombs, *largest, *interlaced, *abortMB, *keep, log)
	if err != nil {
		log.Error("uploadload failed", "err", err)
		os.Exit(1)
	}
	_ = json.NewEncoder(os.Stdout).Encode(res)
	if res.Aborted || res.PeakMB > *maxMB {
		fmt.Fprintf(os.Stderr, "uploadload: peak %.0f MB is over %.0f MB\n", res.PeakMB, *maxMB)
		os.Exit(1)
	}
}

// Result is what one run measured.
type Result struct {
	Uploads   int            `json:"uploads"`
	Answers   map[string]int `json:"answers"` // "HTTP status message key" -> count
	Seconds   float64        `json:"seconds"` // from the first upload sent to the last answer
	IdleHWMMB float64        `json:"idleHwmMB"`
	PeakMB    float64        `json:"peakMB"` // VmHWM after the uploads
	Aborted   bool           `json:"aborted,omitempty"`
}

type upload struct {
	name string
	png  []byte
}

func run(ctx context.Context, bin string, bombs, largest, interlaced int, abortMB float64, keep bool, log *slog.Logger) (*Result, error) {
	var ups []upload
	for i := range bombs {
		ups = append(ups, upload{"bomb", testimage.PNG(6400, 6400, 16, testimage.RGBA, byte(i+1))})
	}
	for i := range largest {
		ups = append(ups, upload{"largest", testimage.PNG(4096, 4096, 8, testimage.RGBA, byte(i+1))})
	}
	for i := range interlaced {
		ups = append(ups, upload{"interlaced", testimage.Interlaced(3547, 3547, 8, testimage.RGBA, byte(i+1))})
	}
	if len(ups) == 0 || len(ups) > 200 {
		return nil, errors.New("send between 1 and 200 uploads")
	}
	dir, err := os.MkdirTemp("", "lotbook-uploadload-")
	if err != nil {
		return nil, err
	}
	if !keep {
		defer os.RemoveAll(dir)
	}
	srv, err := start(ctx, bin, dir, log)
	if err != nil {
		return nil, err
	}
	defer srv.stop()

	sessions := make([]session, len(ups))
	for i := range ups {
		if sessions[i], err = register(ctx, srv.base, fmt.Sprintf("0977%06d", i), i); err != nil {
			return nil, err
		}
	}
	res := &Result{Uploads: len(ups), Answers: map[string]int{}, IdleHWMMB: srv.statusMB("VmHWM")}
	log.Info("sending uploads at once", "n", len(ups), "idleHwmMB", res.IdleHWMMB)

	watch, stopWatch := context.WithCancel(ctx)
	defer stopWatch()
	aborted := make(chan struct{})
	go serve.Every(watch, 20*time.Millisecond, func() bool {
		if srv.statusMB("VmRSS") > abortMB {
			close(aborted)
			srv.kill()
			return false
		}
		return true
	})

	hc := &http.Client{Timeout: 5 * time.Minute, Transport: &http.Transport{MaxConnsPerHost: 0, MaxIdleConnsPerHost: len(ups)}}
	var mu sync.Mutex
	var wg sync.WaitGroup
	gate := make(chan struct{})
	for i, u := range ups {
		wg.Go(func() {
			<-gate
			answer := send(ctx, hc, srv.base, sessions[i], u.png)
			mu.Lock()
			res.Answers[u.name+": "+answer]++
			mu.Unlock()
		})
	}
	start := time.Now()
	close(gate)
	wg.Wait()
	res.Seconds = time.Since(start).Seconds()
	select {
	case <-aborted:
		res.Aborted = true
		res.PeakMB = abortMB
	default:
		res.PeakMB = srv.statusMB("VmHWM")
	}
	return res, nil
}

type session struct {
	Token   string `json:"token"`
	Account string `json:"account"`
}

// register signs a member up from 127.0.0.(10+n): registration is limited per IP.
func register(ctx context.Context, base, account string, n int) (session, error) {
	dialer := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.IPv4(127, 0, 0, byte(10+n))}}
	hc := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{DialContext: dialer.DialContext}}
	body, _ := json.Marshal(map[string]string{"account": account, "password": "load1234", "confirmPassword": "load1234", "inviteCode": "LOTBOOK"})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, base+"/api/vue/user/register", bytes.NewReader(body))
	if err != nil {
		return session{}, err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := hc.Do(req)
	if err != nil {
		return session{}, fmt.Errorf("register %s: %w", account, err)
	}
	defer resp.Body.Close()
	var env struct {
		Msg  string  `json:"msg"`
		Data session `json:"data"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&env); err != nil || resp.StatusCode != http.StatusOK {
		return session{}, fmt.Errorf("register %s: HTTP %d %s %v", account, resp.StatusCode, env.Msg, err)
	}
	return env.Data, nil
}

// send uploads img and returns the answer as "STATUS key" (or the transport error).
func send(ctx context.Context, hc *http.Client, base string, s session, img []byte) string {
	var b bytes.Buffer
	mw := multipart.NewWriter(&b)
	fw, _ := mw.CreateFormFile("file", "receipt.png")
	_, _ = fw.Write(img)
	_ = mw.Close()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, base+"/api/vue/files", &b)
	if err != nil {
		return err.Error()
	}
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("token", s.Token)
	req.Header.Set("account", s.Account)
	req.Header.Set("Idempotency-Key", uuid.NewString())
	resp, err := hc.Do(req)
	if err != nil {
		return "transport error"
	}
	defer resp.Body.Close()
	var env struct {
		Msg string `json:"msg"`
	}
	raw, _ := io.ReadAll(resp.Body)
	_ = json.Unmarshal(raw, &env)
	return strconv.Itoa(resp.StatusCode) + " " + env.Msg
}

// server is the `lotbook serve --demo` process this tool started.
type server struct {
	cmd  *exec.Cmd
	base string
	done chan error
}

func start(ctx context.Context, bin, dir string, log *slog.Logger) (*server, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("free port: %w", err)
	}
	addr := l.Addr().String()
	l.Close()
	logFile, err := os.Create(dir + "/serve.log")
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, "serve", "--demo", "--addr", addr, "--data", dir)
	cmd.Stdout, cmd.Stderr = logFile, logFile
	if err := cmd.Start(); err != nil {
		logFile.Close()
		return nil, fmt.Errorf("start %s: %w", bin, err)
	}
	s := &server{cmd: cmd, base: "http://" + addr, done: make(chan error, 1)}
	go func() { s.done <- cmd.Wait(); logFile.Close() }()
	log.Info("started lotbook serve", "pid", cmd.Process.Pid, "addr", addr, "data", dir)
	if err := serve.WaitReady(ctx, s.base, s.done, 100*time.Millisecond, 60*time.Second); err != nil {
		s.stop()
		return nil, fmt.Errorf("lotbook serve not ready (see %s/serve.log): %w", dir, err)
	}
	return s, nil
}

// statusMB reads a kB field of /proc/PID/status in MB (0 once the process is gone).
func (s *server) statusMB(field string) float64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", s.cmd.Process.Pid))
	if err != nil {
		return 0
	}
	for line := range strings.SplitSeq(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, field+":"); ok {
			kb, _ := strconv.ParseFloat(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 64)
			return kb / 1024
		}
	}
	return 0
}

func (s *server) kill() { _ = s.cmd.Process.Kill() }

// stop ends the server with SIGTERM, then SIGKILL after 10 s.
func (s *server) stop() {
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-s.done:
	case <-time.After(10 * time.Second):
		s.kill()
		<-s.done
	}
}
