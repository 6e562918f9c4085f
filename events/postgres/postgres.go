// Package postgres is the events.Store on PostgreSQL (pgx v5).
//
// Gap-free positions under concurrent writers: every write transaction first takes one
// transaction-scoped advisory lock, then assigns positions max+1.. and commits, releasing the lock.
// Transactions that write events therefore commit one after another in position order (also across
// processes and Store instances on one database), so a reader can never see position n+1 while n
// is still uncommitted: ReadAll and Subscribe never skip an event that commits late.
//
// Throughput comes from group commit: one writer goroutine per Store takes every append waiting
// in its queue and sends them as one call of a PL/pgSQL function, in one implicit transaction: it
// takes the lock, checks every expected version, inserts the accepted events with one statement
// and commits with one fsync. One round trip, and the lock is never held across the network.
// Appends the function refuses (conflicts, or retries of stored event ids with a stale expected
// version) and batches it cannot take go through a client-planned transaction (backend.NewPlan)
// that answers retries with the stored result.
package postgres

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/events/internal/backend"
	"github.com/lotbook/lotbook/events/postgres/pgnet"
)

const (
	maxBatchEvents = 8192
	pageSize       = 1000
	pollInterval   = time.Second // only matters when a notification was lost
	writeTimeout   = 30 * time.Second
	notifyChannel  = "lotbook_events"
	// Advisory lock keys: appends serialize on appendLock; schema creation on schemaLock.
	appendLock int64 = 0x6c6f74626f6f6b01
	schemaLock int64 = 0x6c6f74626f6f6b02
)

const schema = `
CREATE TABLE IF NOT EXISTS events (
	position bigint PRIMARY KEY,
	id       uuid   NOT NULL UNIQUE,
	stream   text   NOT NULL,
	version  bigint NOT NULL,
	type     text   NOT NULL,
	data     bytea  NOT NULL,
	metadata jsonb  NOT NULL,
	UNIQUE (stream, version)
);
CREATE TABLE IF NOT EXISTS process_checkpoints (
	name     text   PRIMARY KEY,
	position bigint NOT NULL,
	state    bytea  NOT NULL
);
CREATE TABLE IF NOT EXISTS snapshots (
	stream   text   PRIMARY KEY,
	version  bigint NOT NULL,
	position bigint NOT NULL,
	schema   text   NOT NULL,
	state    bytea  NOT NULL
)`

