package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math/bits"
	"net"
	"net/http"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/gorilla/websocket"
	"github.com/lotbook/lotbook/api/httpx"
	"github.com/prometheus/client_golang/prometheus"
	"golang.org/x/time/rate"

	marketapi "github.com/lotbook/lotbook/api/market"
	"github.com/lotbook/lotbook/api/wire"
	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/market"
	"github.com/lotbook/lotbook/projections"
)

// The market socket, GET /api/vue/ws. One hub goroutine owns every subscription: it takes the
// market's changes (one market subscription watching the union of the connections' symbols),
// renders each (symbol, channel) frame once, keeps it as that pair's latest state and offers it
// to the connections that want it; it also applies (un)subscriptions, so a snapshot (the latest
// state it published) is always ordered before the changes that follow it. A connection holds
// at most one pending frame per (symbol, channel), the newest, so a client that reads slowly
// skips states instead of growing a queue; what is pending goes out whenever the socket can take
// it, all of it in one write (wsFanout): frames are complete WebSocket messages encoded once and
// shared by every connection, written straight to the socket (gorilla/websocket writes one
// system call per message, which was half the server's CPU at 10,000 clients). Every write to a
// socket goes that way, pings, pongs and close messages too, so that a frame the workers wrote
// in part is never interleaved with another (only gorilla's own close answer to a client's
// protocol error is written apart, and the socket ends with it).
//
// A client may also bind its socket to its session ({"op":"auth"}); the hub then keeps it among
// the member's (or the ops users') sockets, to which capabilities push frames through
// httpx.Sockets, in order and bounded per connection, and hands the session's other requests to
// the capability whose op they are (httpx.SocketReceiver). The binding ends with the session.

// Socket limits.
const (
	wsMaxSymbols = 200              // distinct symbols per connection
	wsMaxMessage = 16 << 10         // bytes per client message (200 symbols fit easily)
	wsWriteWait  = 10 * time.Second // a frame the client does not take in this time drops it
	wsPongWait   = 60 * time.Second // silence (no pong, no message) that drops a client
	wsPingPeriod = 30 * time.Second
	wsMaxErrors  = 8   // pending error frames per connection; more are dropped
	wsMaxPushed  = 256 // pending pushed frames (httpx.Sockets) per connection; more are dropped
	wsReqBurst   = 20  // client requests: burst, then wsReqPerSec
	wsReqPerSec  = 5
	// wsSendBuffer caps the kernel's send buffer of a socket (autotuning would grow it to
	// megabytes): a client that falls behind then waits on at most this much of stale frames
	// before the latest states, and the server holds no more for it.
	wsSendBuffer = 64 << 10
	wsReadBuffer = 512 // bytes of a connection's read buffer
)

// Channels are bits of a mask: quote (with best five), then candles of each interval.
var wsChannels = [...]string{"quote", "candles:1m", "candles:3m", "candles:15m", "candles:30m", "candles:1d", "candles:1M", "candles:1y",
	"candles:5m", "candles:60m", "candles:1w"}

const (
	chQuote   = 0
	chAllMask = 1<<len(wsChannels) - 1
)

type chanMask uint16

func parseChannels(names []string) (chanMask, bool) {
	var m chanMask
	for _, n := range names {
		i := slices.Index(wsChannels[:], n)
		if i < 0 {
			return 0, false
		}
		m |= 1 << i
	}
	return m, true
}

// interval of a candle channel bit ("1m" for candles:1m).
func interval(bit int) string { return strings.TrimPrefix(wsChannels[bit], "candles:") }

