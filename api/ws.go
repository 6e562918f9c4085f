package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/websocket"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/lotbook/lotbook/api/wire"
	"github.com/lotbook/lotbook/market"
)

// The market socket, GET /api/vue/ws. One hub per server takes the market's changes (one market
// subscription watching the union of every connection's symbols), renders each (symbol, channel)
// frame once and offers it to the connections that want it. A connection holds at most one
// pending frame per (symbol, channel), the latest, so a client that reads slowly skips states
// instead of growing a queue; its writer sends what is pending whenever the socket can take it.

// Socket limits.
const (
	wsMaxSymbols  = 200              // distinct symbols per connection
	wsMaxMessage  = 16 << 10         // bytes per client message (200 symbols fit easily)
	wsWriteWait   = 10 * time.Second // a frame the client does not take in this time drops it
	wsPongWait    = 60 * time.Second // silence (no pong, no message) that drops a client
	wsPingPeriod  = 30 * time.Second
	wsMaxErrors   = 8  // pending error frames per connection; more are dropped
	wsReqBurst    = 20 // client requests: burst, then wsReqPerSec
	wsReqPerSec   = 5
	wsReadBuffer  = 1024
	wsWriteBuffer = 4096
	// wsSendBuffer caps the kernel's send buffer of a socket (autotuning would grow it to
	// megabytes): a client that falls behind then waits on at most this much of stale frames
	// before the latest states, and the server holds no more for it.
	wsSendBuffer = 64 << 10
)

// Channels are bits of a mask: quote (with best five), then candles of each interval.
var wsChannels = []string{"quote", "candles:1m", "candles:3m", "candles:15m", "candles:30m", "candles:1d", "candles:1M", "candles:1y"}

const (
	chQuote   = 0
	chAllMask = 1<<8 - 1
)

type chanMask uint8

func parseChannels(names []string) (chanMask, bool) {
	var m chanMask
	for _, n := range names {
		i := slices.Index(wsChannels, n)
		if i < 0 {
			return 0, false
		}
		m |= 1 << i
	}
	return m, true
}

// interval of a candle channel bit ("1m" for candles:1m).
func interval(bit int) string { return strings.TrimPrefix(wsChannels[bit], "candles:") }

// frameKey names one stream of frames a client can hold pending.
type frameKey struct {
	symbol string
	ch     int
}

// frame is one rendered server message, shared by every connection it goes to. ver orders the
// states of a key: a connection never replaces a newer state with an older one.
type frame struct {
	msg *websocket.PreparedMessage
	ver uint64
}

type wsMetrics struct {
	conns    prometheus.Gauge
	sent     prometheus.Counter
	replaced prometheus.Counter
}

func newWSMetrics(reg prometheus.Registerer) *wsMetrics {
	m := &wsMetrics{
		conns: prometheus.NewGauge(prometheus.GaugeOpts{Name: "lotbook_ws_connections", Help: "Open market sockets."}),
		sent:  prometheus.NewCounter(prometheus.CounterOpts{Name: "lotbook_ws_frames_sent_total", Help: "Frames written to market sockets."}),
		replaced: prometheus.NewCounter(prometheus.CounterOpts{Name: "lotbook_ws_frames_replaced_total",
			Help: "Pending frames replaced by a newer state before a slow client took them."}),
	}
	reg.MustRegister(m.conns, m.sent, m.replaced)
	return m
}

// wsHub serves the market socket.
type wsHub struct {
	mkt      *market.Service
	log      *slog.Logger
	metrics  *wsMetrics
	upgrader websocket.Upgrader
	indices  map[string]bool
	// writeWait is how long one frame may take to go out (wsWriteWait; tests change it).
	writeWait time.Duration

	// mu guards the subscription's symbol set, seq and every connection's subscriptions. Fan-out
	// holds it shared; (un)subscribing holds it exclusively.
	mu    sync.RWMutex
	sub   *market.Subscription
	seq   uint64
	watch map[string]map[*wsConn]chanMask // symbol -> connection -> channels
	conns map[*wsConn]struct{}
}

