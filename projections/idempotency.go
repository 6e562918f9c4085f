package projections

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"
	"time"
)

// IdemRecord is the claim of an Idempotency-Key by a state-changing HTTP request (its caller and
// fingerprint) and, when it may be replayed, the answer sent (HTTPStatus 0: a claim only). The
// records are not a projection: they are never dropped or rebuilt.
type IdemRecord struct {
	Key         string
	Actor       string
	RequestHash string
	HTTPStatus  int
	Body        []byte
}

// GetIdempotency returns the record stored under key, if any.
func (db *ReadDB) GetIdempotency(ctx context.Context, key string) (IdemRecord, bool, error) {
	rec := IdemRecord{Key: key}
	err := db.QueryRow(ctx, "SELECT actor, request_hash, http_status, body FROM idempotency_records WHERE idem_key = ?", key).
		Scan(&rec.Actor, &rec.RequestHash, &rec.HTTPStatus, &rec.Body)
	if errors.Is(err, sql.ErrNoRows) {
		return IdemRecord{}, false, nil
	}
	if err != nil {
		return IdemRecord{}, false, fmt.Errorf("get idempotency record: %w", err)
	}
	return rec, true, nil
}

// PutIdempotency stores each record unless a record with its key exists: the first claim of a
// key wins, and a claim without an answer takes the answer of the same request (same actor and
// hash) when one comes; a stored answer never changes.
//
// Concurrent calls, and the records of one call, share one transaction (group commit): every
// command answer writes a record,
// and one transaction each would make the read database's single SQLite writer the bottleneck of
// the command path. Records are written without waiting for PostgreSQL's WAL flush: losing the
// last ones in a crash only means a retried command is decided again, and commands are
// idempotent by their event ids.
func (db *ReadDB) PutIdempotency(ctx context.Context, recs ...IdemRecord) error {
	if err := db.idem.put(ctx, db, recs); err != nil {
		return fmt.Errorf("put idempotency record: %w", err)
	}
	return nil
}

// idemWriter batches PutIdempotency calls: the first call starts a writer goroutine that takes
// every request queued while the previous batch was written.
type idemWriter struct {
	start   sync.Once
	queue   chan idemRequest
	quit    chan struct{} // closed by close
	stopped chan struct{} // closed when the writer has ended
	stop    sync.Once
}

type idemRequest struct {
	rec  IdemRecord
	at   int64
	done chan error
}

const idemBatch = 500

var errReadDBClosed = errors.New("read database closed")

func newIdemWriter() idemWriter {
	return idemWriter{queue: make(chan idemRequest, idemBatch), quit: make(chan struct{}), stopped: make(chan struct{})}
}

func (iw *idemWriter) put(ctx context.Context, db *ReadDB, recs []IdemRecord) error {
	iw.start.Do(func() { go iw.run(db) })
	// All requests of one call share one answer channel, buffered for all of them.
	done := make(chan error, len(recs))
	at := time.Now().UnixMicro()
	for _, rec := range recs {
		select {
		case iw.queue <- idemRequest{rec: rec, at: at, done: done}:
		case <-iw.quit:
			return errReadDBClosed
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	var first error
	for range recs {
		select {
		case err := <-done:
			if first == nil {
				first = err
			}
		case <-iw.stopped:
			select {
			case err := <-done:
				if first == nil {
					first = err
				}
			default:
				return errReadDBClosed
			}
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return first
}

func (iw *idemWriter) run(db *ReadDB) {
	defer close(iw.stopped)
	for {
		var batch []idemRequest
		select {
		case req := <-iw.queue:
			batch = append(batch, req)
		case <-iw.quit:
			return
		}
	drain:
		for len(batch) < idemBatch {
			select {
			case req := <-iw.queue:
				batch = append(batch, req)
			default:
				break drain
			}
		}
		err := db.writeIdempotency(batch)
		for _, req := range batch {
			req.done <- err
		}
	}
}

// close ends the writer after the batch it is writing.
func (iw *idemWriter) close() {
	iw.stop.Do(func() {
		close(iw.quit)
		iw.start.Do(func() { close(iw.stopped) }) // never started
		<-iw.stopped
	})
}

func (db *ReadDB) writeIdempotency(batch []idemRequest) error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	return db.writeTx(ctx, func(w *Wtx) error {
		uniq := uniqueKeys(batch)
		rows := make([][]any, len(uniq))
		for i, req := range uniq {
			body := req.rec.Body
			if body == nil {
				body = []byte{}
			}
			rows[i] = []any{req.rec.Key, req.rec.Actor, req.rec.RequestHash, req.rec.HTTPStatus, body, req.at}
		}
		return w.WriteRows(ctx, rows, func(n int) string {
			return "INSERT INTO idempotency_records (idem_key, actor, request_hash, http_status, body, created_at) VALUES " +
				Tuples(n, 6) + ` ON CONFLICT (idem_key) DO UPDATE SET http_status = excluded.http_status, body = excluded.body
			WHERE idempotency_records.http_status = 0 AND excluded.http_status <> 0
			AND idempotency_records.actor = excluded.actor AND idempotency_records.request_hash = excluded.request_hash`
		})
	})
}

// uniqueKeys keeps one request per key, the first that holds an answer or else the first (one
// INSERT may not update a row twice): the claim and the answer of one request may be queued
// together.
func uniqueKeys(batch []idemRequest) []idemRequest {
	at := make(map[string]int, len(batch))
	out := make([]idemRequest, 0, len(batch))
	for _, req := range batch {
		i, seen := at[req.rec.Key]
		switch {
		case !seen:
			at[req.rec.Key] = len(out)
			out = append(out, req)
		case out[i].rec.HTTPStatus == 0 && req.rec.HTTPStatus != 0 &&
			out[i].rec.Actor == req.rec.Actor && out[i].rec.RequestHash == req.rec.RequestHash:
			out[i] = req
		}
	}
	return out
}
