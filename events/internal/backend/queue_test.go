package backend

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/lotbook/lotbook/events"
)

// With a commit that takes a fixed time (an fsync), concurrent appenders that append again as soon
// as they are answered share one commit: the writer lingers for the ones its last commit answered
// instead of committing the half that waited through it.
func TestQueueBatchesEveryConcurrentAppender(t *testing.T) {
	const writers, rounds = 16, 25
	q := NewQueue()
	end := make(chan struct{})
	var mu sync.Mutex
	var batches, appends int
	go q.Serve(1000, func(batch []*Request) {
		time.Sleep(3 * time.Millisecond)
		mu.Lock()
		batches++
		appends += len(batch)
		mu.Unlock()
		for _, r := range batch {
			r.Done(events.AppendResult{Version: 1}, nil)
		}
	}, end)
	var wg sync.WaitGroup
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range rounds {
				ev := []events.EventData{{ID: uuid.New(), Type: "QueueTested.v1"}}
				if _, err := q.Append(context.Background(), "s", events.AnyVersion, ev); err != nil {
					t.Errorf("writer %d: %v", w, err)
					return
				}
			}
		}()
	}
	wg.Wait()
	q.Close()
	<-end
	mean := float64(appends) / float64(batches)
	t.Logf("%d appends in %d commits, mean batch %.1f", appends, batches, mean)
	if appends != writers*rounds {
		t.Fatalf("%d appends committed, want %d", appends, writers*rounds)
	}
	// Without lingering the batches alternate between the two halves (a mean of 8); the margin
	// is for a loaded machine, where a returning appender may miss the linger.
	if mean < 0.6*writers {
		t.Fatalf("mean batch %.1f of %d concurrent appenders", mean, writers)
	}
}
