package api

import (
	"reflect"
	"sync"
)

// maxSessionPositions bounds the sessions whose last write position is remembered.
const maxSessionPositions = 100_000

// sessionPositions remembers, per session (keyed by token hash), the highest log position its own
// writes answered with, so that the session's next requests wait for the projections to reach it
// even when the client sends no Lotbook-Position (read-your-writes for scripts and third-party
// clients). It is bounded: two generations of at most half the bound each; when the current one
// fills, the previous one is dropped, which forgets the sessions that wrote least recently. A
// forgotten session only loses the wait, and only if its projections are still behind.
//
// It lives in this process's memory. With several API instances, a session whose next request
// lands on another instance does not wait there unless the client sends Lotbook-Position (as the
// web app does) or the load balancer keeps a session on one instance: the instances share the log
// and the read models, not this map, so the header is what carries a position across them.
type sessionPositions struct {
	mu        sync.Mutex
	cur, prev map[string]int64
	half      int
}

func newSessionPositions(limit int) *sessionPositions {
	return &sessionPositions{cur: map[string]int64{}, prev: map[string]int64{}, half: max(limit/2, 1)}
}

// note raises the session's position to pos.
func (p *sessionPositions) note(session string, pos int64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	pos = max(pos, p.cur[session], p.prev[session])
	delete(p.prev, session)
	if _, ok := p.cur[session]; !ok && len(p.cur) >= p.half {
		p.prev, p.cur = p.cur, make(map[string]int64, p.half)
	}
	p.cur[session] = pos
}

// get is the session's highest write position, 0 when none is remembered.
func (p *sessionPositions) get(session string) int64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	return max(p.cur[session], p.prev[session])
}

// answerPosition is the log position a write's answer carries: every command answer of
// openapi.yaml has `position` (wire.Position), the global position of the events it appended.
// 0 when the answer has none (login, logout).
func answerPosition(data any) int64 {
	v := reflect.Indirect(reflect.ValueOf(data))
	if v.Kind() != reflect.Struct {
		return 0
	}
	f := v.FieldByName("Position")
	if !f.IsValid() || f.Kind() != reflect.Int64 {
		return 0
	}
	return f.Int()
}
