package api

import (
	"reflect"
	"sync"

	"github.com/hashicorp/golang-lru/v2/simplelru"
)

// maxSessionPositions bounds the sessions whose last write position is remembered.
const maxSessionPositions = 100_000

// sessionPositions remembers, per session (keyed by token hash), the highest log position its own
// writes answered with (and, from its authentication, its member stream's last event), so that the session's next requests wait for the projections to reach it
// even when the client sends no Lotbook-Position (read-your-writes for scripts and third-party
// clients). It is bounded: past the bound it forgets the session noted least recently. A forgotten session only loses the wait, and only if its
// projections are still behind.
//
// It lives in this process's memory. With several API instances, a session whose next request
// lands on another instance does not wait there unless the client sends Lotbook-Position (as the
// web app does) or the load balancer keeps a session on one instance: the instances share the log
// and the read models, not this map, so the header is what carries a position across them.
type sessionPositions struct {
	mu  sync.Mutex // note reads and raises a position in one step
	pos *simplelru.LRU[string, int64]
}

func newSessionPositions(limit int) *sessionPositions {
	pos, err := simplelru.NewLRU[string, int64](max(limit, 1), nil)
	if err != nil {
		panic("api: session positions: " + err.Error()) // the size is at least 1
	}
	return &sessionPositions{pos: pos}
}

// note raises the session's position to pos.
func (p *sessionPositions) note(session string, pos int64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	prev, _ := p.pos.Peek(session)
	p.pos.Add(session, max(pos, prev))
}

// get is the session's highest write position, 0 when none is remembered.
func (p *sessionPositions) get(session string) int64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	pos, _ := p.pos.Peek(session)
	return pos
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