// wsSub is one connection's subscription to one symbol, shared by the connection (subs) and
// the symbol's entry (subs), so that offering a frame to a subscriber touches no map: at 10,000
// connections the hub's map lookups per (connection, frame) were a third of the server's CPU.
type wsSub struct {
	conn *wsConn
	mask chanMask // channels wanted; hub goroutine only
	idx  int      // position in its symEntry's subs; hub goroutine only

	// Guarded by conn.mu: where each channel's pending frame is in conn.held, when the entry
	// there names this subscription and channel. Taking the frames leaves these stale rather
	// than clearing them: clearing them, a cache miss per frame, was a tenth of the server's
	// CPU at 10,000 connections. At most wsMaxSymbols × channels frames are held at once:
	// their positions fit 16 bits.
	at [len(wsChannels)]uint16
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

// symEntry is one watched symbol: who wants which channel, and the latest frame of each wanted
// channel. A channel's first frame is rendered off the hub goroutine (an index's first candles
// take the market seconds); until then it is rendering, then ready and kept current.
type symEntry struct {
	subs             []*wsSub
	counts           [len(wsChannels)]int32
	latest           [len(wsChannels)][]byte
	ready, rendering chanMask
	changes          uint64 // quotes taken for the symbol: tells whether a first render is stale
}

// wsHub serves the market socket.
type wsHub struct {
	mkt      *market.Service
	log      *slog.Logger
	metrics  *wsMetrics
	upgrader websocket.Upgrader
	indices  map[string]bool
	// writeWait is how long one frame may take to go out (wsWriteWait; tests change it).
	writeWait atomic.Int64
	reqs      chan func()
	stopped   chan struct{} // closed when run returns
	fan       *wsFanout

	// auth finds the session of a token and account, as the HTTP routes do; now is the clock
	// sessions expire on.
	auth func(ctx context.Context, token, account string) (projections.Session, error)
	now  func() time.Time
	// receivers are the modules that take client messages of their own ops.
	receivers []httpx.SocketReceiver
	// out is where the modules' socket ops answer: the hub itself, or the relay that also
	// carries their frames to the other API instances.
	out httpx.Sockets

	// Owned by the hub goroutine.
	sub     *market.Subscription
	wake    []*wsConn // broadcast's list of sockets to write, kept between broadcasts
	syms    map[string]*symEntry
	conns   map[*wsConn]struct{}
	members map[string]map[*wsConn]struct{} // authenticated sockets by member id
	ops     map[*wsConn]struct{}            // authenticated sockets of ops users
}

func newWSHub(mkt *market.Service, log *slog.Logger, reg prometheus.Registerer) *wsHub {
	m := newWSMetrics(reg)
	h := &wsHub{
		mkt:     mkt,
		log:     log,
		metrics: m,
		fan:     newWSFanout(m),
		indices: map[string]bool{},
		reqs:    make(chan func(), 256),
		stopped: make(chan struct{}),
		sub:     mkt.Subscribe(wsNoSymbol),
		syms:    map[string]*symEntry{},
		conns:   map[*wsConn]struct{}{},
		members: map[string]map[*wsConn]struct{}{},
		ops:     map[*wsConn]struct{}{},
		now:     time.Now,
	}
	h.out = h
	h.writeWait.Store(int64(wsWriteWait))
	for _, q := range mkt.Indices() {
		h.indices[q.Symbol] = true
	}
	h.upgrader = websocket.Upgrader{
		// Small buffers (issue 15: 30 KB per connection at most): client messages are a few
		// hundred bytes and may take several reads; frames are written straight to the socket
		// and control frames from their own buffer, so no write buffer is held at all (the pool
		// is only what gorilla requires to hold none).
		HandshakeTimeout: 10 * time.Second,
		ReadBufferSize:   wsReadBuffer,
		WriteBufferPool:  &sync.Pool{},
		// CheckOrigin nil: gorilla's same-origin check (an Origin header must name this host;
		// clients that send none, which are not browsers, are let in).
	}
	return h
}

// wsNoSymbol starts the market subscription empty: subscribing with no symbol would watch all.
const wsNoSymbol = "\x00"

// run fans out market changes and applies requests until ctx ends, then closes every socket.
func (h *wsHub) run(ctx context.Context) {
	defer close(h.stopped)
	h.fan.start(runtime.GOMAXPROCS(0))
	defer h.fan.stop()
	defer h.closeAll()
	for {
		select {
		case <-ctx.Done():
			return
		case <-h.sub.Ready():
			h.broadcast()
		case fn := <-h.reqs:
			fn()
		}
	}
}

// do runs fn on the hub goroutine; false when the hub has stopped.
func (h *wsHub) do(fn func()) bool {
	select {
	case h.reqs <- fn:
		return true
	case <-h.stopped:
		return false
	}
}

// broadcast takes the changed quotes, renders each wanted channel once and offers it. Sockets
// are queued for writing once the whole batch is pending, so each gets its share in one write.
func (h *wsHub) broadcast() {
	quotes := h.sub.Take()
	wake := h.wake[:0]
	for _, q := range quotes {
		e := h.syms[q.Symbol]
		if e == nil {
			continue
		}
		e.changes++
		var fresh chanMask
		for bit := range wsChannels {
			if e.ready&(1<<bit) == 0 {
				continue
			}
			pm, err := h.render(q, bit)
			if err != nil {
				h.log.Warn("socket frame", "symbol", q.Symbol, "channel", wsChannels[bit], "err", err)
				continue
			}
			e.latest[bit] = pm
			fresh |= 1 << bit
		}
		for _, s := range e.subs {
			for want := s.mask & fresh; want != 0; want &= want - 1 {
				bit := bits.TrailingZeros16(uint16(want))
				if s.conn.hold(s, bit, e.latest[bit]) {
					wake = append(wake, s.conn)
				}
			}
		}
	}
	h.fan.add(wake...)
	clear(wake)
	h.wake = wake
}

// render builds the frame of one channel of q: the quote itself, or the symbol's latest candle.
// Its ts is when q fell due (market.Service.Due), so that delivery delay counts from there.
func (h *wsHub) render(q market.Quote, bit int) ([]byte, error) {
	var v any
	if bit == chQuote {
		v = wire.WsQuoteFrame{Type: "quote", Data: marketapi.Quote(q), Ts: h.mkt.Due(q).UTC()}
	} else {
		iv := interval(bit)
		cs, err := h.mkt.Candles(q.Symbol, iv, time.Time{}, 1)
		if err != nil {
			return nil, err
		}
		if len(cs) == 0 {
			return nil, fmt.Errorf("no %s candle", iv)
		}
		v = wire.WsCandleFrame{Type: "candle", Symbol: q.Symbol, Interval: wire.CandleInterval(iv), Data: marketapi.Candle(cs[len(cs)-1]), Ts: h.mkt.Due(q).UTC()}
	}
	return prepare(v)
}

// prepare renders v as a complete WebSocket text message from the server.
func prepare(v any) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("encode frame: %w", err)
	}
	return textFrame(b), nil
}