// appendFunction is the group commit's fast path: one statement, in its own implicit transaction,
// that takes the append lock, checks every request's expected version against the database and
// the requests before it in the batch, inserts the accepted events with positions max+1.. and
// notifies listeners. The lock is held only while the server runs it and flushes the commit, never
// across a round trip to the client. A batch holding an already stored event id fails on the
// unique index of id and goes to the client-planned path, which answers retries.
//
// p_lock is the append lock's key. p_known_head is the head this Store's writer left after its
// last write; when the head is still there, nobody else wrote since, and the stream versions the
// writer remembers (p_known, -1 when unknown) are current and need no index lookup. Per request:
// p_streams, p_prev (index of the batch's previous request to the same stream, 0 if none),
// p_expected, p_counts, p_known. Per event: its request, its index in the request, its stream and
// its columns. Returns per request: accepted, the stream's version after it, the position of its
// last event (0 when refused), whether the known versions held, and the head after the batch.
const appendFunction = `
CREATE OR REPLACE FUNCTION lotbook_append_v1(p_lock bigint, p_known_head bigint,
	p_streams text[], p_prev int[], p_expected bigint[], p_counts int[], p_known bigint[],
	p_ev_req int[], p_ev_ord int[], p_ev_stream text[],
	p_ids uuid[], p_types text[], p_data bytea[], p_meta jsonb[])
RETURNS TABLE (accepted boolean, version bigint, pos bigint, known_held boolean, head bigint)
LANGUAGE plpgsql AS $fn$
DECLARE
	nreq int := cardinality(p_streams);
	h bigint;
	held boolean;
	cur bigint;
	dbv bigint[];
	after_v bigint[] := array_fill(0::bigint, ARRAY[nreq]);
	base_v bigint[] := array_fill(NULL::bigint, ARRAY[nreq]);
	base_p bigint[] := array_fill(NULL::bigint, ARRAY[nreq]);
BEGIN
	PERFORM pg_advisory_xact_lock(p_lock);
	SELECT coalesce(max(e.position), 0) INTO h FROM events e;
	held := h = p_known_head;
	SELECT array_agg(CASE
			WHEN t.prev <> 0 THEN NULL
			WHEN held AND t.k >= 0 THEN t.k
			ELSE coalesce((SELECT max(e.version) FROM events e WHERE e.stream = t.s), 0)
		END ORDER BY t.ord)
	  INTO dbv FROM unnest(p_streams, p_prev, p_known) WITH ORDINALITY AS t(s, prev, k, ord);
	FOR r IN 1 .. nreq LOOP
		IF p_prev[r] = 0 THEN cur := dbv[r]; ELSE cur := after_v[p_prev[r]]; END IF;
		IF p_expected[r] = -1 OR p_expected[r] = cur THEN
			base_v[r] := cur;
			base_p[r] := h;
			h := h + p_counts[r];
			cur := cur + p_counts[r];
		END IF;
		after_v[r] := cur;
	END LOOP;
	INSERT INTO events (position, id, stream, version, type, data, metadata)
	SELECT base_p[u.r] + u.o, u.id, u.s, base_v[u.r] + u.o, u.t, u.d, u.m
	  FROM unnest(p_ev_req, p_ev_ord, p_ev_stream, p_ids, p_types, p_data, p_meta) AS u(r, o, s, id, t, d, m)
	 WHERE base_v[u.r] IS NOT NULL;
	IF FOUND THEN
		PERFORM pg_notify('` + notifyChannel + `', h::text);
	END IF;
	RETURN QUERY SELECT base_v[t.r] IS NOT NULL, after_v[t.r], coalesce(base_p[t.r] + p_counts[t.r], 0), held, h
	  FROM generate_subscripts(p_streams, 1) AS t(r) ORDER BY t.r;
END
$fn$`

const sqlAppend = `SELECT accepted, version, pos, known_held, head
	FROM lotbook_append_v1($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`

// Statements of the writer's two round trips.
const (
	sqlLock     = `SELECT pg_advisory_xact_lock($1)`
	sqlHead     = `SELECT coalesce(max(position), 0) FROM events`
	sqlVersions = `SELECT s, coalesce((SELECT max(version) FROM events WHERE stream = s), 0) FROM unnest($1::text[]) AS s`
	sqlStored   = `SELECT id, stream, version, position FROM events WHERE id = ANY($1::uuid[])`
	sqlInsert   = `INSERT INTO events (position, id, stream, version, type, data, metadata)
		SELECT * FROM unnest($1::bigint[], $2::uuid[], $3::text[], $4::bigint[], $5::text[], $6::bytea[], $7::jsonb[])`
	sqlNotify = `SELECT pg_notify('` + notifyChannel + `', $1)`
)

// Store is an events.Store on one PostgreSQL database.
type Store struct {
	backend.Appender // Append, Subscribe (shadowed below), Stats

	pool *pgxpool.Pool
	w    *backend.Writer

	listenOnce   sync.Once
	listenCancel context.CancelFunc
	listenEnd    chan struct{}

	closeOnce sync.Once

	// known is what the writer goroutine (its only user) knows of the stream versions as of
	// knownHead, the head its last write left; knownHead -1 knows nothing.
	known     map[string]int64
	knownHead int64
}

// maxKnown bounds the remembered stream versions; past it the writer forgets them all.
const maxKnown = 100_000

var (
	_ events.Store         = (*Store)(nil)
	_ events.Checkpoints   = (*Store)(nil)
	_ events.SnapshotStore = (*Store)(nil)
)

