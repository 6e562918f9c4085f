// Package backend opens the event store a URL names, so that callers (the API, the CLI, tools)
// need not know the backends.
package backend

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/events/kurrent"
	"github.com/lotbook/lotbook/events/postgres"
	"github.com/lotbook/lotbook/events/sqlite"
)

// Open opens the event store named by eventsURL:
//
//	""                          SQLite at dataDir/events.db (created with dataDir if needed)
//	postgres://, postgresql://  PostgreSQL
//	esdb://, esdb+discover://,
//	kurrentdb://, kurrentdb+discover://  KurrentDB / EventStoreDB
func Open(ctx context.Context, dataDir, eventsURL string) (events.Store, error) {
	scheme, _, _ := strings.Cut(eventsURL, "://")
	switch strings.ToLower(scheme) {
	case "":
		if eventsURL != "" {
			return nil, fmt.Errorf("backend: %q is not a URL", redact(eventsURL))
		}
		if err := os.MkdirAll(dataDir, 0o750); err != nil {
			return nil, fmt.Errorf("backend: data dir: %w", err)
		}
		return sqlite.Open(ctx, filepath.Join(dataDir, "events.db"))
	case "postgres", "postgresql":
		return postgres.Open(ctx, eventsURL)
	case "esdb", "esdb+discover", "kurrentdb", "kurrentdb+discover", "kurrent", "kurrent+discover":
		return kurrent.Open(ctx, eventsURL)
	}
	return nil, fmt.Errorf("backend: unknown event store scheme %q", scheme)
}

// redact drops anything that may be a password from a string shown in an error.
func redact(s string) string {
	if i := strings.Index(s, "@"); i >= 0 {
		return "…" + s[i:]
	}
	return s
}
