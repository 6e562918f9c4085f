package feed

import "sync"

// Hub fans updates out to many subscribers without ever queueing: each subscription holds at
// most one pending update per symbol, the latest, so a slow consumer skips intermediate states
// instead of growing a backlog, and publishing never blocks on a consumer.
type Hub struct {
	mu    sync.RWMutex
	bySym map[string]map[*Subscription]struct{}
	all   map[*Subscription]struct{}
}

// NewHub makes an empty hub. Register Publish with a Feed: feed.Subscribe(hub.Publish).
func NewHub() *Hub {
	return &Hub{bySym: map[string]map[*Subscription]struct{}{}, all: map[*Subscription]struct{}{}}
}

// Publish offers u to the subscriptions that watch its symbol.
func (h *Hub) Publish(u Update) {
	h.mu.RLock()
	defer h.mu.RUnlock()
	for s := range h.bySym[u.Symbol] {
		s.offer(u)
	}
	for s := range h.all {
		s.offer(u)
	}
}

// Subscribe watches symbols; with none it watches every symbol.
func (h *Hub) Subscribe(symbols ...string) *Subscription {
	s := &Subscription{hub: h, pending: map[string]Update{}, ready: make(chan struct{}, 1), symbols: map[string]bool{}}
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(symbols) == 0 {
		s.everything = true
		h.all[s] = struct{}{}
		return s
	}
	for _, sym := range symbols {
		h.watch(s, sym)
	}
	return s
}

// watch adds sym to s. Callers hold h.mu.
func (h *Hub) watch(s *Subscription, sym string) {
	if s.symbols[sym] {
		return
	}
	s.symbols[sym] = true
	m := h.bySym[sym]
	if m == nil {
		m = map[*Subscription]struct{}{}
		h.bySym[sym] = m
	}
	m[s] = struct{}{}
}

// unwatch removes sym from s. Callers hold h.mu.
func (h *Hub) unwatch(s *Subscription, sym string) {
	if !s.symbols[sym] {
		return
	}
	delete(s.symbols, sym)
	if m := h.bySym[sym]; m != nil {
		delete(m, s)
		if len(m) == 0 {
			delete(h.bySym, sym)
		}
	}
}

// Subscription is one consumer's view of the hub.
type Subscription struct {
	hub        *Hub
	everything bool
	symbols    map[string]bool // guarded by hub.mu

	mu       sync.Mutex
	pending  map[string]Update
	order    []string // symbols with a pending update, in the order they first changed
	replaced uint64
	closed   bool
	ready    chan struct{}
}

func (s *Subscription) offer(u Update) {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	if _, ok := s.pending[u.Symbol]; ok {
		s.replaced++
	} else {
		s.order = append(s.order, u.Symbol)
	}
	s.pending[u.Symbol] = u
	s.mu.Unlock()
	select {
	case s.ready <- struct{}{}:
	default:
	}
}

// Ready is signalled when updates are pending (once for any number of them).
func (s *Subscription) Ready() <-chan struct{} { return s.ready }

// Take returns the pending updates, the latest per symbol, and clears them.
func (s *Subscription) Take() []Update {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.order) == 0 {
		return nil
	}
	out := make([]Update, 0, len(s.order))
	for _, sym := range s.order {
		out = append(out, s.pending[sym])
		delete(s.pending, sym)
	}
	s.order = s.order[:0]
	return out
}

// Replaced counts updates that were overwritten by a newer one before being taken.
func (s *Subscription) Replaced() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.replaced
}

// Watch adds symbols to a subscription made with symbols.
func (s *Subscription) Watch(symbols ...string) {
	s.hub.mu.Lock()
	defer s.hub.mu.Unlock()
	if s.everything {
		return
	}
	for _, sym := range symbols {
		s.hub.watch(s, sym)
	}
}

// Unwatch removes symbols; their pending updates are dropped.
func (s *Subscription) Unwatch(symbols ...string) {
	s.hub.mu.Lock()
	for _, sym := range symbols {
		s.hub.unwatch(s, sym)
	}
	s.hub.mu.Unlock()
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, sym := range symbols {
		if _, ok := s.pending[sym]; ok {
			delete(s.pending, sym)
			for i, o := range s.order {
				if o == sym {
					s.order = append(s.order[:i], s.order[i+1:]...)
					break
				}
			}
		}
	}
}

// Close ends the subscription.
func (s *Subscription) Close() {
	s.hub.mu.Lock()
	delete(s.hub.all, s)
	for sym := range s.symbols {
		s.hub.unwatch(s, sym)
	}
	s.hub.mu.Unlock()
	s.mu.Lock()
	s.closed = true
	s.pending, s.order = map[string]Update{}, nil
	s.mu.Unlock()
}
