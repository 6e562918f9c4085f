// Package sqlitedb opens SQLite files through the C SQLite (github.com/mattn/go-sqlite3, cgo),
// for the event store and the read models alike: one place knows the driver, its DSN and its
// error codes.
package sqlitedb

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"strings"

	"github.com/mattn/go-sqlite3"
)

// Open returns a pool on the SQLite file at path whose every new connection first runs the
// given pragmas (such as "journal_mode=WAL"): the driver's DSN has no parameter for some of
// them (wal_autocheckpoint), so all go one way. With immediate, BeginTx starts transactions
// with BEGIN IMMEDIATE, taking the write lock at once instead of failing at the first write.
func Open(path string, immediate bool, pragmas ...string) *sql.DB {
	dsn := path
	if immediate {
		dsn += "?_txlock=immediate"
	}
	return sql.OpenDB(connector{dsn: dsn, pragmas: pragmas})
}

// OpenWALBuffered is Open (without immediate) on the VFS that writes each commit's WAL frames in
// one call (WALBufferVFS). The pragmas must set synchronous to FULL or EXTRA: the VFS relies on
// every commit syncing the WAL before other connections may read its frames.
func OpenWALBuffered(path string, pragmas ...string) (*sql.DB, error) {
	if !syncsEveryCommit(pragmas) {
		return nil, fmt.Errorf("sqlite: open %s on %s without synchronous=FULL", path, WALBufferVFS)
	}
	if err := registerOnce(); err != nil {
		return nil, err
	}
	return sql.OpenDB(connector{dsn: path + "?vfs=" + WALBufferVFS, pragmas: pragmas}), nil
}

// syncsEveryCommit reports whether pragmas set synchronous to FULL or EXTRA (the last setting
// counts, as SQLite runs them in order).
func syncsEveryCommit(pragmas []string) bool {
	full := false
	for _, p := range pragmas {
		name, value, _ := strings.Cut(strings.ToUpper(strings.ReplaceAll(p, " ", "")), "=")
		if name == "SYNCHRONOUS" {
			full = value == "FULL" || value == "EXTRA" || value == "2" || value == "3"
		}
	}
	return full
}

// drv is shared by every pool; it holds no state of its own.
var drv = &sqlite3.SQLiteDriver{}

type connector struct {
	dsn     string
	pragmas []string
}

func (c connector) Connect(ctx context.Context) (driver.Conn, error) {
	conn, err := drv.Open(c.dsn)
	if err != nil {
		return nil, fmt.Errorf("sqlite: open %s: %w", c.dsn, err)
	}
	sc := conn.(*sqlite3.SQLiteConn)
	for _, p := range c.pragmas {
		if _, err := sc.ExecContext(ctx, "PRAGMA "+p, nil); err != nil {
			_ = sc.Close()
			return nil, fmt.Errorf("sqlite: open %s: PRAGMA %s: %w", c.dsn, p, err)
		}
	}
	return sc, nil
}

func (c connector) Driver() driver.Driver { return drv }

// IsUnique reports whether err is a UNIQUE or PRIMARY KEY constraint's refusal.
func IsUnique(err error) bool {
	var e sqlite3.Error
	return errors.As(err, &e) && (e.ExtendedCode == sqlite3.ErrConstraintUnique || e.ExtendedCode == sqlite3.ErrConstraintPrimaryKey)
}
