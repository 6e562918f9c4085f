package api

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/lotbook/lotbook/api/wire"
)

// wsFrame is any server frame, decoded loosely; data is decoded by type.
type wsFrame struct {
	Type     string          `json:"type"`
	Msg      string          `json:"msg"`
	Symbol   string          `json:"symbol"`
	Interval string          `json:"interval"`
	Data     json.RawMessage `json:"data"`
	Ts       time.Time       `json:"ts"`
}

func (f wsFrame) quote(t testing.TB) wire.Quote {
	t.Helper()
	var q wire.Quote
	if err := strictJSON(f.Data, &q); err != nil {
		t.Fatalf("quote frame %s: %v", f.Data, err)
	}
	return q
}

func (f wsFrame) candle(t testing.TB) wire.Candle {
	t.Helper()
	var c wire.Candle
	if err := strictJSON(f.Data, &c); err != nil {
		t.Fatalf("candle frame %s: %v", f.Data, err)
	}
	return c
}

func strictJSON(b []byte, v any) error {
	dec := json.NewDecoder(strings.NewReader(string(b)))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}

// wsClient reads in its own goroutine once a test starts reading (gorilla allows no read after
// a timed-out one), into a buffer of frames (answering pings meanwhile), or one frame ahead for
// a slow client: a test that never calls next then is a client that does not read.
type wsClient struct {
	t      testing.TB
	ws     *websocket.Conn
	once   sync.Once
	frames chan []byte
	err    chan error
}

func (h *harness) wsURL() string { return "ws" + strings.TrimPrefix(h.srv.URL, "http") + "/api/vue/ws" }

// dial opens the market socket; rcvBuf > 0 makes a slow reader: a small receive buffer, no
// frames read ahead.
func (h *harness) dial(header http.Header, rcvBuf int) (*wsClient, *http.Response, error) {
	d := websocket.Dialer{HandshakeTimeout: 5 * time.Second}
	if rcvBuf > 0 {
		d.NetDialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
			c, err := (&net.Dialer{}).DialContext(ctx, network, addr)
			if err == nil {
				err = c.(*net.TCPConn).SetReadBuffer(rcvBuf)
			}
			return c, err
		}
	}
	ws, resp, err := d.Dial(h.wsURL(), header)
	if err != nil {
		return nil, resp, err
	}
	ahead := 4096
	if rcvBuf > 0 {
		ahead = 0
	}
	c := &wsClient{t: h.t, ws: ws, frames: make(chan []byte, ahead), err: make(chan error, 1)}
	h.t.Cleanup(func() { ws.Close() })
	return c, resp, nil
}

func (h *harness) mustDial() *wsClient {
	h.t.Helper()
	c, _, err := h.dial(nil, 0)
	if err != nil {
		h.t.Fatal(err)
	}
	return c
}

func (c *wsClient) send(v any) {
	c.t.Helper()
	var b []byte
	if s, ok := v.(string); ok {
		b = []byte(s)
	} else {
		var err error
		if b, err = json.Marshal(v); err != nil {
			c.t.Fatal(err)
		}
	}
	if err := c.ws.WriteMessage(websocket.TextMessage, b); err != nil {
		c.t.Fatal(err)
	}
}

func (c *wsClient) subscribe(symbols []string, channels ...string) {
	c.t.Helper()
	c.send(map[string]any{"op": "subscribe", "symbols": symbols, "channels": channels})
}

func (c *wsClient) startReading() {
	c.once.Do(func() {
		go func() {
			for {
				_, b, err := c.ws.ReadMessage()
				if err != nil {
					c.err <- err
					return
				}
				c.frames <- b
			}
		}()
	})
}

// readErr waits for the connection to fail and returns why.
func (c *wsClient) readErr(wait time.Duration) error {
	c.t.Helper()
	c.startReading()
	end := time.After(wait)
	for {
		select {
		case <-c.frames:
		case err := <-c.err:
			return err
		case <-end:
			c.t.Fatalf("connection still open after %s", wait)
		}
	}
}

