package api

import (
	"bytes"
	"errors"
	"io"
	"net"
	"net/http/httptest"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// TestWriteNow: a worker's write takes what the socket holds without waiting and leaves the rest,
// a frame perhaps in part; written after it, the client reads every frame whole and in order.
func TestWriteNow(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	accepted := make(chan net.Conn, 1)
	go func() {
		c, err := ln.Accept()
		if err != nil {
			close(accepted)
			return
		}
		accepted <- c
	}()
	client, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	server, ok := <-accepted
	if !ok {
		t.Fatal("accept failed")
	}
	defer server.Close()
	tc := server.(*net.TCPConn)
	if err := tc.SetWriteBuffer(wsSendBuffer); err != nil {
		t.Fatal(err)
	}
	raw, err := tc.SyscallConn()
	if err != nil {
		t.Fatal(err)
	}

	// Far more than the socket buffers hold while the client reads nothing, in more frames than
	// one writev takes.
	var frames [][]byte
	var want bytes.Buffer
	for i := range 3 * wsIovMax {
		f := textFrame(bytes.Repeat([]byte{byte('a' + i%26)}, 100+i%700))
		frames = append(frames, f)
		want.Write(f)
	}
	var w wsWriter
	start := time.Now()
	rest, err := w.writeNow(raw, slices.Clone(frames))
	if err != nil {
		t.Fatal(err)
	}
	if time.Since(start) > 5*time.Second {
		t.Fatalf("writeNow waited %s for a client that reads nothing", time.Since(start))
	}
	if len(rest) == 0 || len(rest) == len(frames) {
		t.Fatalf("%d of %d frames left: want the socket to take some, not all", len(rest), len(frames))
	}
	written := want.Len()
	for _, f := range rest {
		written -= len(f)
	}
	t.Logf("the socket took %d of %d bytes; %d frames left", written, want.Len(), len(rest))

	got := make(chan []byte, 1)
	go func() {
		b, _ := io.ReadAll(client)
		got <- b
	}()
	if err := server.SetWriteDeadline(time.Now().Add(30 * time.Second)); err != nil {
		t.Fatal(err)
	}
	bufs := net.Buffers(rest)
	if _, err := bufs.WriteTo(server); err != nil {
		t.Fatal(err)
	}
	server.Close()
	if b := <-got; !bytes.Equal(b, want.Bytes()) {
		t.Fatalf("client read %d bytes, not the %d written in order", len(b), want.Len())
	}

	// A closed socket is an error, not a frame left for later.
	if _, err := w.writeNow(raw, [][]byte{textFrame([]byte("x"))}); err == nil {
		t.Fatal("write to a closed socket: no error")
	}
}

func TestAdvance(t *testing.T) {
	frames := func() [][]byte { return [][]byte{[]byte("abc"), []byte("de"), []byte("f")} }
	for _, tc := range []struct {
		n    int
		want []string
	}{
		{0, []string{"abc", "de", "f"}},
		{2, []string{"c", "de", "f"}},
		{3, []string{"de", "f"}},
		{4, []string{"e", "f"}},
		{6, nil},
	} {
		var got []string
		for _, f := range advance(frames(), tc.n) {
			got = append(got, string(f))
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("advance %d: %q, want %q", tc.n, got, tc.want)
		}
	}
}

// TestSocketControlFrames: the server answers a client's ping with its payload and a client's
// close with its code, through the same writer as every frame.
func TestSocketControlFrames(t *testing.T) {
	h := marketHarness(t)
	c := h.mustDial()
	pongs := make(chan string, 1)
	c.ws.SetPongHandler(func(data string) error {
		pongs <- data
		return nil
	})
	if err := c.ws.WriteControl(websocket.PingMessage, []byte("are you there"), time.Now().Add(5*time.Second)); err != nil {
		t.Fatal(err)
	}
	c.subscribe([]string{"2330"}, "quote")
	c.until(10*time.Second, "2330 snapshot", isQuote("2330")) // reading is what runs the pong handler
	select {
	case p := <-pongs:
		if p != "are you there" {
			t.Fatalf("pong %q", p)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no pong")
	}

	if err := c.ws.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseNormalClosure, "bye"),
		time.Now().Add(5*time.Second)); err != nil {
		t.Fatal(err)
	}
	var ce *websocket.CloseError
	if err := c.readErr(10 * time.Second); !errors.As(err, &ce) || ce.Code != websocket.CloseNormalClosure {
		t.Fatalf("after the client's close: %v", err)
	}
}

// TestSocketStuckClientsDelayNoOne: clients that stop reading, more of them than there are
// fan-out workers, hold no worker: a client that reads still gets each change at once.
func TestSocketStuckClientsDelayNoOne(t *testing.T) {
	h := marketHarness(t)
	h.setWriteWait(2 * time.Minute) // not dropped while the test runs
	syms := busiest(h)
	var stuck []*wsClient
	for range runtime.GOMAXPROCS(0) + 1 {
		c, _, err := h.dial(nil, 4096)
		if err != nil {
			t.Fatal(err)
		}
		c.subscribe(syms, "quote", "candles:1m")
		stuck = append(stuck, c)
	}
	for start := time.Now(); ; {
		advanceMarket(t, 5*time.Second)
		time.Sleep(20 * time.Millisecond) // let the hub fan out
		full := 0
		conns, _ := h.hubState()
		for _, c := range conns {
			if c.pendingFrames() > 0 {
				full++ // its socket is full: what is pending waits for it
			}
		}
		if full == len(stuck) {
			break
		}
		if time.Since(start) > 90*time.Second {
			t.Fatalf("%d of %d stuck clients have frames pending", full, len(stuck))
		}
	}

	live := h.mustDial()
	live.subscribe([]string{"2330"}, "quote")
	last := live.until(10*time.Second, "2330 snapshot", isQuote("2330")).quote(t)
	for range 3 {
		start := time.Now()
		advanceMarket(t, 30*time.Second)
		f := live.until(10*time.Second, "live 2330 quote", func(f wsFrame) bool { return isQuote("2330")(f) && f.quote(t).Time.After(last.Time) })
		last = f.quote(t)
		t.Logf("live quote %s after the change", time.Since(start).Round(time.Millisecond))
	}
}

// TestSocketServerStops: a stopping server ends its sockets with a close message that says so.
func TestSocketServerStops(t *testing.T) {
	st, stop := openTestStack(t, testDB{kind: "sqlite"}, RateLimits{}, newTestClock())
	srv := httptest.NewServer(st.Handler())
	t.Cleanup(srv.Close)
	h := &harness{t: t, st: st, srv: srv}
	c := h.mustDial()
	c.subscribe([]string{"2330"}, "quote")
	c.until(10*time.Second, "2330 snapshot", isQuote("2330"))
	stop()
	var ce *websocket.CloseError
	if err := c.readErr(10 * time.Second); !errors.As(err, &ce) || ce.Code != websocket.CloseGoingAway {
		t.Fatalf("when the server stops: %v", err)
	}
}
