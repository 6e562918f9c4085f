// Package projections builds lotbook's read models from the event log: a Watermill router runs
// one projector per read model over the store's global feed, each applying pages of events in one
// read-model transaction together with its checkpoint; the read models of a member's account,
// which answers combine, apply each page together in one transaction. This package is the core:
// the runner, the read database and its dialects, tables and their row maps (RowMap), rebuilds
// and comparisons with a fresh replay, the journal of money lines, the account unit's read models
// and the idempotency records of the HTTP layer.
//
// A capability's read model is its own package under projections/ (config, favorites, funds, reviews):
//  1. declare each table's row once with RowMap and build its Table from it;
//  2. write a Projector (name, version, tables, the events it wants, a set-based Apply) and
//     register it from init: func init() { projections.Register(projector) }. A table kept by
//     one key is a Keyed (the rows its events change: Changes with KeyBy and On), and Apply
//     folds the page over its PageRows with FoldPage; members' login accounts and verified
//     names come from a Directory (AccountsDirectory, NamesDirectory);
//  3. write its queries as functions of a *Reader (QueryAll, QueryPage, QueryOne with a
//     Scanner; NewestFirst and QueueQuery for pages of lists);
//  4. test it on projtest (both databases, Compare with a replay, ApplyOneByOne for the page fold);
//  5. add its import to cmd/lotbook/readmodels.go, which pins every table's signature.
//
// Capability packages import the core, never each other (ops/archtest): they meet through events.
package projections

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"

	"github.com/lotbook/lotbook/events/postgres/pgnet"
	"github.com/lotbook/lotbook/events/sqlite/sqlitedb"
)

// ErrNotFound is returned by queries for a single row that does not exist.
var ErrNotFound = errors.New("projections: not found")

// ReadDB is the read-model database: SQLite (dataDir/read.db) or PostgreSQL.
type ReadDB struct {
	*Reader // queries on the read pool
	d       dialect
	w       *sql.DB // writes; on SQLite a single connection whose transactions are BEGIN IMMEDIATE
	r       *sql.DB // reads; the same pool as w on PostgreSQL
	idem    idemWriter
	// Prepared statements of r and w, on SQLite only (nil on PostgreSQL).
	rstmts, wstmts *stmtCache
	ckpt           *walCheckpointer // SQLite only
}

// checkpoints is the one table shared by all projectors: name -> position, plus the schema hash
// that the projector's tables were created with (a mismatch resets the projection on open).
const checkpointsDDL = `CREATE TABLE IF NOT EXISTS projection_checkpoints (
	name TEXT NOT NULL PRIMARY KEY,
	schema_hash TEXT NOT NULL,
	position BIGINT NOT NULL,
	updated_at BIGINT NOT NULL)`

// progressDDL is the row each projector instance (lotbook serve --role projector --partition
// part/parts) publishes its lowest checkpoint in, as it moves in memory (Runner.Publish):
// checkpoints of projectors that skipped pages reach projection_checkpoints only lazily. It
// replaced the one-row projection_progress of a single projector instance.
const progressDDL = `CREATE TABLE IF NOT EXISTS projection_progress_parts (
	part BIGINT NOT NULL,
	parts BIGINT NOT NULL,
	position BIGINT NOT NULL,
	updated_at BIGINT NOT NULL,
	PRIMARY KEY (part, parts))`

// OpenReadDB opens (and creates the schema of) the read-model database: SQLite in
// dataDir/read.db unless databaseURL names a PostgreSQL database.
func OpenReadDB(ctx context.Context, dataDir, databaseURL string) (*ReadDB, error) {
	return openReadDB(ctx, dataDir, databaseURL, nil)
}

