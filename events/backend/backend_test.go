package backend

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/lotbook/lotbook/events/postgres/pgtest"
)

func TestOpenChoosesByURL(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "data")
	st, err := Open(ctx, dir, "")
	if err != nil {
		t.Fatalf("sqlite: %v", err)
	}
	if head, err := st.Head(ctx); err != nil || head != 0 {
		t.Fatalf("sqlite head %d, %v", head, err)
	}
	st.Close()

	pg, err := Open(ctx, "", pgtest.NewDatabase(t))
	if err != nil {
		t.Fatalf("postgres: %v", err)
	}
	if _, err := pg.Head(ctx); err != nil {
		t.Fatalf("postgres head: %v", err)
	}
	pg.Close()

	for _, bad := range []string{"mysql://x", "not a url", "user:secret@host"} {
		if _, err := Open(ctx, dir, bad); err == nil {
			t.Errorf("%q opened", bad)
		}
	}
}