// Open connects to the database at dsn (a pgx connection string; pool_max_conns defaults to 8)
// and creates the events table if absent.
func Open(ctx context.Context, dsn string) (*Store, error) {
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		return nil, fmt.Errorf("postgres events: parse dsn: %w", err)
	}
	if !strings.Contains(dsn, "pool_max_conns") {
		cfg.MaxConns = 8 // the writer, the listener and readers
	}
	pgnet.Configure(&cfg.ConnConfig.Config, dsn)
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("postgres events: connect: %w", err)
	}
	if err := createSchema(ctx, pool); err != nil {
		pool.Close()
		return nil, err
	}
	s := &Store{pool: pool, listenEnd: make(chan struct{}), known: map[string]int64{}, knownHead: -1}
	s.w = backend.NewWriter(maxBatchEvents, s.commit, s.ReadAll, pageSize, pollInterval)
	s.Appender = s.w.Appender()
	return s, nil
}

func createSchema(ctx context.Context, pool *pgxpool.Pool) error {
	// Concurrent CREATE TABLE IF NOT EXISTS can still collide in the catalog; the lock orders them.
	err := pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, schemaLock); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, schema); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, appendFunction)
		return err
	})
	if err != nil {
		return fmt.Errorf("postgres events: create schema: %w", err)
	}
	return nil
}

// commit writes one batch: in one statement when it can (fast), else planned by the client.
func (s *Store) commit(batch []*backend.Request) {
	live := batch[:0:0]
	for _, r := range batch {
		if err := r.Ctx.Err(); err != nil {
			r.Done(events.AppendResult{}, fmt.Errorf("append to %s: %w", r.Stream, err))
			continue
		}
		live = append(live, r)
	}
	if len(live) == 0 {
		return
	}
	if s.direct(live) {
		return
	}
	if err := s.fast(live); err != nil {
		if !errors.Is(err, errRetry) {
			slog.Warn("postgres events: batch statement failed, planning it on the client", "appends", len(live), "err", err)
		}
		s.planned(live)
	}
}