func newWSHub(mkt *market.Service, log *slog.Logger, reg prometheus.Registerer) *wsHub {
	h := &wsHub{
		mkt:     mkt,
		log:     log,
		metrics: newWSMetrics(reg),
		indices: map[string]bool{},
		sub:     mkt.Subscribe(wsNoSymbol),
		watch:   map[string]map[*wsConn]chanMask{},
		conns:   map[*wsConn]struct{}{},

		writeWait: wsWriteWait,
	}
	for _, q := range mkt.Indices() {
		h.indices[q.Symbol] = true
	}
	h.upgrader = websocket.Upgrader{
		ReadBufferSize:  wsReadBuffer,
		WriteBufferSize: wsWriteBuffer,
		// Write buffers only while writing control frames: idle sockets hold none.
		WriteBufferPool:  &sync.Pool{},
		HandshakeTimeout: 10 * time.Second,
		// CheckOrigin nil: gorilla's same-origin check (an Origin header must name this host;
		// clients that send none, which are not browsers, are let in).
	}
	return h
}

// wsNoSymbol starts the market subscription empty: subscribing with no symbol would watch all.
const wsNoSymbol = "\x00"

// run fans out market changes until ctx ends, then closes every socket.
func (h *wsHub) run(ctx context.Context) {
	defer h.closeAll()
	for {
		select {
		case <-ctx.Done():
			return
		case <-h.sub.Ready():
			h.broadcast()
		}
	}
}

// broadcast takes the changed quotes and offers each wanted frame to its connections. Frames
// are rendered lazily, once per (symbol, channel), when the first connection wants them.
func (h *wsHub) broadcast() {
	h.mu.Lock()
	quotes := h.sub.Take()
	h.seq++
	ver := 2 * h.seq
	h.mu.Unlock()
	if len(quotes) == 0 {
		return
	}
	now := time.Now()
	h.mu.RLock()
	defer h.mu.RUnlock()
	var frames [8]*frame // one per channel of wsChannels
	for _, q := range quotes {
		conns := h.watch[q.Symbol]
		if len(conns) == 0 {
			continue
		}
		clear(frames[:])
		failed := chanMask(0)
		for c, mask := range conns {
			for bit := range wsChannels {
				if mask&(1<<bit) == 0 || failed&(1<<bit) != 0 {
					continue
				}
				if frames[bit] == nil {
					f, err := h.render(q, bit, ver, now)
					if err != nil {
						h.log.Warn("socket frame", "symbol", q.Symbol, "channel", wsChannels[bit], "err", err)
						failed |= 1 << bit
						continue
					}
					frames[bit] = f
				}
				c.offer(frameKey{q.Symbol, bit}, frames[bit])
			}
		}
	}
}

// render builds the frame of one channel of q: the quote itself, or the symbol's latest candle.
func (h *wsHub) render(q market.Quote, bit int, ver uint64, now time.Time) (*frame, error) {
	var v any
	if bit == chQuote {
		v = wire.WsQuoteFrame{Type: "quote", Data: quoteOut(q), Ts: now.UTC()}
	} else {
		iv := interval(bit)
		cs, err := h.mkt.Candles(q.Symbol, iv, time.Time{}, 1)
		if err != nil {
			return nil, err
		}
		if len(cs) == 0 {
			return nil, fmt.Errorf("no %s candle", iv)
		}
		v = wire.WsCandleFrame{Type: "candle", Symbol: q.Symbol, Interval: wire.CandleInterval(iv), Data: candleOut(cs[len(cs)-1]), Ts: now.UTC()}
	}
	return newFrame(v, ver)
}

func newFrame(v any, ver uint64) (*frame, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("encode frame: %w", err)
	}
	pm, err := websocket.NewPreparedMessage(websocket.TextMessage, b)
	if err != nil {
		return nil, fmt.Errorf("prepare frame: %w", err)
	}
	return &frame{msg: pm, ver: ver}, nil
}