// First bytes of the frames the server writes: FIN and the opcode.
const (
	wsText  = 0x81
	wsClose = 0x88
	wsPing  = 0x89
	wsPong  = 0x8a
)

// textFrame is one unfragmented text frame.
func textFrame(payload []byte) []byte { return encodeFrame(wsText, payload) }

// encodeFrame is one unfragmented, unmasked frame (RFC 6455 section 5.2): FIN and the opcode
// (first), then the payload length in 7 bits, or 126 and 16 bits, or 127 and 64 bits, big-endian.
func encodeFrame(first byte, payload []byte) []byte {
	n := len(payload)
	var f []byte
	switch {
	case n < 126:
		f = append(make([]byte, 0, 2+n), first, byte(n))
	case n < 1<<16:
		f = append(make([]byte, 0, 4+n), first, 126, byte(n>>8), byte(n))
	default:
		f = append(make([]byte, 0, 10+n), first, 127)
		for shift := 56; shift >= 0; shift -= 8 {
			f = append(f, byte(uint64(n)>>shift))
		}
	}
	return append(f, payload...)
}

func errorFrame(key wire.MessageKey, symbol string) []byte {
	v := wire.WsErrorFrame{Type: "error", Msg: key}
	if symbol != "" {
		v.Symbol = &symbol
	}
	f, err := prepare(v)
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
	c := newWSConn(ws, h.metrics, time.Duration(h.writeWait.Load()), h.fan)
	if tc, ok := ws.NetConn().(*net.TCPConn); ok {
		if err := tc.SetWriteBuffer(wsSendBuffer); err != nil {
			h.log.Debug("socket send buffer", "err", err)
		}
		if c.raw, err = tc.SyscallConn(); err != nil {
			h.log.Debug("socket raw conn", "err", err) // its writes then all wait (wsConn.wait)
		}
	}
	if !h.do(func() { h.conns[c] = struct{}{} }) {
		c.close()
		return
	}
	h.metrics.conns.Inc()
	c.startPings()
	// The socket outlives the request: net/http holds the request's buffers (some 10 KB) and the
	// handler's deep stack for as long as the handler runs, so the reader runs on its own
	// goroutine and the handler returns. Nothing cancels a hijacked request's context; the
	// reader ends with the socket.
	ctx, path := context.WithoutCancel(r.Context()), r.URL.Path
	go func() {
		defer func() {
			h.do(func() { h.drop(c) })
			c.leave()
			h.metrics.conns.Dec()
		}()
		defer func() {
			// What the recovering middleware did while the reader ran inside the handler: a
			// request that panics ends its socket, not the server.
			if v := recover(); v != nil {
				h.log.ErrorContext(ctx, "panic", "path", path, "panic", fmt.Sprint(v), "stack", string(debug.Stack()))
			}
		}()
		c.readLoop(ctx, h)
	}()
}