// direct writes a batch whose checks this writer can make alone: it knows the head and the
// version of every stream the batch appends to (or the append creates a stream), as of its own
// last write, and nobody else has written since if that write is still the head. It then assigns
// positions and versions itself and sends the lock, one INSERT and the notification in one
// pipeline, which PostgreSQL runs as one implicit transaction: one round trip and no PL/pgSQL.
// The function's fixed cost per call (about 0.25 ms of server CPU, measured) was most of the
// server's work per event at the batch sizes of 64 writers.
//
// Whether the writer's knowledge held is proved by the INSERT itself: if anyone else wrote, the
// position after the known head is taken (primary key) and a stream the batch creates may exist
// (UNIQUE (stream, version)); either violation rolls the transaction back and the batch goes to
// the function path, which reads the database's state. It reports false, having answered
// nobody and written nothing, when the batch needs that path.
func (s *Store) direct(batch []*backend.Request) bool {
	if s.knownHead < 0 {
		return false
	}
	nev := 0
	for _, r := range batch {
		nev += len(r.Events)
	}
	pos, ver := make([]int64, 0, nev), make([]int64, 0, nev)
	ids, streams := make([]pgtype.UUID, 0, nev), make([]string, 0, nev)
	types, data, metas := make([]string, 0, nev), make([][]byte, 0, nev), make([]string, 0, nev)
	after := make(map[string]int64, len(batch)) // stream versions after the batch's requests so far
	seen := make(map[uuid.UUID]struct{}, nev)
	results := make([]events.AppendResult, 0, len(batch))
	var accepted, refused []*backend.Request
	head := s.knownHead
	now := time.Now()
	for _, r := range batch {
		cur, ok := after[r.Stream]
		if !ok {
			cur, ok = s.known[r.Stream]
		}
		if !ok {
			if r.Expected != events.NoStream {
				return false // the stream's version is unknown here
			}
			cur = 0 // a new stream, unless UNIQUE (stream, version) says otherwise
		}
		if r.Expected != events.AnyVersion && r.Expected != cur {
			refused = append(refused, r) // a conflict or a retry: the planned path tells them apart
			continue
		}
		for _, e := range r.Events {
			if _, dup := seen[e.ID]; dup {
				return false // a retry racing its original in one batch
			}
			seen[e.ID] = struct{}{}
			meta, err := backend.MarshalMetadata(e.Metadata, now)
			if err != nil {
				return false
			}
			head++
			cur++
			pos, ver, streams, types = append(pos, head), append(ver, cur), append(streams, r.Stream), append(types, e.Type)
			ids, data, metas = append(ids, pgtype.UUID{Bytes: e.ID, Valid: true}), append(data, backend.NonNil(e.Data)), append(metas, string(meta))
		}
		after[r.Stream] = cur
		accepted = append(accepted, r)
		results = append(results, events.AppendResult{Version: cur, Position: head, Written: true})
	}
	if len(accepted) == 0 {
		return false
	}
	ctx, cancel := context.WithTimeout(context.Background(), writeTimeout)
	defer cancel()
	b := &pgx.Batch{}
	b.Queue(sqlLock, appendLock)
	b.Queue(sqlInsert, pos, ids, streams, ver, types, data, metas)
	b.Queue(sqlNotify, strconv.FormatInt(head, 10))
	br := s.pool.SendBatch(ctx, b)
	_, errLock := br.Exec()
	tag, errInsert := br.Exec()
	_, errNotify := br.Exec()
	err := errors.Join(errLock, errInsert, errNotify, br.Close())
	if err == nil && tag.RowsAffected() != int64(len(pos)) {
		err = fmt.Errorf("inserted %d of %d events", tag.RowsAffected(), len(pos))
	}
	if err != nil {
		// Someone else wrote, a stored event id came again, or the database failed: the
		// function path reads the state and answers (nothing was written).
		var pgErr *pgconn.PgError
		if !errors.As(err, &pgErr) || pgErr.Code != "23505" {
			slog.Warn("postgres events: direct batch failed, trying the batch statement", "appends", len(batch), "err", err)
		}
		s.knownHead = -1
		clear(s.known)
		return false
	}
	if len(s.known) > maxKnown {
		clear(s.known)
	}
	for st, v := range after {
		s.known[st] = v
	}
	s.knownHead = head
	s.w.Counted(len(pos))
	for i, r := range accepted {
		r.Done(results[i], nil)
	}
	s.w.Notify()
	if len(refused) > 0 {
		s.planned(refused)
	}
	return true
}

// errRetry sends a batch holding already stored event ids to the planned path, which answers them.
var errRetry = errors.New("postgres events: batch holds stored event ids")

