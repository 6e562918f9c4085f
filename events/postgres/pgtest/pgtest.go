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
