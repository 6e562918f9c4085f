// Package sqlite is the default events.Store: one SQLite file (the C SQLite, through sqlitedb) in WAL
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
	"maps"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"

	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/events/internal/backend"
	"github.com/lotbook/lotbook/events/sqlite/sqlitedb"
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
	// insertRows is the rows one multi-row INSERT takes (6 variables each, far below SQLite's
	// limit): the statement's fixed cost (database/sql, the driver, a VDBE program start) was
	// about as much as the row's own b-tree work when every event had its own statement.
	insertRows = 32
	// maxKnown bounds the stream versions the writer remembers; past it, it forgets them all.
	maxKnown = 100_000
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
);
CREATE TABLE IF NOT EXISTS snapshots (
	stream   TEXT    PRIMARY KEY,
	version  INTEGER NOT NULL,
	position INTEGER NOT NULL,
	schema   TEXT    NOT NULL,
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

	// known is what the writer goroutine (its only user) knows of stream versions as of
	// knownHead, the head its last commit left; knownHead -1 knows nothing.
	known     map[string]int64
	knownHead int64
	recent    recent // the events the writer committed last
}

type writerStmts struct {
	head, version, lookup, insert, insertMany *sql.Stmt
}

// readerStmts are prepared once on the reader pool (database/sql keeps one prepared copy per
// connection): parsing the SQL of every stream read cost about as much as running it.
type readerStmts struct {
	stream, streamAfter, all, head, snapshot *sql.Stmt
}

const selectEvents = `SELECT position, id, stream, version, type, data, metadata FROM events `

// insertSQL leaves the position to SQLite, which gives a row without one the largest rowid + 1:
// the plan's positions, as it inserts them in order after the head it read (insert checks).
// A given INTEGER PRIMARY KEY, or a refused row under the default ABORT, makes SQLite able to
// undo one multi-row statement alone: it copied every page the statement touched into a statement
// journal first, a temporary file past 64 KiB, two pwrite calls a page (32 rows of random ids and
// streams touch about 60 pages). OR ROLLBACK ends the whole transaction instead, which tx rolls
// back anyway.
const (
	insertSQL = `INSERT OR ROLLBACK INTO events (id, stream, version, type, data, metadata) VALUES `
	values    = `(?, ?, ?, ?, ?, ?)`
)

var (
	_ events.Store         = (*Store)(nil)
	_ events.Checkpoints   = (*Store)(nil)
	_ events.SnapshotStore = (*Store)(nil)
)

