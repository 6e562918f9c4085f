package sim

import "sync"

// lru is a small bounded map that forgets its least recently used entry. Safe for concurrent use.
type lru[K comparable, V any] struct {
	mu    sync.Mutex
	max   int
	items map[K]*lruItem[K, V]
	ring  lruItem[K, V] // sentinel: ring.next is the most recently used, ring.prev the least
}

type lruItem[K comparable, V any] struct {
	k          K
	v          V
	prev, next *lruItem[K, V]
}

func newLRU[K comparable, V any](max int) *lru[K, V] {
	c := &lru[K, V]{max: max, items: make(map[K]*lruItem[K, V], max)}
	c.ring.prev, c.ring.next = &c.ring, &c.ring
	return c
}

func (c *lru[K, V]) get(k K) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	it, ok := c.items[k]
	if !ok {
		var zero V
		return zero, false
	}
	c.unlink(it)
	c.front(it)
	return it.v, true
}

func (c *lru[K, V]) put(k K, v V) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if it, ok := c.items[k]; ok {
		it.v = v
		c.unlink(it)
		c.front(it)
		return
	}
	it := &lruItem[K, V]{k: k, v: v}
	if len(c.items) >= c.max {
		// Reuse the least recently used item.
		it = c.ring.prev
		c.unlink(it)
		delete(c.items, it.k)
		it.k, it.v = k, v
	}
	c.items[k] = it
	c.front(it)
}

func (c *lru[K, V]) unlink(it *lruItem[K, V]) { it.prev.next, it.next.prev = it.next, it.prev }

func (c *lru[K, V]) front(it *lruItem[K, V]) {
	it.prev, it.next = &c.ring, c.ring.next
	c.ring.next.prev = it
	c.ring.next = it
}