// next reads one frame, or reports false when none came within wait.
func (c *wsClient) next(wait time.Duration) (wsFrame, bool) {
	c.t.Helper()
	c.startReading()
	var b []byte
	select {
	case b = <-c.frames:
	case err := <-c.err:
		c.t.Fatalf("read: %v", err)
	case <-time.After(wait):
		return wsFrame{}, false
	}
	var f wsFrame
	if err := json.Unmarshal(b, &f); err != nil {
		c.t.Fatalf("frame %q: %v", b, err)
	}
	if f.Type == "error" && !wire.MessageKey(f.Msg).Valid() {
		c.t.Fatalf("error frame with unknown key %q", f.Msg)
	}
	return f, true
}

// until reads frames until match accepts one; it fails after wait.
func (c *wsClient) until(wait time.Duration, what string, match func(wsFrame) bool) wsFrame {
	c.t.Helper()
	end := time.Now().Add(wait)
	for time.Now().Before(end) {
		if f, ok := c.next(time.Until(end)); ok && match(f) {
			return f
		}
	}
	c.t.Fatalf("no %s within %s", what, wait)
	return wsFrame{}
}

func (c *wsClient) wantError(key, symbol string) {
	c.t.Helper()
	f := c.until(10*time.Second, "error "+key, func(f wsFrame) bool { return f.Type == "error" })
	if f.Msg != key || f.Symbol != symbol {
		c.t.Fatalf("error frame %+v, want %s %q", f, key, symbol)
	}
}

func isQuote(sym string) func(wsFrame) bool {
	return func(f wsFrame) bool {
		return f.Type == "quote" && strings.Contains(string(f.Data), `"symbol":"`+sym+`"`)
	}
}

func isCandle(sym, iv string) func(wsFrame) bool {
	return func(f wsFrame) bool { return f.Type == "candle" && f.Symbol == sym && f.Interval == iv }
}

func TestSocketSnapshotAndLive(t *testing.T) {
	h := marketHarness(t)
	c := h.mustDial()
	c.subscribe([]string{"2330", "taiex"}, "quote", "candles:1m", "candles:1d")
	got := map[string]wsFrame{}
	for len(got) < 6 {
		f, ok := c.next(20 * time.Second) // the first index candles take the market a while
		if !ok {
			t.Fatalf("snapshot incomplete: %v", slices.Collect(maps.Keys(got)))
		}
		switch f.Type {
		case "quote":
			got["quote "+f.quote(t).Symbol] = f
		case "candle":
			f.candle(t)
			got[f.Interval+" "+f.Symbol] = f
		default:
			t.Fatalf("frame %+v", f)
		}
	}
	for _, k := range []string{"quote 2330", "quote TAIEX", "1m 2330", "1d 2330", "1m TAIEX", "1d TAIEX"} {
		if _, ok := got[k]; !ok {
			t.Fatalf("snapshot lacks %s: %v", k, got)
		}
	}
	q := got["quote 2330"].quote(t)
	checkQuote(t, q)
	if len(q.Bids) != 5 || len(q.Asks) != 5 || got["quote 2330"].Ts.IsZero() {
		t.Fatalf("socket quote without best five or ts: %+v", got["quote 2330"])
	}

	// The market moves: the quote and the candles follow.
	c.startReading()
	advanceMarket(t, 70*time.Second)
	live := c.until(15*time.Second, "live 2330 quote", func(f wsFrame) bool { return isQuote("2330")(f) && f.quote(t).Time.After(q.Time) })
	checkQuote(t, live.quote(t))
	first := got["1m 2330"].candle(t)
	c.until(15*time.Second, "a later 1m candle", func(f wsFrame) bool { return isCandle("2330", "1m")(f) && f.candle(t).Time.After(first.Time) })

	// Unsubscribing a channel stops it; the others go on.
	c.send(map[string]any{"op": "unsubscribe", "symbols": []string{"2330"}, "channels": []string{"candles:1m", "candles:1d"}})
	c.send(map[string]any{"op": "unsubscribe", "symbols": []string{"TAIEX"}})
	time.Sleep(200 * time.Millisecond)
	for f, ok := c.next(200 * time.Millisecond); ok; f, ok = c.next(200 * time.Millisecond) {
		_ = f // drain what was on its way
	}
	advanceMarket(t, 20*time.Second)
	c.until(15*time.Second, "2330 quote after unsubscribing its candles", isQuote("2330"))
	for f, ok := c.next(500 * time.Millisecond); ok; f, ok = c.next(500 * time.Millisecond) {
		if !isQuote("2330")(f) {
			t.Fatalf("frame after unsubscribe: %+v", f)
		}
	}
}