// request checks one client message and hands it to the hub goroutine.
func (h *wsHub) request(ctx context.Context, c *wsConn, msg []byte) {
	var req wire.WsRequest
	if err := decodeStrict(msg, contract.shape("WsRequest"), &req); err != nil || !req.Op.Valid() {
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
	case wire.WsOpAuth:
		h.authenticate(ctx, c, req)
		return
	case wire.Subscribe:
		if len(symbols) == 0 {
			c.fail(wire.MessageKeyInvalidRequest, "")
			return
		}
		if mask == 0 {
			mask = 1 << chQuote
		}
		known := symbols[:0]
		for _, s := range symbols {
			if h.known(s) {
				known = append(known, s)
			} else {
				c.fail(wire.MessageKeyNotFound, s)
			}
		}
		h.do(func() { h.subscribe(c, known, mask) })
	case wire.Unsubscribe:
		if mask == 0 {
			mask = chAllMask
		}
		h.do(func() { h.unsubscribe(c, symbols, mask) })
	default:
		h.receive(ctx, c, req)
	}
}

// authenticate binds the socket to the session of the request's token and account (another
// session replaces an earlier one); a refused session unbinds it.
func (h *wsHub) authenticate(ctx context.Context, c *wsConn, req wire.WsRequest) {
	sess, err := h.auth(ctx, httpx.Deref(req.Token), httpx.Deref(req.Account))
	if err != nil {
		h.do(func() { h.unbind(c) })
		c.fail(wire.MessageKeyUnauthorized, "")
		return
	}
	s := &wsSession{
		SocketSession: httpx.SocketSession{MemberID: sess.MemberID, Account: sess.Account, Role: sess.Role},
		tokenHash:     tokenHash(httpx.Deref(req.Token)), expires: sess.ExpiresAt,
	}
	// Applied before the socket's next request is read: what the client sends after auth is
	// served as the session's.
	bound := make(chan struct{})
	if !h.do(func() {
		defer close(bound)
		if _, open := h.conns[c]; !open {
			return
		}
		h.unbind(c)
		c.sess.Store(s)
		if s.Role == events.RoleOps {
			h.ops[c] = struct{}{}
			return
		}
		if h.members[s.MemberID] == nil {
			h.members[s.MemberID] = map[*wsConn]struct{}{}
		}
		h.members[s.MemberID][c] = struct{}{}
	}) {
		return
	}
	select {
	case <-bound:
	case <-h.stopped:
	}
}

// unbind forgets the socket's session. Hub goroutine only.
func (h *wsHub) unbind(c *wsConn) {
	s := c.sess.Swap(nil)
	if s == nil {
		return
	}
	delete(h.ops, c)
	if m := h.members[s.MemberID]; m != nil {
		delete(m, c)
		if len(m) == 0 {
			delete(h.members, s.MemberID)
		}
	}
}

// wsSession is the session a socket is bound to: whom it belongs to, and what ends it (its token
// closed, its member's password changed or account disabled, its expiry).
type wsSession struct {
	httpx.SocketSession
	tokenHash string
	expires   time.Time
}

// live says whether the session has not expired.
func (h *wsHub) live(s *wsSession) bool { return s != nil && h.now().Before(s.expires) }

// receive hands a message of an authenticated socket to the module whose op it is.
func (h *wsHub) receive(ctx context.Context, c *wsConn, req wire.WsRequest) {
	s := c.sess.Load()
	if !h.live(s) {
		c.fail(wire.MessageKeyUnauthorized, "")
		return
	}
	for _, r := range h.receivers {
		if handled, refusal := r.SocketOp(ctx, req, s.SocketSession, h.out); handled {
			if refusal != "" {
				c.fail(refusal, "")
			}
			return
		}
	}
	c.fail(wire.MessageKeyInvalidRequest, "")
}

// ToMember sends frame to the member's sockets (httpx.Sockets).
func (h *wsHub) ToMember(memberID string, frame any) {
	h.pushTo(frame, func() map[*wsConn]struct{} { return h.members[memberID] })
}

// ToOps sends frame to every ops user's socket (httpx.Sockets).
func (h *wsHub) ToOps(frame any) {
	h.pushTo(frame, func() map[*wsConn]struct{} { return h.ops })
}

