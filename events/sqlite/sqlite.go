// Package sqlite is the default events.Store: one SQLite file (modernc.org/sqlite, pure Go) in WAL
// mode. One writer goroutine group-commits concurrent appends: every append that queued while the
// previous transaction committed shares the next BEGIN IMMEDIATE transaction and its fsync. Global
// positions are assigned as max+1 inside that transaction, so they are gap-free and readers see
// them in order, also when another process writes to the same file.
package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"
	sqlitedrv "modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/events/internal/backend"
)

const (
	maxBatchEvents = 4096
	pageSize       = 1000
	// pollInterval catches commits by other processes, which cannot notify this one.
	pollInterval = 500 * time.Millisecond
	// The WAL is checkpointed into the database file every checkpointEvery by a pooled
	// connection (PASSIVE: it never blocks the writer), not inside the commit that passes 1000
	// pages, which held every append waiting while it copied pages and synced the file. The
	// automatic checkpoint stays only as a bound on the WAL, at autoCheckpoint pages.
	checkpointEvery = 250 * time.Millisecond
	autoCheckpoint  = 20000
)

const schema = `
CREATE TABLE IF NOT EXISTS events (
	position INTEGER PRIMARY KEY,
	id       BLOB    NOT NULL UNIQUE,
	stream   TEXT    NOT NULL,
	version  INTEGER NOT NULL,
	type     TEXT    NOT NULL,
	data     BLOB    NOT NULL,
	metadata TEXT    NOT NULL,
	UNIQUE (stream, version)
);
CREATE TABLE IF NOT EXISTS process_checkpoints (
	name     TEXT    PRIMARY KEY,
	position INTEGER NOT NULL,
	state    BLOB    NOT NULL
)`

// Store is an events.Store on one SQLite file. Subscribers are woken by this store's writer and,
// for other processes' commits, by a poll every pollInterval.
type Store struct {
	backend.Appender // Append, Subscribe, Stats

	db        *sql.DB // readers; WAL lets them run beside the writer
	wconn     *sql.Conn
	w         *backend.Writer
	stmts     writerStmts
	reads     readerStmts
	ckptEnd   chan struct{}
	closeOnce sync.Once
	closeErr  error
}

type writerStmts struct {
	head, version, lookup, insert *sql.Stmt
}

// readerStmts are prepared once on the reader pool (database/sql keeps one prepared copy per
// connection): parsing the SQL of every stream read cost about as much as running it.
type readerStmts struct {
	stream, streamAfter, all, head *sql.Stmt
}

const selectEvents = `SELECT position, id, stream, version, type, data, metadata FROM events `

var (
	_ events.Store       = (*Store)(nil)
	_ events.Checkpoints = (*Store)(nil)
)

// Open opens (creating if needed) the event store in the SQLite file at path.
func Open(ctx context.Context, path string) (*Store, error) {
	if path == "" || strings.ContainsAny(path, "?#") || strings.HasPrefix(path, ":memory:") {
		return nil, fmt.Errorf("sqlite events: unsupported path %q (need a file path without ? or #)", path)
	}
	// synchronous(FULL): an acknowledged append survives power loss, not only a crash.
	dsn := path + fmt.Sprintf("?_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)&_pragma=synchronous(FULL)&_pragma=wal_autocheckpoint(%d)", autoCheckpoint)
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("sqlite events: open %s: %w", path, err)
	}
	db.SetMaxOpenConns(8)
	db.SetMaxIdleConns(8)
	s := &Store{db: db, ckptEnd: make(chan struct{})}
	if err := s.init(ctx); err != nil {
		_ = db.Close()
		return nil, fmt.Errorf("sqlite events: open %s: %w", path, err)
	}
	s.w = backend.NewWriter(maxBatchEvents, s.commit, s.ReadAll, pageSize, pollInterval)
	s.Appender = s.w.Appender()
	go s.checkpointer()
	return s, nil
}

func (s *Store) checkpointer() {
	defer close(s.ckptEnd)
	t := time.NewTicker(checkpointEvery)
	defer t.Stop()
	for {
		select {
		case <-s.w.Closed():
			return
		case <-t.C:
		}
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		if _, err := s.db.ExecContext(ctx, "PRAGMA wal_checkpoint(PASSIVE)"); err != nil {
			slog.Warn("sqlite events: WAL checkpoint", "err", err)
		}
		cancel()
	}
}