// fast runs the batch as one call of lotbook_append_v1 and hands the appends it refused to the
// planned path. On error it has answered no request and written nothing.
func (s *Store) fast(batch []*backend.Request) error {
	nev := 0
	for _, r := range batch {
		nev += len(r.Events)
	}
	streams, prev := make([]string, len(batch)), make([]int32, len(batch))
	expected, counts, known := make([]int64, len(batch)), make([]int32, len(batch)), make([]int64, len(batch))
	evReq, evOrd, evStream := make([]int32, 0, nev), make([]int32, 0, nev), make([]string, 0, nev)
	ids, types, data, metas := make([]pgtype.UUID, 0, nev), make([]string, 0, nev), make([][]byte, 0, nev), make([]string, 0, nev)
	last := map[string]int32{}
	seen := make(map[uuid.UUID]struct{}, nev)
	now := time.Now()
	for i, r := range batch {
		streams[i], prev[i], expected[i], counts[i] = r.Stream, last[r.Stream], r.Expected, int32(len(r.Events))
		last[r.Stream] = int32(i + 1)
		if v, ok := s.known[r.Stream]; ok {
			known[i] = v
		} else {
			known[i] = -1
		}
		for j, e := range r.Events {
			if _, dup := seen[e.ID]; dup {
				return errRetry // a retry racing its original in one batch
			}
			seen[e.ID] = struct{}{}
			meta, err := backend.MarshalMetadata(e.Metadata, now)
			if err != nil {
				return err
			}
			evReq, evOrd, evStream = append(evReq, int32(i+1)), append(evOrd, int32(j+1)), append(evStream, r.Stream)
			ids, types, data, metas = append(ids, pgtype.UUID{Bytes: e.ID, Valid: true}), append(types, e.Type), append(data, backend.NonNil(e.Data)), append(metas, string(meta))
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), writeTimeout)
	defer cancel()
	// Whatever happens next, the versions known now may not hold after it unless it succeeds.
	knownHead := s.knownHead
	s.knownHead = -1
	rows, err := s.pool.Query(ctx, sqlAppend, appendLock, knownHead, streams, prev, expected, counts, known,
		evReq, evOrd, evStream, ids, types, data, metas)
	if err != nil {
		return batchErr(err)
	}
	type outcome struct {
		ok, held       bool
		ver, pos, head int64
	}
	out := make([]outcome, 0, len(batch))
	var o outcome
	// ForEachRow reads to the end of the statement, its commit included, before answering anyone.
	if _, err := pgx.ForEachRow(rows, []any{&o.ok, &o.ver, &o.pos, &o.held, &o.head}, func() error { out = append(out, o); return nil }); err != nil {
		return batchErr(err)
	}
	if len(out) != len(batch) {
		return fmt.Errorf("postgres events: append batch answered %d of %d appends", len(out), len(batch))
	}
	if !out[0].held || len(s.known) > maxKnown {
		clear(s.known) // another writer moved the head: what we knew may be stale
	}
	for i, r := range batch {
		s.known[r.Stream] = out[i].ver // in batch order, so the last request to a stream wins
	}
	s.knownHead = out[0].head
	written := 0
	for i, r := range batch {
		if out[i].ok {
			written += len(r.Events)
		}
	}
	if written > 0 {
		s.w.Counted(written)
	}
	var refused []*backend.Request
	for i, r := range batch {
		if out[i].ok {
			r.Done(events.AppendResult{Version: out[i].ver, Position: out[i].pos, Written: true}, nil)
		} else {
			refused = append(refused, r)
		}
	}
	if written > 0 {
		s.w.Notify()
	}
	if len(refused) > 0 {
		// A refused append is a conflict or a retry of stored events with a stale expected
		// version; the planned path tells them apart.
		s.planned(refused)
	}
	return nil
}

func batchErr(err error) error {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Code == "23505" && pgErr.ConstraintName == "events_id_key" {
		return errRetry
	}
	return fmt.Errorf("postgres events: append batch: %w", err)
}

// planned writes a batch with the checks planned on the client (backend.NewPlan), which also
// answers retries of stored events. If the transaction fails as a whole, each request it had not
// answered is retried alone, so that one bad append cannot fail the others; a retry of an append
// that did commit after all (a lost COMMIT reply) finds its event ids and answers as a retry.
// Alone, a unique violation is the final optimistic concurrency guard.
func (s *Store) planned(batch []*backend.Request) {
	s.knownHead = -1 // this path writes without keeping the known versions
	pending, err := s.write(batch)
	if err == nil {
		return
	}
	if len(batch) == 1 {
		var pgErr *pgconn.PgError
		if errors.As(err, &pgErr) && pgErr.Code == "23505" {
			err = fmt.Errorf("%w (%s)", events.ErrWrongExpectedVersion, pgErr.ConstraintName)
		}
		for _, r := range pending {
			r.Done(events.AppendResult{}, fmt.Errorf("append to %s: %w", r.Stream, err))
		}
		return
	}
	slog.Warn("postgres events: batch failed, retrying its appends one by one", "appends", len(pending), "err", err)
	for _, r := range pending {
		s.planned([]*backend.Request{r})
	}
}