// pushTo encodes frame once and queues it on the sockets to returns (on the hub goroutine).
func (h *wsHub) pushTo(frame any, to func() map[*wsConn]struct{}) {
	f, err := prepare(frame)
	if err != nil {
		h.log.Error("socket push", "err", err)
		return
	}
	h.do(func() {
		for c := range to() {
			if !h.live(c.sess.Load()) {
				h.unbind(c) // expired: its user logs in again
				continue
			}
			c.push(f)
		}
	})
}

// followSessions unbinds the sockets whose session ends while they are open: logout (its token
// closed), a password change (every session of the member) or a disabled account. The socket
// stays open for market data; it hears an unauthorized error frame and no more pushes.
func (h *wsHub) followSessions(ctx context.Context, store events.Store) error {
	prefix := events.MemberStream("")
	return httpx.FollowLog(ctx, store, h.log, "socket sessions", func(ctx context.Context, r events.RecordedEvent) {
		memberID, ok := strings.CutPrefix(r.Stream, prefix)
		if !ok {
			return
		}
		var ends func(*wsSession) bool
		switch name, _, _ := strings.Cut(r.Type, ".v"); name {
		case events.SessionClosed{}.EventName(), events.LoginPasswordChanged{}.EventName(), events.AccountFlagChanged{}.EventName():
		default:
			return
		}
		p, err := events.DecodeRecorded(r)
		if err != nil {
			h.log.ErrorContext(ctx, "socket sessions: decode", "position", r.Position, "err", err)
			return
		}
		switch e := p.(type) {
		case events.SessionClosed:
			ends = func(s *wsSession) bool { return s.tokenHash == e.TokenHash }
		case events.LoginPasswordChanged:
			ends = func(*wsSession) bool { return true }
		case events.AccountFlagChanged:
			if e.Flag != events.FlagDisabled || !e.On {
				return
			}
			ends = func(*wsSession) bool { return true }
		default:
			return
		}
		h.do(func() {
			for c := range h.conns {
				if s := c.sess.Load(); s != nil && s.MemberID == memberID && ends(s) {
					h.unbind(c)
					c.fail(wire.MessageKeyUnauthorized, "")
				}
			}
		})
	})
}

func (h *wsHub) known(sym string) bool {
	if h.indices[sym] {
		return true
	}
	_, err := h.mkt.Instrument(sym)
	return err == nil
}

// subscribe adds (symbols, channels) and offers their latest state at once. A request that
// would pass wsMaxSymbols is refused whole. Hub goroutine only.
func (h *wsHub) subscribe(c *wsConn, symbols []string, mask chanMask) {
	if _, open := h.conns[c]; !open || len(symbols) == 0 {
		return
	}
	added := 0
	for _, s := range symbols {
		if _, has := c.subs[s]; !has {
			added++
		}
	}
	if len(c.subs)+added > wsMaxSymbols {
		c.fail(wire.MessageKeyInvalidRequest, "")
		return
	}
	var watch []string
	for _, s := range symbols {
		e := h.syms[s]
		if e == nil {
			e = &symEntry{}
			h.syms[s] = e
			watch = append(watch, s)
		}
		sub := c.subs[s]
		if sub == nil {
			sub = &wsSub{conn: c, idx: len(e.subs)}
			e.subs = append(e.subs, sub)
			c.subs[s] = sub
		}
		for bit := range wsChannels {
			if mask&^sub.mask&(1<<bit) != 0 {
				e.counts[bit]++
			}
		}
		sub.mask |= mask
	}
	if len(watch) > 0 {
		h.sub.Watch(watch...)
	}
	var jobs []renderJob
	for _, s := range symbols {
		e := h.syms[s]
		for bit := range wsChannels {
			if mask&e.ready&(1<<bit) != 0 {
				c.offer(c.subs[s], bit, e.latest[bit])
			}
		}
		if need := mask &^ e.ready &^ e.rendering; need != 0 {
			e.rendering |= need
			jobs = append(jobs, renderJob{symbol: s, entry: e, bits: need, changes: e.changes})
		}
	}
	if len(jobs) > 0 {
		go h.renderFirst(jobs)
	}
}

// renderJob is the first render of some channels of a symbol.
type renderJob struct {
	symbol  string
	entry   *symEntry
	bits    chanMask
	changes uint64
}