func (s *Store) init(ctx context.Context) error {
	if _, err := s.db.ExecContext(ctx, schema); err != nil {
		return fmt.Errorf("create schema: %w", err)
	}
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return fmt.Errorf("writer connection: %w", err)
	}
	s.wconn = conn
	for _, p := range []struct {
		st  **sql.Stmt
		sql string
	}{
		{&s.reads.stream, selectEvents + `WHERE stream = ? AND version > ? ORDER BY version`},
		// Ordered by version so that the (stream, version) index drives the scan; within one
		// stream position grows with version.
		{&s.reads.streamAfter, selectEvents + `WHERE stream = ? AND position > ? ORDER BY version LIMIT ?`},
		{&s.reads.all, selectEvents + `WHERE position > ? ORDER BY position LIMIT ?`},
		{&s.reads.head, `SELECT coalesce(max(position), 0) FROM events`},
	} {
		if *p.st, err = s.db.PrepareContext(ctx, p.sql); err != nil {
			_ = conn.Close()
			return fmt.Errorf("prepare %q: %w", p.sql, err)
		}
	}
	for _, p := range []struct {
		st  **sql.Stmt
		sql string
	}{
		{&s.stmts.head, `SELECT coalesce(max(position), 0) FROM events`},
		{&s.stmts.version, `SELECT coalesce(max(version), 0) FROM events WHERE stream = ?`},
		{&s.stmts.lookup, `SELECT stream, version, position FROM events WHERE id = ?`},
		{&s.stmts.insert, `INSERT INTO events (position, id, stream, version, type, data, metadata) VALUES (?, ?, ?, ?, ?, ?, ?)`},
	} {
		if *p.st, err = conn.PrepareContext(ctx, p.sql); err != nil {
			_ = conn.Close()
			return fmt.Errorf("prepare %q: %w", p.sql, err)
		}
	}
	return nil
}

// commit writes one batch in one transaction. If the transaction fails as a whole, each request
// it had not answered is retried alone, so that one bad append cannot fail the others; a retry of
// an append that did commit after all finds its event ids and answers as a retry.
func (s *Store) commit(batch []*backend.Request) {
	pending, err := s.write(batch)
	if err == nil {
		return
	}
	if len(batch) == 1 {
		for _, r := range pending {
			r.Done(events.AppendResult{}, err)
		}
		return
	}
	for _, r := range pending {
		s.commit([]*backend.Request{r})
	}
}

// write runs one transaction for batch. On error it returns the requests it has not answered.
func (s *Store) write(batch []*backend.Request) ([]*backend.Request, error) {
	ctx := context.Background() // a begun transaction is finished; callers' contexts are checked in the plan
	if _, err := s.wconn.ExecContext(ctx, "BEGIN IMMEDIATE"); err != nil {
		return batch, fmt.Errorf("sqlite events: begin: %w", err)
	}
	plan, err := s.plan(ctx, batch)
	if err != nil {
		_, _ = s.wconn.ExecContext(ctx, "ROLLBACK")
		return batch, err
	}
	for _, r := range plan.Rows {
		if _, err := s.stmts.insert.ExecContext(ctx, r.Position, r.ID[:], r.Stream, r.Version, r.Type, r.Data, string(r.Metadata)); err != nil {
			_, _ = s.wconn.ExecContext(ctx, "ROLLBACK")
			if isUnique(err) {
				// Only another writer that skipped BEGIN IMMEDIATE could get here.
				return plan.Accepted(), fmt.Errorf("sqlite events: insert %s v%d: %w", r.Stream, r.Version, events.ErrWrongExpectedVersion)
			}
			return plan.Accepted(), fmt.Errorf("sqlite events: insert %s v%d: %w", r.Stream, r.Version, err)
		}
	}
	if len(plan.Rows) == 0 {
		_, _ = s.wconn.ExecContext(ctx, "ROLLBACK")
		plan.Commit()
		return nil, nil
	}
	if _, err := s.wconn.ExecContext(ctx, "COMMIT"); err != nil {
		_, _ = s.wconn.ExecContext(ctx, "ROLLBACK")
		return plan.Accepted(), fmt.Errorf("sqlite events: commit: %w", err)
	}
	s.w.Counted(len(plan.Rows))
	plan.Commit()
	s.w.Notify()
	return nil, nil
}

// plan reads the state the batch's checks need, inside the transaction, and checks the batch.
func (s *Store) plan(ctx context.Context, batch []*backend.Request) (*backend.Plan, error) {
	var head int64
	if err := s.stmts.head.QueryRowContext(ctx).Scan(&head); err != nil {
		return nil, fmt.Errorf("sqlite events: read head: %w", err)
	}
	streams, ids := backend.Keys(batch)
	versions := make(map[string]int64, len(streams))
	for _, st := range streams {
		var v int64
		if err := s.stmts.version.QueryRowContext(ctx, st).Scan(&v); err != nil {
			return nil, fmt.Errorf("sqlite events: read version of %s: %w", st, err)
		}
		versions[st] = v
	}
	stored := map[uuid.UUID]backend.Stored{}
	for _, id := range ids {
		var x backend.Stored
		err := s.stmts.lookup.QueryRowContext(ctx, id[:]).Scan(&x.Stream, &x.Version, &x.Position)
		switch {
		case errors.Is(err, sql.ErrNoRows):
		case err != nil:
			return nil, fmt.Errorf("sqlite events: look up event %s: %w", id, err)
		default:
			stored[id] = x
		}
	}
	return backend.NewPlan(head, batch, versions, stored, time.Now()), nil
}

