package api

import (
	"net"
	"slices"
	"sync"
	"time"
)

// wsFanout sends what is pending on the market sockets. A few long-lived workers (one per core)
// take the sockets that have something to send, in the order they were woken, and write each
// one's frames in one writev that never waits for the socket. A socket that cannot take all of
// it (its client reads slowly, or not at all) is handed to a writer goroutine of its own that
// waits for it within the write deadline, so one slow client never delays the others, and the
// hub only appends to a list. Before, each woken socket started a goroutine of its own for
// every slot, and starting and scheduling them was 15–20 % of the server's CPU at 10,000
// clients; each write also set the socket's deadline timer.
type wsFanout struct {
	metrics *wsMetrics

	mu   sync.Mutex
	more sync.Cond
	// ready are the sockets to write from head on; a socket is here at most once (wsConn.claim).
	ready   []*wsConn
	head    int
	stopped bool
	workers sync.WaitGroup
}

// wsFanoutBatch is how many sockets a worker takes at once.
const wsFanoutBatch = 32

func newWSFanout(m *wsMetrics) *wsFanout {
	f := &wsFanout{metrics: m}
	f.more.L = &f.mu
	return f
}

// start runs n workers until stop.
func (f *wsFanout) start(n int) {
	for range n {
		f.workers.Go(f.work)
	}
}

// stop ends the workers once they have written what is queued (the close messages of a
// stopping server among it) and waits for them.
func (f *wsFanout) stop() {
	f.mu.Lock()
	f.stopped = true
	f.mu.Unlock()
	f.more.Broadcast()
	f.workers.Wait()
}

// add queues sockets whose writing their caller claimed.
func (f *wsFanout) add(cs ...*wsConn) {
	if len(cs) == 0 {
		return
	}
	f.mu.Lock()
	f.ready = append(f.ready, cs...)
	f.mu.Unlock()
	if len(cs) == 1 {
		f.more.Signal()
	} else {
		f.more.Broadcast()
	}
}

func (f *wsFanout) work() {
	var w wsWriter
	var batch []*wsConn
	for {
		f.mu.Lock()
		for f.head == len(f.ready) && !f.stopped {
			f.more.Wait()
		}
		if f.head == len(f.ready) {
			f.mu.Unlock()
			return
		}
		end := min(len(f.ready), f.head+wsFanoutBatch)
		batch = append(batch[:0], f.ready[f.head:end]...)
		clear(f.ready[f.head:end])
		if f.head = end; f.head == len(f.ready) {
			f.ready, f.head = f.ready[:0], 0
		}
		f.mu.Unlock()
		for _, c := range batch {
			w.send(c)
		}
		clear(batch)
		if w.sent > 0 {
			f.metrics.sent.Add(float64(w.sent)) // once per batch: the counter is shared by the workers
			w.sent = 0
		}
	}
}

// wsWriter is one worker's buffers, reused for every socket it writes.
type wsWriter struct {
	frames [][]byte
	sent   int // whole frames written since the worker last counted them
	wsSyscalls
}

// send writes what is pending on c as far as its socket takes it at once; the rest goes to a
// writer goroutine of c's own (wait). The caller owns c's writing (claim).
func (w *wsWriter) send(c *wsConn) {
	for {
		c.mu.Lock()
		frames, last := c.takeLocked(w.frames[:0])
		if len(frames) == 0 {
			c.writing = false
			c.mu.Unlock()
			return
		}
		c.mu.Unlock()
		w.frames = frames
		rest, err := w.writeNow(c.raw, frames)
		w.sent += len(frames) - len(rest)
		if err != nil {
			clear(frames)
			c.close() // writing stays set: no writer starts again
			return
		}
		if len(rest) > 0 {
			go c.wait(slices.Clone(rest), last)
			clear(frames)
			return
		}
		clear(frames)
		if last {
			_ = c.ws.Close()
			return
		}
	}
}

// wait writes frames that c's socket could not take at once, then what became pending meanwhile,
// each write within writeWait: a write that does not finish in that time ends the connection
// (the client is gone or not reading at all). Once nothing is pending the workers write c again.
// last says that frames end with the close message, after which the socket closes.
func (c *wsConn) wait(frames [][]byte, last bool) {
	conn := c.ws.NetConn()
	for {
		err := conn.SetWriteDeadline(time.Now().Add(c.writeWait))
		if err == nil {
			bufs := net.Buffers(frames) // WriteTo consumes bufs, never the frames' bytes
			_, err = bufs.WriteTo(conn)
		}
		n := len(frames)
		clear(frames)
		if err != nil {
			c.close() // writing stays set: no writer starts again
			return
		}
		c.metrics.sent.Add(float64(n))
		if last {
			_ = c.ws.Close()
			return
		}
		// The workers' writes never wait, and a deadline left set would fail them once it passed.
		if err := conn.SetWriteDeadline(time.Time{}); err != nil {
			c.close()
			return
		}
		c.mu.Lock()
		frames, last = c.takeLocked(frames[:0])
		if len(frames) == 0 {
			c.writing = false
			c.mu.Unlock()
			return
		}
		c.mu.Unlock()
	}
}