// renderFirst renders first frames off the hub goroutine and hands each symbol's back to it.
func (h *wsHub) renderFirst(jobs []renderJob) {
	for _, j := range jobs {
		var frames [len(wsChannels)][]byte
		if q, err := h.mkt.Quote(j.symbol); err == nil {
			for bit := range wsChannels {
				if j.bits&(1<<bit) != 0 {
					if frames[bit], err = h.render(q, bit); err != nil {
						h.log.Warn("socket snapshot", "symbol", j.symbol, "channel", wsChannels[bit], "err", err)
					}
				}
			}
		}
		if !h.do(func() { h.rendered(j, frames) }) {
			return
		}
	}
}

// rendered makes first frames the latest state and offers them to every subscriber of their
// channel. A frame the market moved past while it rendered is rendered again here, which is
// quick now that the market has the symbol's history at hand. Hub goroutine only.
func (h *wsHub) rendered(j renderJob, frames [len(wsChannels)][]byte) {
	e := j.entry
	if h.syms[j.symbol] != e {
		return // nobody watched the symbol since (a newer entry renders its own)
	}
	e.rendering &^= j.bits
	var q *market.Quote
	for bit := range wsChannels {
		if j.bits&(1<<bit) == 0 || e.counts[bit] == 0 {
			continue
		}
		f := frames[bit]
		if e.changes != j.changes || f == nil {
			if q == nil {
				mq, err := h.mkt.Quote(j.symbol)
				if err != nil {
					return
				}
				q = &mq
			}
			var err error
			if f, err = h.render(*q, bit); err != nil {
				h.log.Warn("socket snapshot", "symbol", j.symbol, "channel", wsChannels[bit], "err", err)
				continue // not ready: the next subscription tries again
			}
		}
		e.latest[bit] = f
		e.ready |= 1 << bit
		for _, s := range e.subs {
			if s.mask&(1<<bit) != 0 {
				s.conn.offer(s, bit, f)
			}
		}
	}
}

// unsubscribe removes channels of symbols (every symbol when none is named); pending frames of
// what was removed are dropped. Hub goroutine only.
func (h *wsHub) unsubscribe(c *wsConn, symbols []string, mask chanMask) {
	if len(symbols) == 0 {
		symbols = make([]string, 0, len(c.subs))
		for s := range c.subs {
			symbols = append(symbols, s)
		}
	}
	var unwatch []string
	for _, s := range symbols {
		sub := c.subs[s]
		if sub == nil {
			continue
		}
		e := h.syms[s]
		gone := sub.mask & mask
		for bit := range wsChannels {
			if gone&(1<<bit) != 0 {
				if e.counts[bit]--; e.counts[bit] == 0 {
					e.latest[bit], e.ready = nil, e.ready&^(1<<bit) // nobody keeps it current any more
				}
			}
		}
		c.forget(sub, gone)
		if sub.mask &^= mask; sub.mask != 0 {
			continue
		}
		delete(c.subs, s)
		last := e.subs[len(e.subs)-1]
		e.subs[sub.idx], last.idx = last, sub.idx
		e.subs[len(e.subs)-1] = nil
		e.subs = e.subs[:len(e.subs)-1]
		if len(e.subs) == 0 {
			delete(h.syms, s)
			unwatch = append(unwatch, s)
		}
	}
	if len(unwatch) > 0 {
		h.sub.Unwatch(unwatch...)
	}
}

// drop forgets a connection that ended. Hub goroutine only.
func (h *wsHub) drop(c *wsConn) {
	h.unsubscribe(c, nil, chAllMask)
	h.unbind(c)
	delete(h.conns, c)
}

// closeAll ends every connection (the server is stopping: hijacked sockets are not closed by
// http.Server.Shutdown). Hub goroutine only.
func (h *wsHub) closeAll() {
	bye := encodeFrame(wsClose, websocket.FormatCloseMessage(websocket.CloseGoingAway, "server stopping"))
	for c := range h.conns {
		c.end(bye)
	}
	h.sub.Close()
}

