// Package serve holds what the ops tools share about a lotbook serve process they started.
package serve

import (
	"context"
	"errors"
	"net/http"
	"time"
)

// DefaultMetricsURL is where a server started without --metrics-addr serves /metrics
// (api.DefaultMetricsAddr): what the tools read when they target a running server.
const DefaultMetricsURL = "http://127.0.0.1:9464"

// ErrNotReady is returned by WaitReady when the server did not answer ready in time.
var ErrNotReady = errors.New("lotbook serve not ready")

// Exited is returned by WaitReady when the server process ended before it was ready; Err is what
// waiting for the process returned.
type Exited struct{ Err error }

func (e *Exited) Error() string { return "lotbook serve exited" }

// WaitReady polls base+"/readyz" every poll until it answers 200 OK, returning nil. done receives
// the process's exit; a value taken from it is put back for the caller. It returns *Exited if the
// process ends first, ctx.Err() if ctx ends, and ErrNotReady once timeout has passed.
func WaitReady(ctx context.Context, base string, done chan error, poll, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for {
		if resp, err := http.Get(base + "/readyz"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		select {
		case err := <-done:
			done <- err
			return &Exited{Err: err}
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(poll):
		}
		if time.Now().After(deadline) {
			return ErrNotReady
		}
	}
}