// openReadDB is OpenReadDB; on PostgreSQL wrap, when not nil, wraps every connection it dials
// (tests count round trips with it).
func openReadDB(ctx context.Context, dataDir, databaseURL string, wrap func(net.Conn) net.Conn) (*ReadDB, error) {
	db := &ReadDB{idem: newIdemWriter()}
	if databaseURL != "" {
		cfg, err := pgx.ParseConfig(databaseURL)
		if err != nil {
			return nil, fmt.Errorf("open read db: %w", err)
		}
		if !strings.Contains(databaseURL, "default_query_exec_mode") {
			// One round trip per statement and no server-side prepared statement per distinct
			// multi-row upsert: arguments are plain strings, integers and bytes.
			cfg.DefaultQueryExecMode = pgx.QueryExecModeExec
		}
		pgnet.Configure(&cfg.Config, databaseURL)
		if dial := cfg.DialFunc; wrap != nil {
			cfg.DialFunc = func(ctx context.Context, network, addr string) (net.Conn, error) {
				c, err := dial(ctx, network, addr)
				if err != nil {
					return nil, err
				}
				return wrap(c), nil
			}
		}
		pg := stdlib.OpenDB(*cfg)
		pg.SetMaxOpenConns(16)
		pg.SetMaxIdleConns(16)
		db.d, db.w, db.r = dialect{postgres: true}, pg, pg
	} else {
		if err := os.MkdirAll(dataDir, 0o750); err != nil {
			return nil, fmt.Errorf("open read db: %w", err)
		}
		path := filepath.Join(dataDir, "read.db")
		// synchronous=NORMAL in WAL mode does not fsync each commit: the SQLite twin of
		// synchronous_commit=off. A crash loses at most the last commits, each whole with its
		// checkpoint, and the projector resumes from there.
		base := []string{"journal_mode=WAL", "busy_timeout=10000", "synchronous=NORMAL", "cache_size=-65536"}
		w := sqlitedb.Open(path, true, append(base, fmt.Sprintf("wal_autocheckpoint=%d", walAutoCheckpoint))...)
		w.SetMaxOpenConns(1) // SQLite has one writer; queueing in Go beats spinning on busy_timeout
		r := sqlitedb.Open(path, false, append(base, "query_only=1")...)
		r.SetMaxOpenConns(8)
		r.SetMaxIdleConns(8)
		ck := sqlitedb.Open(path, false, base...)
		ck.SetMaxOpenConns(1)
		db.d, db.w, db.r, db.ckpt = dialect{}, w, r, startWALCheckpointer(ck)
	}
	if err := db.w.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("open read db: %w", err)
	}
	if err := db.migrate(ctx); err != nil {
		db.Close()
		return nil, err
	}
	if !db.d.postgres {
		db.rstmts, db.wstmts = newStmtCache(db.r), newStmtCache(db.w)
		// Every projector page runs these; the write connection's statements are prepared now,
		// while no transaction holds it.
		for _, q := range []string{sqlLockCheckpoint, sqlSetCheckpoint} {
			if err := db.wstmts.prepare(ctx, q); err != nil {
				db.Close()
				return nil, fmt.Errorf("open read db: prepare %q: %w", q, err)
			}
		}
	}
	db.Reader = &Reader{d: db.d, r: db.r, stmts: db.rstmts}
	return db, nil
}

// Close closes the database.
func (db *ReadDB) Close() error {
	db.idem.close()
	db.rstmts.close()
	db.wstmts.close()
	err := errors.Join(db.ckpt.close(), db.w.Close())
	if db.r != db.w {
		err = errors.Join(err, db.r.Close())
	}
	return err
}

// writeTx runs fn in one read-model write transaction. On PostgreSQL it does not wait for the
// WAL flush: read models can always be rebuilt from the log, while event appends stay durable.
func (db *ReadDB) writeTx(ctx context.Context, fn func(w *Wtx) error) error {
	if db.d.postgres {
		return pgWriteTx(ctx, db.w, db.d, fn)
	}
	tx, err := db.w.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin read-model tx: %w", err)
	}
	// Deferred, so that a panic in fn (the projections router recovers it and retries the page)
	// does not leave the transaction open holding the write lock the retry waits for. After
	// Commit it is a no-op.
	defer tx.Rollback()
	w := &Wtx{tx: tx, d: db.d, stmts: db.wstmts}
	if err := fn(w); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("commit read-model tx: %w", err)
	}
	db.wstmts.prepareAll(ctx, w.unprepared)
	return nil
}