// wsConn is one client socket: its subscriptions (owned by the hub goroutine) and what is
// pending for it (guarded by mu).
type wsConn struct {
	ws        *websocket.Conn
	raw       syscall.RawConn // the TCP socket, for the workers' writes; nil: every write waits
	fan       *wsFanout
	metrics   *wsMetrics
	writeWait time.Duration
	subs      map[string]*wsSub // hub goroutine only

	mu sync.Mutex
	// held are the pending market frames, one per (symbol, channel), in the order their keys
	// first changed since the socket was last written.
	held    []heldFrame
	errs    [][]byte
	pushed  [][]byte // frames pushed to the socket's session, in order
	pong    []byte   // the answer to the client's latest ping
	pingDue bool
	bye     []byte // the close message a writer sends last, then closes the socket (end)
	// writing: the socket is queued for the fan-out's workers or a writer goroutine of its own
	// writes it (see claim); it holds no goroutine while nothing is pending.
	writing bool
	closed  bool
	ping    *time.Timer // pings every wsPingPeriod (nil in unit tests, which have no socket)

	requests *rate.Limiter             // client requests: wsReqBurst at once, refilled at wsReqPerSec
	sess     atomic.Pointer[wsSession] // set by an auth request (on the hub goroutine)
}

func newWSConn(ws *websocket.Conn, m *wsMetrics, writeWait time.Duration, fan *wsFanout) *wsConn {
	return &wsConn{
		ws: ws, fan: fan, metrics: m, writeWait: writeWait, subs: map[string]*wsSub{},
		requests: rate.NewLimiter(wsReqPerSec, wsReqBurst),
	}
}

// claim makes the caller the one to queue the socket for writing: true unless it is queued or
// being written already, or closed. Callers hold mu, and have just queued something.
func (c *wsConn) claim() bool {
	if c.writing || c.closed {
		return false
	}
	c.writing = true
	return true
}

// wake queues the socket for the workers, once claim gave the caller that.
func (c *wsConn) wake() { c.fan.add(c) }

// heldFrame is a pending market frame and the subscription channel it is the latest state of.
type heldFrame struct {
	sub   *wsSub
	ch    int
	frame []byte
}

// offer makes f the pending frame of channel bit of s and wakes the writer.
func (c *wsConn) offer(s *wsSub, bit int, f []byte) {
	if c.hold(s, bit, f) {
		c.wake()
	}
}

// hold makes f the pending frame of channel bit of s (a subscription of c), replacing one not
// written yet, without waking the writer; true when the caller must wake it.
func (c *wsConn) hold(s *wsSub, bit int, f []byte) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return false
	}
	if i := int(s.at[bit]); i < len(c.held) && c.held[i].sub == s && c.held[i].ch == bit {
		c.held[i].frame = f
		c.metrics.replaced.Inc()
		return c.claim()
	}
	s.at[bit] = uint16(len(c.held))
	c.held = append(c.held, heldFrame{sub: s, ch: bit, frame: f})
	return c.claim()
}

// queue runs add on what is pending, under mu, and wakes the writer if need be; add reports
// whether it queued anything. Nothing is queued on a closed socket.
func (c *wsConn) queue(add func() bool) {
	c.mu.Lock()
	start := !c.closed && add() && c.claim()
	c.mu.Unlock()
	if start {
		c.wake()
	}
}

// fail queues an error frame (at most wsMaxErrors wait; a client that ignores them loses some).
func (c *wsConn) fail(key wire.MessageKey, symbol string) {
	c.queue(func() bool {
		if len(c.errs) >= wsMaxErrors {
			return false
		}
		c.errs = append(c.errs, errorFrame(key, symbol))
		return true
	})
}

// push queues a frame pushed to the socket's session (at most wsMaxPushed wait; the client
// reads what it lost over HTTP).
func (c *wsConn) push(f []byte) {
	c.queue(func() bool {
		if len(c.pushed) >= wsMaxPushed {
			return false
		}
		c.pushed = append(c.pushed, f)
		return true
	})
}

// forget drops the pending frames of the channels in mask of s (an unsubscription, rare: the
// others' positions are renumbered).
func (c *wsConn) forget(s *wsSub, mask chanMask) {
	c.mu.Lock()
	defer c.mu.Unlock()
	kept := c.held[:0]
	for _, h := range c.held {
		if h.sub == s && mask&(1<<h.ch) != 0 {
			continue
		}
		h.sub.at[h.ch] = uint16(len(kept))
		kept = append(kept, h)
	}
	clear(c.held[len(kept):])
	c.held = kept
}

// pendingFrames counts the market frames waiting for the writer.
func (c *wsConn) pendingFrames() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.held)
}

// take returns what is pending and clears it.
func (c *wsConn) take(buf [][]byte) [][]byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	buf, _ = c.takeLocked(buf)
	return buf
}