func TestSocketRefusals(t *testing.T) {
	h := marketHarness(t)
	c := h.mustDial()
	c.subscribe([]string{"9999", "2330"}, "quote")
	c.wantError("not_found", "9999")
	c.until(10*time.Second, "2330 snapshot next to the refusal", isQuote("2330"))
	for _, bad := range []any{
		`{`, `[]`, `{"op":"watch","symbols":["2330"]}`, `{"symbols":["2330"]}`, `{"op":"subscribe","symbols":["2330"],"extra":1}`,
		map[string]any{"op": "subscribe", "symbols": []string{"2330"}, "channels": []string{"book"}},
		map[string]any{"op": "subscribe", "symbols": []string{"2330"}, "channels": []string{"candles:2m"}},
		map[string]any{"op": "subscribe", "symbols": []string{}},
		map[string]any{"op": "subscribe", "symbols": "2330"},
	} {
		c.send(bad)
		c.wantError("invalid_request", "")
	}
	if err := c.ws.WriteMessage(websocket.BinaryMessage, []byte(`{"op":"subscribe","symbols":["2330"]}`)); err != nil {
		t.Fatal(err)
	}
	c.wantError("invalid_request", "")

	// More than 200 symbols on one connection.
	var syms []string
	for page := 1; len(syms) < 201; page++ {
		var p wire.QuotePage
		h.anon().getOK(fmt.Sprintf("/api/vue/market/stocks?size=100&page=%d", page), &p)
		for _, q := range p.Items {
			syms = append(syms, q.Symbol)
		}
	}
	time.Sleep(2 * time.Second) // let the request bucket refill
	c.subscribe(syms[:201], "quote")
	c.wantError("invalid_request", "")

	// Too many requests at once.
	for range wsReqBurst + 5 {
		c.send(map[string]any{"op": "unsubscribe", "symbols": []string{"2330"}})
	}
	c.wantError("rate_limited", "")

	// A message over the limit ends the connection.
	c.send(`{"op":"subscribe","symbols":["` + strings.Repeat("2", wsMaxMessage) + `"]}`)
	if ce, ok := c.readErr(3 * time.Second).(*websocket.CloseError); !ok || ce.Code != websocket.CloseMessageTooBig {
		t.Fatalf("oversized message: %v", ce)
	}

	// Browsers from another origin are refused; the same origin is let in.
	_, resp, err := h.dial(http.Header{"Origin": {"https://evil.example"}}, 0)
	if err == nil || resp == nil || resp.StatusCode != http.StatusForbidden {
		t.Fatalf("cross-origin handshake: %v %v", resp, err)
	}
	if _, _, err := h.dial(http.Header{"Origin": {h.srv.URL}}, 0); err != nil {
		t.Fatalf("same-origin handshake: %v", err)
	}
	resp, err = http.Get(h.srv.URL + "/api/vue/ws")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest {
		t.Fatalf("plain GET of the socket: %d", resp.StatusCode)
	}
}

