package api

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/lotbook/lotbook/projections"
)

// idemWriters write key claims and answers for replay in the background: a command's answer
// does not wait for its record, which shares the read database's writer with the projections.
// Until a record is written it is served from memory, so a retry in that window finds it too. A
// crash in that window loses the record, not the guarantee: the retried command carries the
// same key, its events the same ids and request fingerprint, and the command side answers with
// its earlier result (or idempotency_key_reused for another request). Each writer takes
// every record queued meanwhile (up to idemBatch) into one write: one transaction per record
// cost the read database's single writer about as much as a projector's page.
const (
	idemWriters = 2
	idemQueue   = 4096
	idemBatch   = 256
)

type idemRecords struct {
	db  *projections.ReadDB
	log *slog.Logger

	mu      sync.Mutex
	pending map[string]*projections.IdemRecord // the latest record put under a key, until written
	queue   chan *projections.IdemRecord
	wg      sync.WaitGroup
	once    sync.Once
}

func newIdemRecords(db *projections.ReadDB, log *slog.Logger) *idemRecords {
	r := &idemRecords{db: db, log: log, pending: map[string]*projections.IdemRecord{}, queue: make(chan *projections.IdemRecord, idemQueue)}
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
		return *rec, true, nil
	}
	return r.db.GetIdempotency(ctx, key)
}

// put keeps rec for replays. When the queue is full it writes in the caller's time instead.
func (r *idemRecords) put(ctx context.Context, rec projections.IdemRecord) error {
	p := &rec
	r.mu.Lock()
	r.pending[rec.Key] = p
	r.mu.Unlock()
	select {
	case r.queue <- p:
		return nil
	default:
	}
	err := r.db.PutIdempotency(ctx, rec)
	r.done(p)
	return err
}

// done forgets a written record, unless a later one under its key (a request's answer after
// its claim) is still to be written.
func (r *idemRecords) done(recs ...*projections.IdemRecord) {
	r.mu.Lock()
	for _, p := range recs {
		if r.pending[p.Key] == p {
			delete(r.pending, p.Key)
		}
	}
	r.mu.Unlock()
}

func (r *idemRecords) write() {
	batch := make([]*projections.IdemRecord, 0, idemBatch)
	recs := make([]projections.IdemRecord, 0, idemBatch)
	for rec := range r.queue {
		batch = append(batch[:0], rec)
	drain:
		for len(batch) < idemBatch {
			select {
			case rec, ok := <-r.queue:
				if !ok {
					break drain
				}
				batch = append(batch, rec)
			default:
				break drain
			}
		}
		recs = recs[:0]
		for _, p := range batch {
			recs = append(recs, *p)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		err := r.db.PutIdempotency(ctx, recs...)
		cancel()
		if err != nil {
			r.log.Warn("idempotency records not stored", "records", len(batch), "err", err)
		}
		r.done(batch...)
	}
}

// close writes what is queued and stops the writers; put must not be called after it.
func (r *idemRecords) close() {
	r.once.Do(func() {
		close(r.queue)
		r.wg.Wait()
	})
}
