package crashtest

import (
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lotbook/lotbook/events/postgres/pgtest"
)

// TestKill9UnderLoad kills the server with SIGKILL in the middle of the load, on SQLite and on
// PostgreSQL, restarts it and sends every request again with its key.
func TestKill9UnderLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and kills the server: not in -short")
	}
	bin := binary(t)
	t.Run("sqlite", func(t *testing.T) { kill9(t, bin, "") })
	t.Run("postgres", func(t *testing.T) { kill9(t, bin, pgtest.NewDatabase(t)) })
}

// kill9 sends commands from 16 clients, SIGKILLs the server once a random number of them have
// been acknowledged, restarts it and sends every request again with its key.
func kill9(t *testing.T, bin, dbURL string) {
	f, srv := prepare(t, bin, dbURL, "")
	l := f.startLoad(srv.base, 16)
	l.waitAcked(t, 100+rand.Int64N(400))
	srv.kill()
	as := l.stop()
	f.checkOnce("after kill -9", acknowledged(as))

	srv = start(t, bin, f.dir, dbURL)
	f.recover(srv.base, as)
	srv.stop()
	f.verify()
}

// proxy forwards TCP connections to PostgreSQL, and fails as a network does: a reset closes
// every open connection and each new one at once (the database is gone, and says so); a black
// hole keeps every connection open but moves no byte either way, the end of a connection
// included (packets silently dropped: the database is gone without a word). Each holds until the
// network is up again; after a black hole, what was held goes through, as retransmitted packets
// would.
type proxy struct {
	l      net.Listener
	target string

	mu    sync.Mutex
	state netState
	moved *sync.Cond // broadcast on every change of state
	conns map[net.Conn]struct{}
}

type netState int

const (
	netUp netState = iota
	netReset
	netBlackHole
)

func newProxy(t *testing.T, target string) *proxy {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &proxy{l: l, target: target, conns: map[net.Conn]struct{}{}}
	p.moved = sync.NewCond(&p.mu)
	var wg sync.WaitGroup
	wg.Go(p.accept)
	t.Cleanup(func() {
		l.Close()
		p.set(netReset)
		wg.Wait()
	})
	return p
}

func (p *proxy) accept() {
	for {
		c, err := p.l.Accept()
		if err != nil {
			return
		}
		up, err := net.Dial("tcp", p.target)
		if err != nil {
			c.Close()
			continue
		}
		p.mu.Lock()
		if p.state == netReset {
			p.mu.Unlock()
			c.Close()
			up.Close()
			continue
		}
		p.conns[c], p.conns[up] = struct{}{}, struct{}{}
		p.mu.Unlock()
		go p.pipe(c, up)
		go p.pipe(up, c)
	}
}

// pipe copies one direction; when either side ends, both connections close.
func (p *proxy) pipe(dst, src net.Conn) {
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if !p.pass() {
			break
		}
		if n > 0 {
			if _, werr := dst.Write(buf[:n]); werr != nil {
				break
			}
		}
		if err != nil {
			break
		}
	}
	p.mu.Lock()
	delete(p.conns, dst)
	delete(p.conns, src)
	p.mu.Unlock()
	dst.Close()
	src.Close()
}

// pass waits while the network is a black hole; it reports whether what was read may go on.
func (p *proxy) pass() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	for p.state == netBlackHole {
		p.moved.Wait()
	}
	return p.state == netUp
}

func (p *proxy) set(st netState) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.state = st
	if st == netReset {
		for c := range p.conns {
			c.Close()
		}
		clear(p.conns)
	}
	p.moved.Broadcast()
}

const (
	beforeCut int32 = iota
	duringCut
	afterCut
)

// TestDatabaseCutAndRestored runs the load through `lotbook serve` on PostgreSQL behind a TCP
// proxy, cuts the connection (reset), restores it, and checks that commands during the cut were
// answered 503 (no 500, no success), that the server recovers by itself, that every
// acknowledged command is stored once, that the read models catch up, and that verify passes.
func TestDatabaseCutAndRestored(t *testing.T) { databaseFault(t, netReset) }

// TestDatabaseBlackHole is TestDatabaseCutAndRestored with a cut that resets nothing: the
// database stops answering and the connections stay open. The request deadline
// (--request-timeout) must then answer every request 503 within it, where without it a command
// waited for the store's 30 s write timeout and a read for TCP's retransmissions.
func TestDatabaseBlackHole(t *testing.T) { databaseFault(t, netBlackHole) }

// blackHoleTimeout is the server's request deadline in TestDatabaseBlackHole; answerMargin is
// what a loaded machine may add to it between the deadline and the client's reading the answer.
const (
	blackHoleTimeout = 3 * time.Second
	answerMargin     = 3 * time.Second
)

