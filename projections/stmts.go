package projections

import (
	"context"
	"database/sql"
	"sync"
)

// stmtCache keeps SQLite statements prepared: modernc's SQLite spent as much CPU parsing the
// SQL of every small query as running it. database/sql keeps one prepared copy per connection
// of the pool and re-prepares on a new one; SQLite re-prepares by itself after a schema change
// (a rebuild's table swap). PostgreSQL does not use it: there pgx sends each query in one round
// trip, and a server-side prepared statement would outlive a swapped table's row type.
type stmtCache struct {
	db *sql.DB
	mu sync.Mutex
	m  map[string]*sql.Stmt
}

// maxCachedStmts bounds the cache; queries with IN lists of many lengths stop being cached
// past it and are parsed per call, as before.
const maxCachedStmts = 256

func newStmtCache(db *sql.DB) *stmtCache {
	return &stmtCache{db: db, m: map[string]*sql.Stmt{}}
}

// get returns the prepared statement of q, preparing it on first use, or nil when q is not
// cached (the caller then runs the text). A nil cache caches nothing.
func (c *stmtCache) get(ctx context.Context, q string) *sql.Stmt {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	st, ok := c.m[q]
	full := len(c.m) >= maxCachedStmts
	c.mu.Unlock()
	if ok || full {
		return st
	}
	st, err := c.db.PrepareContext(ctx, q)
	if err != nil {
		return nil // the caller runs the text and reports its error
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if old, ok := c.m[q]; ok {
		_ = st.Close()
		return old
	}
	c.m[q] = st
	return st
}

// prepare adds q, prepared now: statements of the single write connection must be prepared
// while no transaction holds it.
func (c *stmtCache) prepare(ctx context.Context, q string) error {
	st, err := c.db.PrepareContext(ctx, q)
	if err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.m[q] = st
	return nil
}

// lookup returns the statement of q if it is cached, without preparing it.
func (c *stmtCache) lookup(q string) *sql.Stmt {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.m[q]
}

func (c *stmtCache) close() {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for q, st := range c.m {
		_ = st.Close()
		delete(c.m, q)
	}
}