// migrate creates the shared tables and every projector's tables. A projector whose tables are
// missing or were created with another schema gets fresh tables and starts again from position
// 0: read models are caches of the log. The idempotency records are not a projection and are
// never dropped.
func (db *ReadDB) migrate(ctx context.Context) error {
	return db.writeTx(ctx, func(w *Wtx) error {
		if db.d.postgres {
			// Serializes concurrent openers (server and CLI) so that tables are created once.
			if err := w.Exec(ctx, "SELECT pg_advisory_xact_lock(7746210394)"); err != nil {
				return err
			}
		}
		if err := w.Exec(ctx, checkpointsDDL); err != nil {
			return err
		}
		if err := w.Exec(ctx, progressDDL); err != nil {
			return err
		}
		if err := w.Exec(ctx, "DROP TABLE IF EXISTS projection_progress"); err != nil {
			return err
		}
		if err := w.Exec(ctx, fmt.Sprintf(`CREATE TABLE IF NOT EXISTS idempotency_records (
			idem_key TEXT NOT NULL PRIMARY KEY, actor TEXT NOT NULL, request_hash TEXT NOT NULL,
			http_status BIGINT NOT NULL, body %s NOT NULL, created_at BIGINT NOT NULL)`, db.d.typeName(KindBlob))); err != nil {
			return err
		}
		for _, p := range projectors {
			hash, found, err := checkpointSchema(ctx, w, p.Name)
			if err != nil {
				return err
			}
			exist, err := db.tablesExist(ctx, w, p.Tables, "")
			if err != nil {
				return err
			}
			if found && hash == p.schemaHash() && exist {
				continue
			}
			if err := db.createTables(ctx, w, p, "", true); err != nil {
				return err
			}
			for _, t := range p.Retired {
				if err := w.Exec(ctx, "DROP TABLE IF EXISTS "+t); err != nil {
					return err
				}
			}
			if err := setCheckpoint(ctx, w, p.Name, p.schemaHash(), 0); err != nil {
				return err
			}
			// Its partitions start again too (Runner.claim creates them).
			if err := w.Exec(ctx, "DELETE FROM projection_checkpoints WHERE substr(name, 1, ?) = ?", len(p.Name)+1, p.Name+"#"); err != nil {
				return err
			}
			// The published progress counted this read model as it was: void it until the
			// projector instance publishes again.
			if err := w.Exec(ctx, sqlVoidProgress); err != nil {
				return err
			}
		}
		return db.dropAbandoned(ctx, w)
	})
}

// abandonedAfter is how long the scratch tables of a rebuild or comparison may go unwritten
// before the next open drops them as left behind by a crash (a running one writes every page).
const abandonedAfter = time.Hour

// dropAbandoned drops the scratch tables (and checkpoint) of rebuilds and comparisons that
// stopped long ago.
func (db *ReadDB) dropAbandoned(ctx context.Context, w *Wtx) error {
	var names []string
	err := w.Query(ctx, "SELECT name FROM projection_checkpoints WHERE updated_at < ?", []any{time.Now().Add(-abandonedAfter).UnixMicro()},
		func(rows Rows) error {
			var n string
			err := rows.Scan(&n)
			names = append(names, n)
			return err
		})
	if err != nil {
		return fmt.Errorf("read checkpoints: %w", err)
	}
	for _, n := range names {
		for _, p := range projectors {
			suffix, ok := strings.CutPrefix(n, p.Name)
			if !ok || (suffix != rebuildSuffix && !strings.HasPrefix(suffix, compareSuffix)) {
				continue
			}
			if err := db.dropTables(ctx, w, p, suffix); err != nil {
				return err
			}
			if err := deleteCheckpoint(ctx, w, n); err != nil {
				return err
			}
		}
	}
	return nil
}

// createTables drops and creates the projector's tables under suffix, with their indexes unless
// they are to be filled in bulk first (an index built once at the end is cheaper).
func (db *ReadDB) createTables(ctx context.Context, w *Wtx, p *Projector, suffix string, indexes bool) error {
	if err := db.dropTables(ctx, w, p, suffix); err != nil {
		return err
	}
	for _, t := range p.Tables {
		tag := randomTag()
		if err := w.Exec(ctx, db.d.createTable(t, suffix, tag)); err != nil {
			return fmt.Errorf("create %s%s: %w", t.Name, suffix, err)
		}
		if !indexes {
			continue
		}
		for _, ix := range db.d.createIndexes(t, suffix, tag) {
			if err := w.Exec(ctx, ix); err != nil {
				return fmt.Errorf("index %s%s: %w", t.Name, suffix, err)
			}
		}
	}
	return nil
}

