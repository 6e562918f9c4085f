package projections

import (
	"context"
	"fmt"
	"slices"
	"sync"
)

// Queue is a review queue of the ops console: its id (a stable key the web app names), the web
// app's path to it, and how many items wait in it. A capability declares its queues from its
// read model's init (RegisterQueue) and the console lists every one without knowing it.
type Queue struct {
	ID, Path string
	// Order places the queue on the console (smaller first; ties by id).
	Order int
	Count func(ctx context.Context, db *Reader) (int, error)
}

var (
	queuesMu sync.Mutex
	queues   []Queue
)

// RegisterQueue declares an ops review queue; ids are unique.
func RegisterQueue(q Queue) {
	queuesMu.Lock()
	defer queuesMu.Unlock()
	for _, o := range queues {
		if o.ID == q.ID {
			panic("projections: queue " + q.ID + " registered twice")
		}
	}
	queues = append(queues, q)
	slices.SortFunc(queues, func(a, b Queue) int {
		if a.Order != b.Order {
			return a.Order - b.Order
		}
		if a.ID < b.ID {
			return -1
		}
		return 1
	})
}

// Queues are the declared review queues in console order.
func Queues() []Queue {
	queuesMu.Lock()
	defer queuesMu.Unlock()
	return slices.Clone(queues)
}

// CountQueue is a Count running one SELECT COUNT(*) query with args.
func CountQueue(what, q string, args ...any) func(ctx context.Context, db *Reader) (int, error) {
	return func(ctx context.Context, db *Reader) (int, error) {
		var n int
		if err := db.QueryRow(ctx, q, args...).Scan(&n); err != nil {
			return 0, fmt.Errorf("%s queue: %w", what, err)
		}
		return n, nil
	}
}
