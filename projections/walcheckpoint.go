package projections

import (
	"context"
	"database/sql"
	"log/slog"
	"sync"
	"time"
)

// SQLite checkpoints its WAL into the database file, by default inside the COMMIT that makes the
// WAL pass 1000 pages: that commit then copies the pages and syncs the file while the single
// write connection, and with it every projector and idempotency write, waits. A checkpointer on
// a connection of its own does that work between commits instead (PASSIVE: it never blocks the
// writer or readers), and the write connection keeps an automatic checkpoint only as a bound
// on the WAL should the background one fall behind.
const (
	walCheckpointEvery = 250 * time.Millisecond
	walAutoCheckpoint  = 20000 // pages (about 80 MB of WAL): the fallback
)

type walCheckpointer struct {
	db   *sql.DB
	stop chan struct{}
	wg   sync.WaitGroup
	once sync.Once
	err  error
}

func startWALCheckpointer(db *sql.DB) *walCheckpointer {
	c := &walCheckpointer{db: db, stop: make(chan struct{})}
	c.wg.Go(c.run)
	return c
}

func (c *walCheckpointer) run() {
	t := time.NewTicker(walCheckpointEvery)
	defer t.Stop()
	for {
		select {
		case <-c.stop:
			return
		case <-t.C:
		}
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		if _, err := c.db.ExecContext(ctx, "PRAGMA wal_checkpoint(PASSIVE)"); err != nil {
			slog.Warn("read db: WAL checkpoint", "err", err)
		}
		cancel()
	}
}

// close stops the checkpointer (once; a nil one does nothing).
func (c *walCheckpointer) close() error {
	if c == nil {
		return nil
	}
	c.once.Do(func() {
		close(c.stop)
		c.wg.Wait()
		c.err = c.db.Close()
	})
	return c.err
}
