package projections

import (
	"context"
	"fmt"
	"time"
)

// A deployment of several instances (lotbook serve --role) projects in one of them, the projector
// instance, into the shared read database. Publish is that instance's half: it writes the
// runner's lowest position as it moves. Watch is the other instances' half: they project
// nothing and take their positions (Position, WaitFor, Snapshot) from the database.

const (
	// watchIdle is how often Watch reads the positions while no read waits: /readyz and the
	// Lotbook-Position header stay this fresh.
	watchIdle = 100 * time.Millisecond
	// watchBusy is the pause between Watch's reads while a read-your-writes wait is on: it
	// bounds the database's load, not correctness (a wait ends only at its position).
	watchBusy = 2 * time.Millisecond
	// publishRetry is the pause before Publish writes again after the database failed.
	publishRetry = 100 * time.Millisecond
)

const (
	// Not only upwards: a projector instance that starts over a read model reset by a new
	// version publishes the lower position, which is the true one.
	sqlSetProgress = `INSERT INTO projection_progress_parts (part, parts, position, updated_at) VALUES (?, ?, ?, ?)
		ON CONFLICT (part, parts) DO UPDATE SET position = excluded.position, updated_at = excluded.updated_at`
	sqlVoidProgress = "DELETE FROM projection_progress_parts"
	// One round trip for both: progress rows come back under the name "", which no projector
	// has.
	sqlPositions = `SELECT name, position, 0, 0 FROM projection_checkpoints
		UNION ALL SELECT '', position, part, parts FROM projection_progress_parts`
)

// Publish writes the runner's lowest position to its partition's row of projection_progress_parts
// whenever it moves, until
// ctx ends; run it beside Run. Checkpoints of projectors whose pages held nothing for them move
// in memory only (lazyAge), so without it another instance would see the read models up to that
// long behind what they hold.
func (r *Runner) Publish(ctx context.Context) error {
	written := int64(-1)
	for {
		r.mu.Lock()
		low, changed := r.lowest(), r.changed
		r.mu.Unlock()
		if low > written {
			err := r.db.writeTx(ctx, func(w *Wtx) error {
				return w.Exec(ctx, sqlSetProgress, r.part.Index, r.part.count(), low, time.Now().UnixMicro())
			})
			if err != nil {
				if ctx.Err() != nil {
					return nil
				}
				r.logger.WarnContext(ctx, "publish projection progress", "position", low, "err", err)
				if !sleep(ctx, publishRetry) {
					return nil
				}
				continue
			}
			written = low
		}
		select {
		case <-ctx.Done():
			return nil
		case <-changed:
		}
	}
}

// Watch takes every projector's position from the database (its checkpoint, the lowest of its
// partitions' when it is partitioned, or the lowest progress the projector instances published
// when higher) until ctx ends, instead of Run: the instance serves reads of read models other
// instances write.
func (r *Runner) Watch(ctx context.Context) error {
	r.watching.Store(true)
	defer r.watching.Store(false)
	for {
		cps, progress, err := r.positions(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			r.logger.WarnContext(ctx, "watch projection positions", "err", err)
		}
		whole := wholePositions(cps)
		for _, p := range projectors {
			r.advance(p.Name, max(whole[p.Name], progress.low()))
		}
		pause := watchIdle
		if r.waiters.Load() > 0 {
			pause = watchBusy
		}
		t := time.NewTimer(pause)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil
		case <-r.wake:
			// A wait began: read again after the busy pause (coalescing the waits meanwhile).
			t.Stop()
			if !sleep(ctx, watchBusy) {
				return nil
			}
		case <-t.C:
		}
	}
}

// positions reads every checkpoint and every partition's published progress.
func (r *Runner) positions(ctx context.Context) (map[string]int64, progress, error) {
	rows, err := r.db.r.QueryContext(ctx, r.db.d.rebind(sqlPositions))
	if err != nil {
		return nil, nil, fmt.Errorf("read positions: %w", err)
	}
	defer rows.Close()
	cps, pr := map[string]int64{}, progress{}
	for rows.Next() {
		var name string
		var pos int64
		var pt Partition
		if err := rows.Scan(&name, &pos, &pt.Index, &pt.Count); err != nil {
			return nil, nil, fmt.Errorf("read positions: %w", err)
		}
		if name == "" {
			pr[pt] = pos
		} else {
			cps[name] = pos
		}
	}
	if err := rows.Err(); err != nil {
		return nil, nil, fmt.Errorf("read positions: %w", err)
	}
	return cps, pr, nil
}

// poke wakes Watch for a wait that just began.
func (r *Runner) poke() {
	select {
	case r.wake <- struct{}{}:
	default:
	}
}

// sleep pauses d; false when ctx ended first.
func sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}