func errorFrame(key wire.MessageKey, symbol string) *frame {
	v := wire.WsErrorFrame{Type: "error", Msg: key}
	if symbol != "" {
		v.Symbol = &symbol
	}
	f, err := newFrame(v, 0)
	if err != nil {
		panic("api: error frame: " + err.Error()) // our own constant shapes
	}
	return f
}

// serve upgrades the request and runs the connection until the client leaves.
func (h *wsHub) serve(w http.ResponseWriter, r *http.Request) {
	ws, err := h.upgrader.Upgrade(w, r, nil)
	if err != nil {
		return // the upgrader answered (400 not a handshake, 403 another origin)
	}
	if tc, ok := ws.NetConn().(*net.TCPConn); ok {
		if err := tc.SetWriteBuffer(wsSendBuffer); err != nil {
			h.log.Debug("socket send buffer", "err", err)
		}
	}
	h.mu.Lock()
	c := newWSConn(ws, h.metrics, h.writeWait)
	h.conns[c] = struct{}{}
	h.mu.Unlock()
	h.metrics.conns.Inc()
	defer func() {
		h.drop(c)
		h.metrics.conns.Dec()
	}()
	go c.writeLoop()
	c.readLoop(h)
}

// request applies one client message.
func (h *wsHub) request(c *wsConn, msg []byte) {
	var req wire.WsRequest
	if err := decodeStrict(msg, contract.shape("WsRequest"), &req); err != nil {
		c.fail(wire.MessageKeyInvalidRequest, "")
		return
	}
	var names, symbols []string
	if req.Channels != nil {
		names = *req.Channels
	}
	if req.Symbols != nil {
		symbols = *req.Symbols
	}
	mask, valid := parseChannels(names)
	if !valid {
		c.fail(wire.MessageKeyInvalidRequest, "")
		return
	}
	for i, s := range symbols {
		symbols[i] = strings.ToUpper(strings.TrimSpace(s))
	}
	slices.Sort(symbols)
	symbols = slices.Compact(symbols)
	switch req.Op {
	case wire.Subscribe:
		if mask == 0 {
			mask = 1 << chQuote
		}
		h.subscribe(c, symbols, mask)
	case wire.Unsubscribe:
		if mask == 0 {
			mask = chAllMask
		}
		h.unsubscribe(c, symbols, mask)
	default:
		c.fail(wire.MessageKeyInvalidRequest, "")
	}
}

func (h *wsHub) known(sym string) bool {
	if h.indices[sym] {
		return true
	}
	_, err := h.mkt.Instrument(sym)
	return err == nil
}

// subscribe adds (symbols, channels) and sends their current state at once. Unknown symbols get
// an error frame each; a request that would pass wsMaxSymbols is refused whole.
func (h *wsHub) subscribe(c *wsConn, symbols []string, mask chanMask) {
	if len(symbols) == 0 {
		c.fail(wire.MessageKeyInvalidRequest, "")
		return
	}
	var ok []string
	for _, s := range symbols {
		if h.known(s) {
			ok = append(ok, s)
		} else {
			c.fail(wire.MessageKeyNotFound, s)
		}
	}
	h.mu.Lock()
	added := 0
	for _, s := range ok {
		if _, has := c.subs[s]; !has {
			added++
		}
	}
	if len(c.subs)+added > wsMaxSymbols {
		h.mu.Unlock()
		c.fail(wire.MessageKeyInvalidRequest, "")
		return
	}
	var watch []string
	for _, s := range ok {
		conns := h.watch[s]
		if conns == nil {
			conns = map[*wsConn]chanMask{}
			h.watch[s] = conns
			watch = append(watch, s)
		}
		c.subs[s] |= mask
		conns[c] = c.subs[s]
	}
	if len(watch) > 0 {
		h.sub.Watch(watch...)
	}
	// Batches numbered up to seq took their quotes before this point: the snapshot taken below
	// is newer, so it ranks between them and the next batch.
	ver := 2*h.seq + 1
	h.mu.Unlock()

	now := time.Now()
	for _, s := range ok {
		q, err := h.mkt.Quote(s)
		if err != nil {
			c.fail(wire.MessageKeyNotFound, s)
			continue
		}
		for bit := range wsChannels {
			if mask&(1<<bit) == 0 {
				continue
			}
			f, err := h.render(q, bit, ver, now)
			if err != nil {
				h.log.Warn("socket snapshot", "symbol", s, "channel", wsChannels[bit], "err", err)
				continue
			}
			c.offer(frameKey{s, bit}, f)
		}
	}
}

