// Package pgtest gives tests and benchmarks a fresh PostgreSQL database of their own, so that
// concurrent test runs on one server never see each other's data.
package pgtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/url"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// DefaultDSN is used when LOTBOOK_TEST_PG is not set.
const DefaultDSN = "postgres://postgres@127.0.0.1:5432/test?sslmode=disable"

// AdminDSN is the database tests connect to in order to create their own (LOTBOOK_TEST_PG).
func AdminDSN() string {
	if v := os.Getenv("LOTBOOK_TEST_PG"); v != "" {
		return v
	}
	return DefaultDSN
}

// CreateDatabase creates an empty database named lb_<random> on the server of adminDSN and returns
// its DSN and a function that drops it (closing any connection still open to it).
func CreateDatabase(ctx context.Context, adminDSN string) (dsn string, drop func(context.Context) error, err error) {
	var b [8]byte
	_, _ = rand.Read(b[:])
	name := "lb_" + hex.EncodeToString(b[:])
	dsn, err = withDatabase(adminDSN, name)
	if err != nil {
		return "", nil, err
	}
	admin, err := pgx.Connect(ctx, adminDSN)
	if err != nil {
		return "", nil, fmt.Errorf("pgtest: connect to %s: %w", redact(adminDSN), err)
	}
	defer admin.Close(ctx)
	if _, err := admin.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		return "", nil, fmt.Errorf("pgtest: create database %s: %w", name, err)
	}
	drop = func(ctx context.Context) error {
		c, err := pgx.Connect(ctx, adminDSN)
		if err != nil {
			return fmt.Errorf("pgtest: connect to drop %s: %w", name, err)
		}
		defer c.Close(ctx)
		if _, err := c.Exec(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)"); err != nil {
			return fmt.Errorf("pgtest: drop database %s: %w", name, err)
		}
		return nil
	}
	return dsn, drop, nil
}

// NewDatabase creates a fresh database for t, dropped when t ends, and returns its DSN. PostgreSQL
// being unreachable fails the test: it is part of the test environment, not optional.
func NewDatabase(t testing.TB) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	dsn, drop, err := CreateDatabase(ctx, AdminDSN())
	if err != nil {
		t.Fatalf("PostgreSQL for tests (LOTBOOK_TEST_PG): %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := drop(ctx); err != nil {
			t.Errorf("%v", err)
		}
	})
	return dsn
}

// withDatabase returns dsn (URL or keyword/value form) pointing at database name.
func withDatabase(dsn, name string) (string, error) {
	if strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://") {
		u, err := url.Parse(dsn)
		if err != nil {
			return "", fmt.Errorf("pgtest: parse %s: %w", redact(dsn), err)
		}
		u.Path = "/" + name
		return u.String(), nil
	}
	return dsn + " dbname=" + name, nil
}

func redact(dsn string) string {
	if u, err := url.Parse(dsn); err == nil && u.User != nil {
		if _, has := u.User.Password(); has {
			u.User = url.UserPassword(u.User.Username(), "xxx")
		}
		return u.String()
	}
	return dsn
}

// ServerCPU sums the CPU time used so far by the server processes connected to the database of
// dsn, read from /proc: it works for a server on this machine only. Benchmarks take the difference
// over a run to report the database's CPU per event.
func ServerCPU(ctx context.Context, dsn string) (time.Duration, error) {
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		return 0, fmt.Errorf("pgtest: connect: %w", err)
	}
	defer conn.Close(ctx)
	rows, err := conn.Query(ctx, `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`)
	if err != nil {
		return 0, fmt.Errorf("pgtest: list server processes: %w", err)
	}
	pids, err := pgx.CollectRows(rows, pgx.RowTo[int32])
	if err != nil {
		return 0, fmt.Errorf("pgtest: list server processes: %w", err)
	}
	var total time.Duration
	for _, pid := range pids {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			return 0, fmt.Errorf("pgtest: server process %d: %w", pid, err)
		}
		// After the command name in parentheses, utime and stime are the 12th and 13th fields,
		// in clock ticks of 10 ms.
		f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
		if len(f) < 13 {
			return 0, fmt.Errorf("pgtest: server process %d: short /proc stat", pid)
		}
		u, errU := strconv.ParseInt(f[11], 10, 64)
		s, errS := strconv.ParseInt(f[12], 10, 64)
		if errU != nil || errS != nil {
			return 0, fmt.Errorf("pgtest: server process %d: bad /proc stat", pid)
		}
		total += time.Duration(u+s) * 10 * time.Millisecond
	}
	return total, nil
}
