package crashtest

import (
	"math/rand/v2"
	"testing"

	"github.com/lotbook/lotbook/events/postgres/pgtest"
)

func TestKill9UnderLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and kills the server: not in -short")
	}
	bin := binary(t)
	t.Run("sqlite", func(t *testing.T) { kill9(t, bin, "") })
	t.Run("postgres", func(t *testing.T) { kill9(t, bin, pgtest.NewDatabase(t)) })
}

// kill9 sends commands from 16 clients, SIGKILLs the server once a random number of them have
// been acknowledged, restarts it and sends every request again with its key.
func kill9(t *testing.T, bin, dbURL string) {
	f, srv := prepare(t, bin, dbURL, "")
	l := f.startLoad(srv.base, 16)
	l.waitAcked(t, 100+rand.Int64N(400))
	srv.kill()
	as := l.stop()
	f.checkOnce("after kill -9", acknowledged(as))

	srv = start(t, bin, f.dir, dbURL)
	f.recover(srv.base, as)
	srv.stop()
	f.verify()
}