// unsubscribe removes channels of symbols (every symbol when none is named); pending frames of
// what was removed are dropped.
func (h *wsHub) unsubscribe(c *wsConn, symbols []string, mask chanMask) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(symbols) == 0 {
		symbols = make([]string, 0, len(c.subs))
		for s := range c.subs {
			symbols = append(symbols, s)
		}
	}
	var unwatch []string
	for _, s := range symbols {
		have, ok := c.subs[s]
		if !ok {
			continue
		}
		left := have &^ mask
		c.forget(s, have&mask)
		if left != 0 {
			c.subs[s] = left
			h.watch[s][c] = left
			continue
		}
		delete(c.subs, s)
		if conns := h.watch[s]; conns != nil {
			delete(conns, c)
			if len(conns) == 0 {
				delete(h.watch, s)
				unwatch = append(unwatch, s)
			}
		}
	}
	if len(unwatch) > 0 {
		h.sub.Unwatch(unwatch...)
	}
}

// drop forgets a connection that ended.
func (h *wsHub) drop(c *wsConn) {
	h.unsubscribe(c, nil, chAllMask)
	h.mu.Lock()
	delete(h.conns, c)
	h.mu.Unlock()
	c.close()
}

// closeAll ends every connection (the server is stopping: hijacked sockets are not closed by
// http.Server.Shutdown).
func (h *wsHub) closeAll() {
	h.mu.Lock()
	conns := make([]*wsConn, 0, len(h.conns))
	for c := range h.conns {
		conns = append(conns, c)
	}
	h.mu.Unlock()
	for _, c := range conns {
		_ = c.ws.WriteControl(websocket.CloseMessage,
			websocket.FormatCloseMessage(websocket.CloseGoingAway, "server stopping"), time.Now().Add(time.Second))
		c.close()
	}
	h.sub.Close()
}

// wsConn is one client socket: its subscriptions (guarded by the hub's mu) and what is pending
// for it (guarded by mu).
type wsConn struct {
	ws        *websocket.Conn
	metrics   *wsMetrics
	writeWait time.Duration
	subs      map[string]chanMask

	mu      sync.Mutex
	pending map[frameKey]*frame
	order   []frameKey          // keys with a pending frame, in the order they first changed
	vers    map[frameKey]uint64 // version of the newest frame offered per key
	errs    []*frame
	ready   chan struct{}
	done    chan struct{}
	closed  bool

	tokens float64 // request rate limit (reader goroutine only)
	last   time.Time
}

func newWSConn(ws *websocket.Conn, m *wsMetrics, writeWait time.Duration) *wsConn {
	return &wsConn{
		ws: ws, metrics: m, writeWait: writeWait, subs: map[string]chanMask{},
		pending: map[frameKey]*frame{}, vers: map[frameKey]uint64{},
		ready: make(chan struct{}, 1), done: make(chan struct{}),
		tokens: wsReqBurst, last: time.Now(),
	}
}

func (c *wsConn) signal() {
	select {
	case c.ready <- struct{}{}:
	default:
	}
}

// offer makes f the pending frame of k unless a newer state was offered already.
func (c *wsConn) offer(k frameKey, f *frame) {
	c.mu.Lock()
	if c.closed || f.ver < c.vers[k] {
		c.mu.Unlock()
		return
	}
	c.vers[k] = f.ver
	if _, waiting := c.pending[k]; waiting {
		c.metrics.replaced.Inc()
	} else {
		c.order = append(c.order, k)
	}
	c.pending[k] = f
	c.mu.Unlock()
	c.signal()
}