// TestSocketSlowClient: a client that does not read holds the server to one pending frame per
// (symbol, channel), and when it reads it ends on the latest state.
func TestSocketSlowClient(t *testing.T) {
	h := marketHarness(t)
	h.setWriteWait(2 * time.Minute) // this machine may be slow; the drop is TestSocketStuckClient's
	syms := busiest(h)
	c, _, err := h.dial(nil, 4096)
	if err != nil {
		t.Fatal(err)
	}
	c.subscribe(syms, "quote", "candles:1m")
	keys := 2 * len(syms)
	hub, conn := h.st.ws, h.serverConn()
	// The client takes a frame every 20 ms (and so answers pings): far slower than the market.
	stop := make(chan struct{})
	slowDone := make(chan struct{})
	go func() {
		defer close(slowDone)
		for {
			select {
			case <-stop:
				return
			case <-time.After(20 * time.Millisecond):
			}
			select {
			case <-c.frames:
			case <-stop:
				return
			}
		}
	}()
	c.startReading()
	pending := func() int { return conn.pendingFrames() }
	replaced0 := testutil.ToFloat64(hub.metrics.replaced)
	maxPending, full := 0, 0
	// Until the socket's buffers are full: then the writer stops taking and the pending states
	// pile up to one per key, never more, however long the market keeps moving.
	start := time.Now()
	for full < 5 {
		advanceMarket(t, 5*time.Second)
		time.Sleep(20 * time.Millisecond) // let the hub fan out
		p := pending()
		maxPending = max(maxPending, p)
		if p > keys {
			t.Fatalf("%d pending frames for %d keys", p, keys)
		}
		if p >= keys/2 {
			full++
		}
		if time.Since(start) > 90*time.Second {
			t.Fatalf("the socket never filled up (at most %d pending)", maxPending)
		}
	}

	close(stop)
	<-slowDone
	replaced := testutil.ToFloat64(hub.metrics.replaced) - replaced0
	t.Logf("%d keys: at most %d pending, %.0f states replaced before the client read them (%s)", keys, maxPending, replaced, time.Since(start).Round(time.Millisecond))
	if replaced == 0 {
		t.Fatalf("the writer never blocked: no state was replaced")
	}

	// Reading now ends on the latest state of every symbol.
	mkt := testMarket(t)
	for attempt := 0; ; attempt++ {
		last := map[string]wire.Quote{}
		for f, ok := c.next(2 * time.Second); ok; f, ok = c.next(700 * time.Millisecond) {
			if f.Type == "quote" {
				q := f.quote(t)
				last[q.Symbol] = q
			}
		}
		stale := 0
		for _, s := range syms {
			now, err := mkt.Quote(s)
			if err != nil {
				t.Fatal(err)
			}
			if q, seen := last[s]; seen && (q.Volume != now.Volume || !q.Time.Equal(now.Time.UTC())) {
				stale++
			}
		}
		if stale == 0 && len(last) > 0 {
			break
		}
		if attempt == 3 { // other tests may move the shared market meanwhile
			t.Fatalf("%d of %d symbols not at their latest state", stale, len(last))
		}
	}
}

// busiest are the 200 symbols with the most volume today (they trade every few seconds).
func busiest(h *harness) []string {
	var syms []string
	for page := 1; page <= 2; page++ {
		var p wire.QuotePage
		h.anon().getOK(fmt.Sprintf("/api/vue/market/stocks?tab=volume&size=100&page=%d", page), &p)
		for _, q := range p.Items {
			syms = append(syms, q.Symbol)
		}
	}
	return syms
}

func (h *harness) setWriteWait(d time.Duration) {
	h.st.ws.writeWait.Store(int64(d))
}

// hubState is what the hub goroutine holds: the open connections and the symbols watched.
func (h *harness) hubState() (conns []*wsConn, symbols int) {
	done := make(chan struct{})
	if !h.st.ws.do(func() {
		for c := range h.st.ws.conns {
			conns = append(conns, c)
		}
		symbols = len(h.st.ws.syms)
		close(done)
	}) {
		h.t.Fatal("hub stopped")
	}
	<-done
	return conns, symbols
}

// serverConn is the server side of the harness's only socket.
func (h *harness) serverConn() *wsConn {
	h.t.Helper()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if conns, _ := h.hubState(); len(conns) > 0 {
			return conns[0]
		}
	}
	h.t.Fatal("no server-side connection")
	return nil
}

// TestSocketStuckClient: a client that takes no frame for writeWait is dropped, and everything
// the hub kept for it goes with it.
func TestSocketStuckClient(t *testing.T) {
	h := marketHarness(t)
	h.setWriteWait(300 * time.Millisecond)
	c, _, err := h.dial(nil, 4096)
	if err != nil {
		t.Fatal(err)
	}
	c.subscribe(busiest(h), "quote", "candles:1m")
	h.serverConn()
	for start := time.Now(); ; {
		advanceMarket(t, 5*time.Second)
		time.Sleep(20 * time.Millisecond)
		conns, watched := h.hubState()
		left := len(conns)
		if left == 0 && watched == 0 {
			break
		}
		if time.Since(start) > 90*time.Second {
			t.Fatalf("stuck client still connected (%d connections, %d symbols watched)", left, watched)
		}
	}
	t0 := time.Now()
	err = c.readErr(30 * time.Second)
	t.Logf("client saw %v after %s", err, time.Since(t0))
}