func databaseFault(t *testing.T, fault netState) {
	if testing.Short() {
		t.Skip("runs the server binary under load: not in -short")
	}
	bin := binary(t)
	dbURL := pgtest.NewDatabase(t)
	u, err := url.Parse(dbURL)
	if err != nil {
		t.Fatal(err)
	}
	px := newProxy(t, u.Host)
	u.Host = px.l.Addr().String()
	// How long the cut lasts at least: over two request deadlines in a black hole, so that
	// requests meet it at every step (session, read, append) and connections made during it.
	minCut, within := 2*time.Second, time.Duration(0)
	var flags []string
	if fault == netBlackHole {
		flags = []string{"--request-timeout", blackHoleTimeout.String()}
		minCut, within = 3*blackHoleTimeout, blackHoleTimeout+answerMargin
	}
	f, srv := prepare(t, bin, dbURL, u.String(), flags...)

	l := f.startLoad(srv.base, 16)
	l.waitAcked(t, 100)
	// The phase brackets the cut from inside: an answer stamped duringCut at both ends was
	// wholly within it.
	px.set(fault)
	l.phase.Store(duringCut)
	cutAt := time.Now()
	// Keep the database away for minCut at least and until the clients have seen it gone
	// (an answer sent and received wholly during the cut) many times over.
	during := func() (n int) {
		l.mu.Lock()
		defer l.mu.Unlock()
		for _, a := range l.answers {
			if a.phase == duringCut {
				n++
			}
		}
		return n
	}
	if !poll(60*time.Second, func() bool { return during() >= 50 && time.Since(cutAt) >= minCut }) {
		t.Fatalf("only %d commands answered during the cut in 60 s; log:\n%s", during(), tail(f.dir))
	}
	// Reads during the cut fail as clearly as commands.
	for _, path := range []string{"/api/vue/user/info", "/api/vue/funds/records"} {
		sent := time.Now()
		st, msg, _, err := get(f.hc, srv.base, f.members[0].s, path)
		if err != nil || st != http.StatusServiceUnavailable {
			t.Errorf("GET %s during the cut: HTTP %d %s %v, want 503", path, st, msg, err)
		}
		if took := time.Since(sent); within > 0 && took > within {
			t.Errorf("GET %s during the cut answered in %s, want at most %s", path, took, within)
		}
	}
	l.phase.Store(afterCut)
	px.set(netUp)
	l.waitAcked(t, 100)
	as := l.stop()

	byAnswer := map[string]int{}
	var slowest time.Duration
	for _, a := range as {
		if a.phase != duringCut {
			continue
		}
		byAnswer[http.StatusText(a.status)+" "+a.msg]++
		slowest = max(slowest, a.took)
		if a.status != http.StatusServiceUnavailable {
			t.Errorf("%s %s sent and answered during the cut: HTTP %d %s, want 503", a.typ, a.key, a.status, a.msg)
		}
		if within > 0 && a.took > within {
			t.Errorf("%s %s during the cut answered in %s, want at most %s", a.typ, a.key, a.took, within)
		}
	}
	t.Logf("answers during the cut: %v, the slowest in %s", byAnswer, slowest)
	if t.Failed() {
		t.Logf("the server's failed requests:\n%s", grepLog(f.dir, "request failed", 10))
	}

	f.recover(srv.base, as)
	// The read models and process managers catch up with the log without a restart.
	lagging := func() []string {
		lines, err := srv.metricLines("lotbook_projection_lag_events{", "lotbook_process_lag_events{")
		if err != nil || len(lines) == 0 {
			return []string{fmt.Sprintf("no lag metrics (%v)", err)}
		}
		var behind []string
		for _, line := range lines {
			if !strings.HasSuffix(line, " 0") {
				behind = append(behind, line)
			}
		}
		return behind
	}
	if !poll(30*time.Second, func() bool { return len(lagging()) == 0 }) {
		t.Errorf("read models or processes still behind the log 30 s after the cut: %v", lagging())
	}
	// What the cut did to the read side (for the log: whether they met it depends on timing).
	if lines, err := srv.metricLines("lotbook_projection_failures_total{", "lotbook_process_failures_total{"); err == nil {
		var failed []string
		for _, line := range lines {
			if !strings.HasSuffix(line, " 0") {
				failed = append(failed, line)
			}
		}
		t.Logf("pages failed and retried during the cut: %v", failed)
	}
	srv.stop()
	if panics := grepLog(f.dir, "panic", 5); panics != "" {
		t.Errorf("the server panicked:\n%s", panics)
	}
	f.verify()
}