// fail queues an error frame (at most wsMaxErrors wait; a client that ignores them loses some).
func (c *wsConn) fail(key wire.MessageKey, symbol string) {
	c.mu.Lock()
	if c.closed || len(c.errs) >= wsMaxErrors {
		c.mu.Unlock()
		return
	}
	c.errs = append(c.errs, errorFrame(key, symbol))
	c.mu.Unlock()
	c.signal()
}

// forget drops the pending frames and versions of the channels of symbol.
func (c *wsConn) forget(symbol string, mask chanMask) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for bit := range wsChannels {
		if mask&(1<<bit) == 0 {
			continue
		}
		k := frameKey{symbol, bit}
		delete(c.vers, k)
		if _, ok := c.pending[k]; ok {
			delete(c.pending, k)
			c.order = slices.DeleteFunc(c.order, func(o frameKey) bool { return o == k })
		}
	}
}

// take returns what is pending, errors first, and clears it.
func (c *wsConn) take(buf []*websocket.PreparedMessage) []*websocket.PreparedMessage {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, f := range c.errs {
		buf = append(buf, f.msg)
	}
	c.errs = c.errs[:0]
	for _, k := range c.order {
		buf = append(buf, c.pending[k].msg)
		delete(c.pending, k)
	}
	c.order = c.order[:0]
	return buf
}

func (c *wsConn) close() {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return
	}
	c.closed = true
	c.pending, c.order, c.errs = nil, nil, nil
	close(c.done)
	c.mu.Unlock()
	_ = c.ws.Close()
}

// writeLoop sends pending frames and pings. A write that does not finish within writeWait
// ends the connection: the client is gone or not reading at all.
func (c *wsConn) writeLoop() {
	ping := time.NewTicker(wsPingPeriod)
	defer ping.Stop()
	defer c.close()
	var buf []*websocket.PreparedMessage
	for {
		select {
		case <-c.done:
			return
		case <-ping.C:
			if err := c.ws.WriteControl(websocket.PingMessage, nil, time.Now().Add(c.writeWait)); err != nil {
				return
			}
		case <-c.ready:
			buf = c.take(buf[:0])
			for _, m := range buf {
				if err := c.ws.SetWriteDeadline(time.Now().Add(c.writeWait)); err != nil {
					return
				}
				if err := c.ws.WritePreparedMessage(m); err != nil {
					return
				}
			}
			c.metrics.sent.Add(float64(len(buf)))
			clear(buf)
		}
	}
}

// readLoop reads client requests until the socket fails or goes silent for wsPongWait.
func (c *wsConn) readLoop(h *wsHub) {
	c.ws.SetReadLimit(wsMaxMessage)
	alive := func() error { return c.ws.SetReadDeadline(time.Now().Add(wsPongWait)) }
	_ = alive()
	c.ws.SetPongHandler(func(string) error { return alive() })
	for {
		kind, msg, err := c.ws.ReadMessage()
		if err != nil {
			var ce *websocket.CloseError
			if !errors.As(err, &ce) && !errors.Is(err, websocket.ErrReadLimit) {
				h.log.Debug("socket read", "err", err)
			}
			if errors.Is(err, websocket.ErrReadLimit) {
				_ = c.ws.WriteControl(websocket.CloseMessage,
					websocket.FormatCloseMessage(websocket.CloseMessageTooBig, ""), time.Now().Add(time.Second))
			}
			return
		}
		_ = alive()
		if !c.allow() {
			c.fail(wire.MessageKeyRateLimited, "")
			continue
		}
		if kind != websocket.TextMessage {
			c.fail(wire.MessageKeyInvalidRequest, "")
			continue
		}
		h.request(c, msg)
	}
}

// allow takes a request token: wsReqBurst at once, refilled at wsReqPerSec.
func (c *wsConn) allow() bool {
	now := time.Now()
	c.tokens = min(wsReqBurst, c.tokens+now.Sub(c.last).Seconds()*wsReqPerSec)
	c.last = now
	if c.tokens < 1 {
		return false
	}
	c.tokens--
	return true
}