// wsPingFrame is the server's ping (no payload).
var wsPingFrame = encodeFrame(wsPing, nil)

// takeLocked appends what is pending to buf and clears it: control frames first, then errors,
// pushed frames and market frames; last says that buf ends with the close message.
func (c *wsConn) takeLocked(buf [][]byte) (_ [][]byte, last bool) {
	if c.pong != nil {
		buf = append(buf, c.pong)
		c.pong = nil
	}
	if c.pingDue {
		buf = append(buf, wsPingFrame)
		c.pingDue = false
	}
	buf = append(buf, c.errs...)
	clear(c.errs)
	c.errs = c.errs[:0]
	buf = append(buf, c.pushed...)
	clear(c.pushed)
	c.pushed = c.pushed[:0]
	for _, h := range c.held {
		buf = append(buf, h.frame)
	}
	clear(c.held) // the writer holds the frames now, not the connection
	c.held = c.held[:0]
	if c.bye != nil {
		buf, last = append(buf, c.bye), true
		c.bye = nil
	}
	return buf, last
}

// shutLocked marks the socket closed and drops what is pending (mu held); false when it was
// closed already.
func (c *wsConn) shutLocked() bool {
	if c.closed {
		return false
	}
	c.closed = true
	c.held, c.errs, c.pushed, c.pong, c.pingDue = nil, nil, nil, nil, false
	if c.ping != nil {
		c.ping.Stop()
	}
	return true
}

// close ends the socket now.
func (c *wsConn) close() {
	c.mu.Lock()
	c.shutLocked()
	c.mu.Unlock()
	_ = c.ws.Close()
}

// end closes the socket after sending bye (a close message): at once when no writer owns the
// socket, else its writer sends it after what it is writing and then closes the socket (within
// writeWait, as any write).
func (c *wsConn) end(bye []byte) {
	c.mu.Lock()
	if !c.shutLocked() {
		c.mu.Unlock()
		return
	}
	owned := c.writing
	if owned {
		c.bye = bye
	}
	c.writing = true // no writer starts from now on
	c.mu.Unlock()
	if owned {
		return
	}
	conn := c.ws.NetConn()
	if conn.SetWriteDeadline(time.Now().Add(time.Second)) == nil {
		_, _ = conn.Write(bye)
	}
	_ = c.ws.Close()
}

// leave ends the socket once its reader is done: now, unless a close message is on its way out
// (end), after which its writer closes it.
func (c *wsConn) leave() {
	c.mu.Lock()
	ending := c.bye != nil
	c.mu.Unlock()
	if !ending {
		c.close()
	}
}

// startPings pings the client every wsPingPeriod until the socket closes (a timer, not a
// goroutine waiting on one), and answers the client's pings: both go out as any frame.
func (c *wsConn) startPings() {
	c.ws.SetPingHandler(func(data string) error {
		pong := encodeFrame(wsPong, []byte(data))
		c.queue(func() bool { c.pong = pong; return true })
		return nil
	})
	c.mu.Lock()
	defer c.mu.Unlock()
	c.ping = time.AfterFunc(wsPingPeriod, func() {
		c.queue(func() bool {
			c.pingDue = true
			c.ping.Reset(wsPingPeriod)
			return true
		})
	})
}

// readLoop reads client requests until the socket fails or goes silent for wsPongWait.
func (c *wsConn) readLoop(ctx context.Context, h *wsHub) {
	c.ws.SetReadLimit(wsMaxMessage)
	alive := func() error { return c.ws.SetReadDeadline(time.Now().Add(wsPongWait)) }
	_ = alive()
	c.ws.SetPongHandler(func(string) error { return alive() })
	c.ws.SetCloseHandler(func(code int, _ string) error {
		c.end(encodeFrame(wsClose, websocket.FormatCloseMessage(code, ""))) // the answer gorilla would write
		return nil
	})
	for {
		kind, msg, err := c.ws.ReadMessage()
		if err != nil {
			if errors.Is(err, websocket.ErrReadLimit) {
				c.end(encodeFrame(wsClose, websocket.FormatCloseMessage(websocket.CloseMessageTooBig, "")))
			}
			return
		}
		_ = alive()
		if !c.requests.Allow() {
			c.fail(wire.MessageKeyRateLimited, "")
			continue
		}
		if kind != websocket.TextMessage {
			c.fail(wire.MessageKeyInvalidRequest, "")
			continue
		}
		h.request(ctx, c, msg)
	}
}
