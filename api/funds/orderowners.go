package funds

import "sync"

// orderOwners remembers whose order each order number is, for the orders this process took:
// an ops decision on one of them finds the member without the review queue's read model, so it
// neither queries it nor waits for the projections to have applied the request. An order number
// always names the same member's order, so an entry never goes stale; the oldest are forgotten
// past the capacity, and a miss falls back to the read model.
type orderOwners struct {
	mu   sync.Mutex
	m    map[string]string // order number -> member id
	ring []string          // order numbers in the order they were added, for eviction
	next int
}

const orderOwnersCap = 1 << 16

func newOrderOwners() *orderOwners {
	return &orderOwners{m: make(map[string]string), ring: make([]string, orderOwnersCap)}
}

func (o *orderOwners) add(orderNo, memberID string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if _, ok := o.m[orderNo]; ok {
		return
	}
	if old := o.ring[o.next]; old != "" {
		delete(o.m, old)
	}
	o.ring[o.next] = orderNo
	o.next = (o.next + 1) % len(o.ring)
	o.m[orderNo] = memberID
}

func (o *orderOwners) get(orderNo string) (string, bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	id, ok := o.m[orderNo]
	return id, ok
}