// write runs one transaction for batch in two round trips. On error it returns the requests it has
// not answered.
func (s *Store) write(batch []*backend.Request) ([]*backend.Request, error) {
	ctx, cancel := context.WithTimeout(context.Background(), writeTimeout)
	defer cancel()
	conn, err := s.pool.Acquire(ctx)
	if err != nil {
		return batch, fmt.Errorf("postgres events: acquire writer connection: %w", err)
	}
	defer func() {
		if conn.Conn().PgConn().TxStatus() != 'I' {
			if _, err := conn.Exec(ctx, "ROLLBACK"); err != nil {
				_ = conn.Conn().Close(ctx) // the pool drops it on Release
			}
		}
		conn.Release()
	}()

	plan, err := s.plan(ctx, conn.Conn(), batch)
	if err != nil {
		return batch, err
	}
	if len(plan.Rows) == 0 {
		// Nothing to write: every request was refused or is a retry of stored events.
		if _, err := conn.Exec(ctx, "ROLLBACK"); err != nil {
			return plan.Accepted(), fmt.Errorf("postgres events: rollback: %w", err)
		}
		plan.Commit()
		return nil, nil
	}
	if err := s.insert(ctx, conn.Conn(), plan.Rows); err != nil {
		return plan.Accepted(), err
	}
	s.w.Counted(len(plan.Rows))
	plan.Commit()
	s.w.Notify()
	return nil, nil
}

// plan begins the transaction, takes the append lock, reads the head, the versions of the batch's
// streams and which of its event ids are stored, and checks the batch against them.
func (s *Store) plan(ctx context.Context, conn *pgx.Conn, batch []*backend.Request) (*backend.Plan, error) {
	streams, ids := backend.Keys(batch)
	b := &pgx.Batch{}
	b.Queue("BEGIN")
	b.Queue(sqlLock, appendLock)
	b.Queue(sqlHead)
	b.Queue(sqlVersions, streams)
	b.Queue(sqlStored, pgUUIDs(ids))
	br := conn.SendBatch(ctx, b)
	defer br.Close()
	for range 2 {
		if _, err := br.Exec(); err != nil {
			return nil, fmt.Errorf("postgres events: begin and lock: %w", err)
		}
	}
	var head int64
	if err := br.QueryRow().Scan(&head); err != nil {
		return nil, fmt.Errorf("postgres events: read head: %w", err)
	}
	versions := make(map[string]int64, len(streams))
	rows, err := br.Query()
	if err != nil {
		return nil, fmt.Errorf("postgres events: read stream versions: %w", err)
	}
	var name string
	var v int64
	if _, err := pgx.ForEachRow(rows, []any{&name, &v}, func() error { versions[name] = v; return nil }); err != nil {
		return nil, fmt.Errorf("postgres events: read stream versions: %w", err)
	}
	stored := map[uuid.UUID]backend.Stored{}
	rows, err = br.Query()
	if err != nil {
		return nil, fmt.Errorf("postgres events: look up event ids: %w", err)
	}
	var id pgtype.UUID
	var x backend.Stored
	if _, err := pgx.ForEachRow(rows, []any{&id, &x.Stream, &x.Version, &x.Position}, func() error { stored[id.Bytes] = x; return nil }); err != nil {
		return nil, fmt.Errorf("postgres events: look up event ids: %w", err)
	}
	if err := br.Close(); err != nil {
		return nil, fmt.Errorf("postgres events: read state: %w", err)
	}
	return backend.NewPlan(head, batch, versions, stored, time.Now()), nil
}

