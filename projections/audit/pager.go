package audit

import (
	"context"
	"sync"

	"github.com/lotbook/lotbook/events"
)

// Pager serves timeline pages whose balances start at the cursor. It remembers the balances at
// the end of the pages it served (a bounded FIFO of checkpoints), so scrolling on costs one page
// of reads; a cursor it does not remember (another server, an evicted or hand-made one) costs one
// fold of the member's postings up to it (BalancesAt). The log is immutable below its head, so a
// checkpoint never goes stale.
type Pager struct {
	store events.Store

	mu    sync.Mutex
	seen  map[checkpoint]map[string]Balance
	order []checkpoint // ring of the keys in seen, oldest at next
	next  int
}

type checkpoint struct {
	member   string
	position int64
}

// NewPager remembers up to capacity checkpoints.
func NewPager(store events.Store, capacity int) *Pager {
	return &Pager{store: store, seen: make(map[checkpoint]map[string]Balance, capacity), order: make([]checkpoint, capacity)}
}

// Page returns up to limit events after position after with the balances after each, and
// whether more follow.
func (p *Pager) Page(ctx context.Context, memberID string, after int64, limit int) ([]Entry, bool, error) {
	start, err := p.balancesAt(ctx, memberID, after)
	if err != nil {
		return nil, false, err
	}
	entries, more, err := Page(ctx, p.store, memberID, after, start, limit)
	if err != nil {
		return nil, false, err
	}
	if more {
		last := entries[len(entries)-1]
		p.remember(checkpoint{memberID, last.Position}, last.Balances)
	}
	return entries, more, nil
}

func (p *Pager) balancesAt(ctx context.Context, memberID string, at int64) (map[string]Balance, error) {
	if at == 0 {
		return map[string]Balance{}, nil
	}
	p.mu.Lock()
	bal, ok := p.seen[checkpoint{memberID, at}]
	p.mu.Unlock()
	if ok {
		return bal, nil
	}
	return BalancesAt(ctx, p.store, memberID, at)
}

// remember stores bal, which the caller no longer changes, evicting the oldest checkpoint.
func (p *Pager) remember(k checkpoint, bal map[string]Balance) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if _, ok := p.seen[k]; ok || len(p.order) == 0 {
		return
	}
	if old := p.order[p.next]; old != (checkpoint{}) {
		delete(p.seen, old)
	}
	p.order[p.next] = k
	p.seen[k] = bal
	p.next = (p.next + 1) % len(p.order)
}
