package projections

import (
	"context"
	"database/sql"
	"sync"
)

// stmtCache keeps SQLite statements prepared: SQLite spent as much CPU parsing the
// SQL of every small query as running it. database/sql keeps one prepared copy per connection
// of the pool and re-prepares on a new one; SQLite re-prepares by itself after a schema change
// (a rebuild's table swap). PostgreSQL does not use it: there pgx sends each query in one round
// trip, and a server-side prepared statement would outlive a swapped table's row type.
//
// It holds at most max statements and closes the least recently used one to take another
// (database/sql closes it once the transactions that use it end): the statements that run on
// every page stay, while those of a comparison's scratch tables, or of IN lists of a length seen
// once, pass through.
type stmtCache struct {
	db    *sql.DB
	max   int
	mu    sync.Mutex
	m     map[string]*cachedStmt
	clock uint64 // ticks on every use; a statement's last tick dates its use
}

type cachedStmt struct {
	st     *sql.Stmt
	used   uint64
	pinned bool // prepared at open for every page: never closed before the cache
}

// maxCachedStmts bounds each cache. The write connection's statements of a page are at most a
// few per table written (its upsert and selects, each in the few row counts of stmtRows).
const maxCachedStmts = 512

func newStmtCache(db *sql.DB) *stmtCache {
	return &stmtCache{db: db, max: maxCachedStmts, m: map[string]*cachedStmt{}}
}

// get returns the prepared statement of q, preparing it on first use, or nil when it cannot be
// prepared (the caller then runs the text and reports its error). A nil cache caches nothing.
func (c *stmtCache) get(ctx context.Context, q string) *sql.Stmt {
	if st := c.lookup(q); st != nil || c == nil {
		return st
	}
	st, err := c.db.PrepareContext(ctx, q)
	if err != nil {
		return nil
	}
	return c.add(q, st, false)
}

// prepare adds q, prepared now and kept for good: statements of the single write connection
// must be prepared while no transaction holds it.
func (c *stmtCache) prepare(ctx context.Context, q string) error {
	st, err := c.db.PrepareContext(ctx, q)
	if err != nil {
		return err
	}
	c.add(q, st, true)
	return nil
}

// prepareAll prepares the statements of qs that are not cached yet; one that fails to prepare
// stays uncached (it runs as text and reports its error there).
func (c *stmtCache) prepareAll(ctx context.Context, qs map[string]bool) {
	if c == nil {
		return
	}
	for q := range qs {
		if c.lookup(q) != nil {
			continue
		}
		if st, err := c.db.PrepareContext(ctx, q); err == nil {
			c.add(q, st, false)
		}
	}
}

// add caches st as q's statement, unless another caller was first, and returns the one cached.
func (c *stmtCache) add(q string, st *sql.Stmt, pinned bool) *sql.Stmt {
	c.mu.Lock()
	defer c.mu.Unlock()
	if old, ok := c.m[q]; ok {
		_ = st.Close()
		old.pinned = old.pinned || pinned
		return old.st
	}
	if len(c.m) >= c.max {
		c.evict()
	}
	c.clock++
	c.m[q] = &cachedStmt{st: st, used: c.clock, pinned: pinned}
	return st
}

// evict closes the least recently used statement that is not pinned.
func (c *stmtCache) evict() {
	var oldest string
	var at uint64
	for q, s := range c.m {
		if !s.pinned && (oldest == "" || s.used < at) {
			oldest, at = q, s.used
		}
	}
	if oldest != "" {
		_ = c.m[oldest].st.Close()
		delete(c.m, oldest)
	}
}

// lookup returns the statement of q if it is cached, without preparing it.
func (c *stmtCache) lookup(q string) *sql.Stmt {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	s, ok := c.m[q]
	if !ok {
		return nil
	}
	c.clock++
	s.used = c.clock
	return s.st
}

// size is the number of statements held.
func (c *stmtCache) size() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.m)
}

func (c *stmtCache) close() {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for q, s := range c.m {
		_ = s.st.Close()
		delete(c.m, q)
	}
}