// TestSocketReconnect: a new connection subscribing again gets the current state at once.
func TestSocketReconnect(t *testing.T) {
	h := marketHarness(t)
	c := h.mustDial()
	c.subscribe([]string{"2317"}, "quote")
	before := c.until(10*time.Second, "snapshot", isQuote("2317")).quote(t)
	c.ws.Close()

	advanceMarket(t, 3*time.Minute)
	c = h.mustDial()
	start := time.Now()
	c.subscribe([]string{"2317"}, "quote")
	after := c.until(10*time.Second, "snapshot after reconnect", isQuote("2317")).quote(t)
	if !after.Time.After(before.Time) || time.Since(start) > time.Second {
		t.Fatalf("snapshot after reconnect %s (before %s) took %s", after.Time, before.Time, time.Since(start))
	}
	// Subscribing again on the same connection sends the snapshot again.
	c.subscribe([]string{"2317"}, "quote")
	c.until(10*time.Second, "snapshot on resubscribe", isQuote("2317"))
}

// TestConnPending: the per-connection buffer keeps one frame per key, the newest, in the order
// keys first changed.
func TestConnPending(t *testing.T) {
	m := &wsMetrics{replaced: prometheus.NewCounter(prometheus.CounterOpts{Name: "x"})}
	c := newWSConn(nil, m, time.Second, nil)
	c.writing = true // no writer starts: the test takes the frames itself
	sub := func(sym string) *wsSub {
		if c.subs[sym] == nil {
			c.subs[sym] = &wsSub{conn: c, mask: chAllMask}
		}
		return c.subs[sym]
	}
	frames := map[int][]byte{}
	mk := func(n int) []byte {
		f := textFrame([]byte(fmt.Sprint(n)))
		frames[n] = f
		return f
	}
	for n := 1; n <= 10000; n++ {
		c.offer(sub(fmt.Sprintf("S%02d", n%25)), n%2, mk(n))
	}
	if c.pendingFrames() != 50 || testutil.ToFloat64(m.replaced) != 10000-50 {
		t.Fatalf("%d pending, %v replaced", c.pendingFrames(), testutil.ToFloat64(m.replaced))
	}
	got := c.take(nil)
	if len(got) != 50 || !bytes.Equal(got[0], frames[9951]) || !bytes.Equal(got[49], frames[10000]) {
		t.Fatalf("take: %d frames", len(got))
	}
	if len(c.take(nil)) != 0 {
		t.Fatal("take twice")
	}
	// Forgetting a key keeps the others' order and lets their later states replace them.
	c.offer(sub("S01"), 1, mk(1))
	c.offer(sub("S02"), 0, mk(2))
	c.offer(sub("S03"), 1, mk(3))
	c.forget(sub("S01"), 1<<1)
	c.offer(sub("S03"), 1, mk(5))
	c.offer(sub("S01"), 1, mk(6))
	if got := c.take(nil); len(got) != 3 || !bytes.Equal(got[0], frames[2]) || !bytes.Equal(got[1], frames[5]) || !bytes.Equal(got[2], frames[6]) {
		t.Fatalf("after forget: %d", len(got))
	}
	for i := range wsMaxErrors + 3 {
		c.fail(wire.MessageKeyInvalidRequest, fmt.Sprint(i))
	}
	c.offer(sub("S03"), 0, mk(3))
	if got := c.take(nil); len(got) != wsMaxErrors+1 || !bytes.Equal(got[wsMaxErrors], frames[3]) {
		t.Fatalf("errors first, bounded: %d", len(got))
	}
	var wg sync.WaitGroup
	f := mk(4)
	s := sub("S")
	for g := range 8 {
		wg.Go(func() {
			for range 1000 {
				c.offer(s, g, f)
			}
		})
	}
	wg.Wait()
	if len(c.take(nil)) != 8 {
		t.Fatal("concurrent offers")
	}
}

func TestTextFrame(t *testing.T) {
	for _, tc := range []struct {
		n      int
		header []byte
	}{
		{0, []byte{0x81, 0}},
		{125, []byte{0x81, 125}},
		{126, []byte{0x81, 126, 0, 126}},
		{65535, []byte{0x81, 126, 0xff, 0xff}},
		{65536, []byte{0x81, 127, 0, 0, 0, 0, 0, 1, 0, 0}},
	} {
		payload := bytes.Repeat([]byte("x"), tc.n)
		f := textFrame(payload)
		if !bytes.Equal(f[:len(tc.header)], tc.header) || !bytes.Equal(f[len(tc.header):], payload) {
			t.Errorf("%d bytes: header % x", tc.n, f[:min(len(f), 10)])
		}
	}
}
