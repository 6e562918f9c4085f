package api

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/lotbook/lotbook/projections"
)

// idemWriters write answers for replay in the background: a command's answer does not wait for
// its record, which shares the read database's writer with the projections. Until a record is
// written it is served from memory, so a retry in that window replays it too. A crash in that
// window loses the record, not the guarantee: the retried command carries the same key, its
// events the same ids, and the command side answers with its earlier result.
const (
	idemWriters = 4
	idemQueue   = 4096
)

type idemRecords struct {
	db  *projections.ReadDB
	log *slog.Logger

	mu      sync.Mutex
	pending map[string]projections.IdemRecord
	queue   chan projections.IdemRecord
	wg      sync.WaitGroup
	once    sync.Once
}

func newIdemRecords(db *projections.ReadDB, log *slog.Logger) *idemRecords {
	r := &idemRecords{db: db, log: log, pending: map[string]projections.IdemRecord{}, queue: make(chan projections.IdemRecord, idemQueue)}
	for range idemWriters {
		r.wg.Go(r.write)
	}
	return r
}

func (r *idemRecords) get(ctx context.Context, key string) (projections.IdemRecord, bool, error) {
	r.mu.Lock()
	rec, ok := r.pending[key]
	r.mu.Unlock()
	if ok {
		return rec, true, nil
	}
	return r.db.GetIdempotency(ctx, key)
}

// put keeps rec for replays. When the queue is full it writes in the caller's time instead.
func (r *idemRecords) put(ctx context.Context, rec projections.IdemRecord) error {
	r.mu.Lock()
	r.pending[rec.Key] = rec
	r.mu.Unlock()
	select {
	case r.queue <- rec:
		return nil
	default:
	}
	err := r.db.PutIdempotency(ctx, rec)
	r.done(rec.Key)
	return err
}

func (r *idemRecords) done(key string) {
	r.mu.Lock()
	delete(r.pending, key)
	r.mu.Unlock()
}

func (r *idemRecords) write() {
	for rec := range r.queue {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		err := r.db.PutIdempotency(ctx, rec)
		cancel()
		if err != nil {
			r.log.Warn("idempotency record not stored", "err", err)
		}
		r.done(rec.Key)
	}
}

// close writes what is queued and stops the writers; put must not be called after it.
func (r *idemRecords) close() {
	r.once.Do(func() {
		close(r.queue)
		r.wg.Wait()
	})
}