// insert writes the rows, notifies listeners and commits, in one round trip.
func (s *Store) insert(ctx context.Context, conn *pgx.Conn, rows []backend.Row) error {
	n := len(rows)
	pos, ver := make([]int64, n), make([]int64, n)
	ids := make([]pgtype.UUID, n)
	streams, types, metas := make([]string, n), make([]string, n), make([]string, n)
	data := make([][]byte, n)
	for i, r := range rows {
		pos[i], ids[i], streams[i], ver[i], types[i], data[i], metas[i] = r.Position, pgtype.UUID{Bytes: r.ID, Valid: true}, r.Stream, r.Version, r.Type, r.Data, string(r.Metadata)
	}
	b := &pgx.Batch{}
	b.Queue(sqlInsert, pos, ids, streams, ver, types, data, metas)
	b.Queue(sqlNotify, strconv.FormatInt(rows[n-1].Position, 10))
	b.Queue("COMMIT")
	br := conn.SendBatch(ctx, b)
	for _, step := range []string{"insert", "notify", "commit"} {
		if _, err := br.Exec(); err != nil {
			_ = br.Close()
			return fmt.Errorf("postgres events: %s %d events: %w", step, n, err)
		}
	}
	if err := br.Close(); err != nil {
		return fmt.Errorf("postgres events: commit %d events: %w", n, err)
	}
	return nil
}

const selectEvents = `SELECT position, id, stream, version, type, data, metadata FROM events `

// ReadStream implements events.Store.
func (s *Store) ReadStream(ctx context.Context, stream string, afterVersion int64) ([]events.RecordedEvent, error) {
	rows, err := s.pool.Query(ctx, selectEvents+`WHERE stream = $1 AND version > $2 ORDER BY version`, stream, afterVersion)
	if err != nil {
		return nil, s.w.ReadErr(fmt.Errorf("postgres events: read %s: %w", stream, err))
	}
	out, err := scan(rows)
	if err != nil {
		return nil, s.w.ReadErr(fmt.Errorf("postgres events: read %s: %w", stream, err))
	}
	return out, nil
}

// ReadStreamAfter implements events.Store. It orders by version so that the (stream, version)
// index drives the scan; within one stream position grows with version.
func (s *Store) ReadStreamAfter(ctx context.Context, stream string, afterPosition int64, limit int) ([]events.RecordedEvent, error) {
	if limit <= 0 {
		return nil, fmt.Errorf("postgres events: read %s: limit %d must be positive", stream, limit)
	}
	rows, err := s.pool.Query(ctx, selectEvents+`WHERE stream = $1 AND position > $2 ORDER BY version LIMIT $3`, stream, afterPosition, limit)
	if err != nil {
		return nil, s.w.ReadErr(fmt.Errorf("postgres events: read %s after %d: %w", stream, afterPosition, err))
	}
	out, err := scan(rows)
	if err != nil {
		return nil, s.w.ReadErr(fmt.Errorf("postgres events: read %s after %d: %w", stream, afterPosition, err))
	}
	return out, nil
}

// ReadAll implements events.Store.
func (s *Store) ReadAll(ctx context.Context, afterPosition int64, limit int) ([]events.RecordedEvent, error) {
	if limit <= 0 {
		return nil, fmt.Errorf("postgres events: read all: limit %d must be positive", limit)
	}
	rows, err := s.pool.Query(ctx, selectEvents+`WHERE position > $1 ORDER BY position LIMIT $2`, afterPosition, limit)
	if err != nil {
		return nil, s.w.ReadErr(fmt.Errorf("postgres events: read all after %d: %w", afterPosition, err))
	}
	out, err := scan(rows)
	if err != nil {
		return nil, s.w.ReadErr(fmt.Errorf("postgres events: read all after %d: %w", afterPosition, err))
	}
	return out, nil
}

// pgUUIDs converts ids for pgx's binary uuid encoding (uuid.UUID would go through its text form).
func pgUUIDs(ids []uuid.UUID) []pgtype.UUID {
	out := make([]pgtype.UUID, len(ids))
	for i, id := range ids {
		out[i] = pgtype.UUID{Bytes: id, Valid: true}
	}
	return out
}

func scan(rows pgx.Rows) ([]events.RecordedEvent, error) {
	var out []events.RecordedEvent
	var e events.RecordedEvent
	var id pgtype.UUID
	var meta []byte
	_, err := pgx.ForEachRow(rows, []any{&e.Position, &id, &e.Stream, &e.Version, &e.Type, &e.Data, &meta}, func() error {
		e.ID = id.Bytes
		m, err := backend.UnmarshalMetadata(meta)
		if err != nil {
			return fmt.Errorf("event at %d: %w", e.Position, err)
		}
		e.Metadata = m
		out = append(out, e)
		e.Data = nil // the next row must not share this one's buffer
		return nil
	})
	return out, err
}