func isUnique(err error) bool {
	var e *sqlitedrv.Error
	return errors.As(err, &e) && (e.Code() == sqlite3.SQLITE_CONSTRAINT_UNIQUE || e.Code() == sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY)
}

// ReadStream implements events.Store.
func (s *Store) ReadStream(ctx context.Context, stream string, afterVersion int64) ([]events.RecordedEvent, error) {
	rows, err := s.reads.stream.QueryContext(ctx, stream, afterVersion)
	if err != nil {
		return nil, s.w.ReadErr(fmt.Errorf("sqlite events: read %s: %w", stream, err))
	}
	return scan(rows)
}

// ReadStreamAfter implements events.Store.
func (s *Store) ReadStreamAfter(ctx context.Context, stream string, afterPosition int64, limit int) ([]events.RecordedEvent, error) {
	if limit <= 0 {
		return nil, fmt.Errorf("sqlite events: read %s: limit %d must be positive", stream, limit)
	}
	rows, err := s.reads.streamAfter.QueryContext(ctx, stream, afterPosition, limit)
	if err != nil {
		return nil, s.w.ReadErr(fmt.Errorf("sqlite events: read %s after %d: %w", stream, afterPosition, err))
	}
	return scan(rows)
}

// ReadAll implements events.Store.
func (s *Store) ReadAll(ctx context.Context, afterPosition int64, limit int) ([]events.RecordedEvent, error) {
	if limit <= 0 {
		return nil, fmt.Errorf("sqlite events: read all: limit %d must be positive", limit)
	}
	rows, err := s.reads.all.QueryContext(ctx, afterPosition, limit)
	if err != nil {
		return nil, s.w.ReadErr(fmt.Errorf("sqlite events: read all after %d: %w", afterPosition, err))
	}
	return scan(rows)
}

func scan(rows *sql.Rows) ([]events.RecordedEvent, error) {
	defer rows.Close()
	var out []events.RecordedEvent
	for rows.Next() {
		var e events.RecordedEvent
		var id []byte
		var meta string
		if err := rows.Scan(&e.Position, &id, &e.Stream, &e.Version, &e.Type, &e.Data, &meta); err != nil {
			return nil, fmt.Errorf("sqlite events: scan: %w", err)
		}
		var err error
		if e.ID, err = uuid.FromBytes(id); err != nil {
			return nil, fmt.Errorf("sqlite events: event at %d: %w", e.Position, err)
		}
		if e.Metadata, err = backend.UnmarshalMetadata([]byte(meta)); err != nil {
			return nil, fmt.Errorf("sqlite events: event at %d: %w", e.Position, err)
		}
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlite events: read: %w", err)
	}
	return out, nil
}

// Head implements events.Store.
func (s *Store) Head(ctx context.Context) (int64, error) {
	var h int64
	if err := s.reads.head.QueryRowContext(ctx).Scan(&h); err != nil {
		return 0, s.w.ReadErr(fmt.Errorf("sqlite events: head: %w", err))
	}
	return h, nil
}

// Close stops the writer after the transaction in flight and closes the file. Safe to call twice.
func (s *Store) Close() error {
	s.closeOnce.Do(func() {
		s.w.Stop()
		<-s.ckptEnd
		s.closeErr = errors.Join(s.reads.stream.Close(), s.reads.streamAfter.Close(), s.reads.all.Close(), s.reads.head.Close(), s.wconn.Close(), s.db.Close())
	})
	return s.closeErr
}

// LoadCheckpoint implements events.Checkpoints.
func (s *Store) LoadCheckpoint(ctx context.Context, name string) (events.Checkpoint, error) {
	cp, err := backend.ScanCheckpoint(s.db.QueryRowContext(ctx, `SELECT position, state FROM process_checkpoints WHERE name = ?`, name), sql.ErrNoRows)
	if err != nil {
		return events.Checkpoint{}, s.w.ReadErr(fmt.Errorf("sqlite events: load checkpoint %s: %w", name, err))
	}
	return cp, nil
}

// SaveCheckpoint implements events.Checkpoints.
func (s *Store) SaveCheckpoint(ctx context.Context, name string, cp events.Checkpoint) error {
	_, err := s.db.ExecContext(ctx, `INSERT INTO process_checkpoints (name, position, state) VALUES (?, ?, ?)
		ON CONFLICT (name) DO UPDATE SET position = excluded.position, state = excluded.state
		WHERE excluded.position >= process_checkpoints.position`, name, cp.Position, backend.NonNil(cp.State))
	if err != nil {
		return s.w.ReadErr(fmt.Errorf("sqlite events: save checkpoint %s: %w", name, err))
	}
	return nil
}