// Open opens (creating if needed) the event store in the SQLite file at path.
func Open(ctx context.Context, path string) (*Store, error) {
	if path == "" || strings.ContainsAny(path, "?#") || strings.HasPrefix(path, ":memory:") {
		return nil, fmt.Errorf("sqlite events: unsupported path %q (need a file path without ? or #)", path)
	}
	// synchronous(FULL): an acknowledged append survives power loss, not only a crash.
	// The WAL-buffering VFS writes a commit's frames in one call instead of two per page.
	db, err := sqlitedb.OpenWALBuffered(path, "busy_timeout=10000", "journal_mode=WAL", "synchronous=FULL",
		fmt.Sprintf("wal_autocheckpoint=%d", autoCheckpoint))
	if err != nil {
		return nil, fmt.Errorf("sqlite events: open %s: %w", path, err)
	}
	db.SetMaxOpenConns(8)
	db.SetMaxIdleConns(8)
	s := &Store{db: db, ckptEnd: make(chan struct{}), known: map[string]int64{}, knownHead: -1}
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
		// Every first load of a stream looks for its snapshot, mostly finding none; parsing the
		// SQL was half that lookup's cost.
		{&s.reads.snapshot, backend.LoadSnapshotSQL},
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
		{&s.stmts.insert, insertSQL + values},
		{&s.stmts.insertMany, insertSQL + strings.Repeat(values+", ", insertRows-1) + values},
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
// A batch planned on what the writer knew that then meets a stored event id (a retry) is
// planned again in a new transaction with every lookup, which answers the retry.
func (s *Store) write(batch []*backend.Request) ([]*backend.Request, error) {
	pending, err := s.tx(batch, true)
	if errors.Is(err, errUntrusted) {
		return s.tx(pending, false)
	}
	return pending, err
}

// errUntrusted: a batch planned without looking up its event ids hit a stored one.
var errUntrusted = errors.New("sqlite events: batch holds a stored event id")

// tx runs one transaction for batch, trusting the writer's knowledge if trust (see plan).
func (s *Store) tx(batch []*backend.Request, trust bool) ([]*backend.Request, error) {
	ctx := context.Background() // a begun transaction is finished; callers' contexts are checked in the plan
	if _, err := s.wconn.ExecContext(ctx, "BEGIN IMMEDIATE"); err != nil {
		return batch, fmt.Errorf("sqlite events: begin: %w", err)
	}
	plan, trusted, err := s.plan(ctx, batch, trust)
	if err != nil {
		s.rollback(ctx)
		return batch, err
	}
	if err := s.insert(ctx, plan.Rows); err != nil {
		s.rollback(ctx)
		if sqlitedb.IsUnique(err) {
			if trusted {
				return plan.Accepted(), errUntrusted
			}
			// Only another writer that skipped BEGIN IMMEDIATE could get here.
			return plan.Accepted(), fmt.Errorf("sqlite events: insert: %w", events.ErrWrongExpectedVersion)
		}
		return plan.Accepted(), fmt.Errorf("sqlite events: insert: %w", err)
	}
	if len(plan.Rows) == 0 {
		_, _ = s.wconn.ExecContext(ctx, "ROLLBACK")
		plan.Commit()
		return nil, nil
	}
	if _, err := s.wconn.ExecContext(ctx, "COMMIT"); err != nil {
		s.rollback(ctx)
		return plan.Accepted(), fmt.Errorf("sqlite events: commit: %w", err)
	}
	s.knownHead = plan.Rows[len(plan.Rows)-1].Position
	s.recent.add(plan.Rows) // before the readers are woken
	s.w.Counted(len(plan.Rows))
	plan.Commit()
	s.w.Notify()
	return nil, nil
}

// rollback ends a failed transaction; what the writer knew may not hold after it.
func (s *Store) rollback(ctx context.Context) {
	_, _ = s.wconn.ExecContext(ctx, "ROLLBACK")
	s.knownHead = -1
	clear(s.known)
}

// insert writes rows with the multi-row statement, the rest one by one.
func (s *Store) insert(ctx context.Context, rows []backend.Row) error {
	args := make([]any, 0, 6*insertRows)
	for len(rows) > 0 {
		st, n := s.stmts.insertMany, insertRows
		if len(rows) < insertRows {
			st, n = s.stmts.insert, 1
		}
		args = args[:0]
		for _, r := range rows[:n] {
			args = append(args, r.ID[:], r.Stream, r.Version, r.Type, r.Data, string(r.Metadata))
		}
		res, err := st.ExecContext(ctx, args...)
		if err != nil {
			return fmt.Errorf("%s v%d: %w", rows[0].Stream, rows[0].Version, err)
		}
		if last, err := res.LastInsertId(); err != nil || last != rows[n-1].Position {
			return fmt.Errorf("%s v%d: stored at position %d (%v), planned at %d", rows[n-1].Stream, rows[n-1].Version, last, err, rows[n-1].Position)
		}
		rows = rows[n:]
	}
	return nil
}

// plan reads the state the batch's checks need, inside the transaction, and checks the batch.
//
// If trust and the head is still the one this writer's last commit left, nobody else wrote since
// and the stream versions the writer remembers are current: it reads only the versions of streams
// it does not know, and looks up no event ids, as long as every append's expected version holds
// (an append that would be refused may be a retry, which only the lookups tell from a conflict).
// The inserts then prove the ids new (UNIQUE (id)); trusted reports that this shortcut was taken.
// The lookups were two statements per event, the larger part of the writer's CPU.
func (s *Store) plan(ctx context.Context, batch []*backend.Request, trust bool) (plan *backend.Plan, trusted bool, err error) {
	var head int64
	if err := s.stmts.head.QueryRowContext(ctx).Scan(&head); err != nil {
		return nil, false, fmt.Errorf("sqlite events: read head: %w", err)
	}
	if head != s.knownHead || len(s.known) > maxKnown {
		s.knownHead = -1
		clear(s.known)
	}
	streams, ids := backend.Keys(batch)
	for _, st := range streams {
		if _, ok := s.known[st]; ok {
			continue
		}
		var v int64
		if err := s.stmts.version.QueryRowContext(ctx, st).Scan(&v); err != nil {
			return nil, false, fmt.Errorf("sqlite events: read version of %s: %w", st, err)
		}
		s.known[st] = v
	}
	// Whatever happens next, what the writer knows holds again only after a commit.
	s.knownHead = -1
	versions := make(map[string]int64, len(streams))
	for _, st := range streams {
		versions[st] = s.known[st]
	}
	stored := map[uuid.UUID]backend.Stored{}
	if !trust || !expectedHold(batch, versions) {
		for _, id := range ids {
			var x backend.Stored
			err := s.stmts.lookup.QueryRowContext(ctx, id[:]).Scan(&x.Stream, &x.Version, &x.Position)
			switch {
			case errors.Is(err, sql.ErrNoRows):
			case err != nil:
				return nil, false, fmt.Errorf("sqlite events: look up event %s: %w", id, err)
			default:
				stored[id] = x
			}
		}
		trust = false
	}
	plan = backend.NewPlan(head, batch, versions, stored, time.Now())
	maps.Copy(s.known, versions) // NewPlan left the versions after the batch
	return plan, trust, nil
}

// expectedHold reports whether every append of batch, in order, expects the version its stream
// is at (or any version), given the versions before the batch.
func expectedHold(batch []*backend.Request, versions map[string]int64) bool {
	after := make(map[string]int64, len(versions))
	for _, r := range batch {
		cur, ok := after[r.Stream]
		if !ok {
			cur = versions[r.Stream]
		}
		if r.Expected != events.AnyVersion && r.Expected != cur {
			return false
		}
		after[r.Stream] = cur + int64(len(r.Events))
	}
	return true
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
	select {
	case <-s.w.Closed(): // answered by the file, as it answers a closed store
	default:
		if evs, ok := s.recent.read(afterPosition, limit); ok {
			return evs, nil
		}
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
	// The id and metadata are decoded from the driver's bytes, not copies of their own.
	var id, meta sql.RawBytes
	for rows.Next() {
		var e events.RecordedEvent
		if err := rows.Scan(&e.Position, &id, &e.Stream, &e.Version, &e.Type, &e.Data, &meta); err != nil {
			return nil, fmt.Errorf("sqlite events: scan: %w", err)
		}
		var err error
		if e.ID, err = uuid.FromBytes(id); err != nil {
			return nil, fmt.Errorf("sqlite events: event at %d: %w", e.Position, err)
		}
		if e.Metadata, err = backend.UnmarshalMetadata(meta); err != nil {
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
		s.closeErr = errors.Join(s.reads.stream.Close(), s.reads.streamAfter.Close(), s.reads.all.Close(), s.reads.head.Close(), s.reads.snapshot.Close(), s.wconn.Close(), s.db.Close())
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