// Head implements events.Store.
func (s *Store) Head(ctx context.Context) (int64, error) {
	var h int64
	if err := s.pool.QueryRow(ctx, sqlHead).Scan(&h); err != nil {
		return 0, s.w.ReadErr(fmt.Errorf("postgres events: head: %w", err))
	}
	return h, nil
}

// Subscribe implements events.Store: catch-up by ReadAll pages, then woken by LISTEN/NOTIFY (the
// notification is sent in each write transaction, so every process's commits wake it), with a
// one-second poll in case a notification is lost.
func (s *Store) Subscribe(ctx context.Context, afterPosition int64, handle func(context.Context, []events.RecordedEvent) error) error {
	s.listenOnce.Do(s.startListener)
	return s.Appender.Subscribe(ctx, afterPosition, handle)
}

func (s *Store) startListener() {
	ctx, cancel := context.WithCancel(context.Background())
	s.listenCancel = cancel
	go func() {
		defer close(s.listenEnd)
		for {
			err := s.listen(ctx)
			if ctx.Err() != nil {
				return
			}
			slog.Warn("postgres events: LISTEN connection lost, reconnecting", "err", err)
			select {
			case <-ctx.Done():
				return
			case <-time.After(time.Second):
			}
		}
	}()
}

// listen holds one connection in LISTEN and wakes subscribers on every notification.
func (s *Store) listen(ctx context.Context) error {
	conn, err := s.pool.Acquire(ctx)
	if err != nil {
		return fmt.Errorf("acquire: %w", err)
	}
	defer conn.Release()
	if _, err := conn.Exec(ctx, "LISTEN "+notifyChannel); err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	// Drop the connection's LISTEN state before it goes back to the pool.
	defer func() { _ = conn.Conn().Close(context.Background()) }()
	s.w.Notify() // commits made while not listening
	for {
		if _, err := conn.Conn().WaitForNotification(ctx); err != nil {
			return fmt.Errorf("wait for notification: %w", err)
		}
		s.w.Notify()
	}
}

// Close stops the writer after the transaction in flight, the listener, and the pool. Safe to
// call twice.
func (s *Store) Close() error {
	s.closeOnce.Do(func() {
		s.w.Stop()
		s.listenOnce.Do(func() { close(s.listenEnd) }) // never started: nothing to wait for
		if s.listenCancel != nil {
			s.listenCancel()
		}
		<-s.listenEnd
		s.pool.Close()
	})
	return nil
}

// LoadCheckpoint implements events.Checkpoints.
func (s *Store) LoadCheckpoint(ctx context.Context, name string) (events.Checkpoint, error) {
	cp, err := backend.ScanCheckpoint(s.pool.QueryRow(ctx, `SELECT position, state FROM process_checkpoints WHERE name = $1`, name), pgx.ErrNoRows)
	if err != nil {
		return events.Checkpoint{}, s.w.ReadErr(fmt.Errorf("postgres events: load checkpoint %s: %w", name, err))
	}
	return cp, nil
}

// SaveCheckpoint implements events.Checkpoints.
func (s *Store) SaveCheckpoint(ctx context.Context, name string, cp events.Checkpoint) error {
	_, err := s.pool.Exec(ctx, `INSERT INTO process_checkpoints (name, position, state) VALUES ($1, $2, $3)
		ON CONFLICT (name) DO UPDATE SET position = excluded.position, state = excluded.state
		WHERE excluded.position >= process_checkpoints.position`, name, cp.Position, backend.NonNil(cp.State))
	if err != nil {
		return s.w.ReadErr(fmt.Errorf("postgres events: save checkpoint %s: %w", name, err))
	}
	return nil
}