func (db *ReadDB) dropTables(ctx context.Context, w *Wtx, p *Projector, suffix string) error {
	for _, t := range p.Tables {
		if err := w.Exec(ctx, "DROP TABLE IF EXISTS "+t.Name+suffix); err != nil {
			return err
		}
	}
	return nil
}

func (db *ReadDB) tablesExist(ctx context.Context, w *Wtx, tables []*Table, suffix string) (bool, error) {
	q := "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = ?"
	if db.d.postgres {
		q = "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = ?"
	}
	for _, t := range tables {
		var n int
		if err := w.QueryRow(ctx, q, t.Name+suffix).Scan(&n); err != nil {
			return false, fmt.Errorf("look up table %s: %w", t.Name+suffix, err)
		}
		if n == 0 {
			return false, nil
		}
	}
	return true, nil
}

func randomTag() string {
	var b [4]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err) // crypto/rand never fails on supported platforms
	}
	return hex.EncodeToString(b[:])
}

func checkpointSchema(ctx context.Context, w *Wtx, name string) (string, bool, error) {
	var hash string
	err := w.QueryRow(ctx, "SELECT schema_hash FROM projection_checkpoints WHERE name = ?", name).Scan(&hash)
	if errors.Is(err, sql.ErrNoRows) {
		return "", false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("read checkpoint %s: %w", name, err)
	}
	return hash, true, nil
}

// lockCheckpoint reads a checkpoint inside a write transaction, locking its row on PostgreSQL so
// that a projector and a rebuild swap (maybe in another process) never interleave.
func lockCheckpoint(ctx context.Context, w *Wtx, name string) (int64, error) {
	pos, err := lockCheckpoints(ctx, w, []string{name})
	if err != nil {
		return 0, err
	}
	return pos[0], nil
}

// lockCheckpoints is lockCheckpoint of each of names, locked in that order: on PostgreSQL in
// one round trip.
func lockCheckpoints(ctx context.Context, w *Wtx, names []string) ([]int64, error) {
	pos := make([]int64, len(names))
	found := make([]bool, len(names))
	rs := make([]read, len(names))
	for i, name := range names {
		rs[i] = read{q: sqlLockCheckpoint + w.d.forUpdate(), args: []any{name}, scan: func(rows Rows) error {
			found[i] = true
			return rows.Scan(&pos[i])
		}}
	}
	if err := w.reads(ctx, rs...); err != nil {
		return nil, fmt.Errorf("read checkpoints %s: %w", strings.Join(names, ", "), err)
	}
	for i, name := range names {
		if !found[i] {
			return nil, fmt.Errorf("checkpoint %s: %w", name, ErrNotFound)
		}
	}
	return pos, nil
}

const (
	sqlLockCheckpoint = "SELECT position FROM projection_checkpoints WHERE name = ?"
	sqlSetCheckpoint  = `INSERT INTO projection_checkpoints (name, schema_hash, position, updated_at) VALUES (?, ?, ?, ?)
		ON CONFLICT (name) DO UPDATE SET schema_hash = excluded.schema_hash, position = excluded.position, updated_at = excluded.updated_at`
)

func setCheckpoint(ctx context.Context, w *Wtx, name, hash string, pos int64) error {
	return w.Exec(ctx, sqlSetCheckpoint, name, hash, pos, time.Now().UnixMicro())
}

func deleteCheckpoint(ctx context.Context, w *Wtx, name string) error {
	return w.Exec(ctx, "DELETE FROM projection_checkpoints WHERE name = ?", name)
}

// checkpoints returns every live projector's position.
func (db *ReadDB) checkpoints(ctx context.Context) (map[string]int64, error) {
	out := map[string]int64{}
	if err := db.Reader.Query(ctx, "read checkpoints", "SELECT name, position FROM projection_checkpoints", nil, scanCheckpoint(out)); err != nil {
		return nil, err
	}
	return out, nil
}

// scanCheckpoint reads a row of (name, position) into out.
func scanCheckpoint(out map[string]int64) func(Rows) error {
	return func(rows Rows) error {
		var name string
		var pos int64
		if err := rows.Scan(&name, &pos); err != nil {
			return err
		}
		out[name] = pos
		return nil
	}
}

// likePattern escapes a user's search text for LIKE ... ESCAPE '\'.
func likePattern(q string) string {
	r := strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)
	return "%" + r.Replace(q) + "%"
}
