package main

import (
	"context"
	"fmt"
	"os"
	"sync"

	"github.com/google/uuid"

	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/events/backend"
	"github.com/lotbook/lotbook/ops/seed"
)

// prepareOffline registers the load's members through the command side, on the data folder of
// the server about to start, with the server's argon2id cost: the HTTP registration limit (a few
// per minute per IP) would otherwise make setting up a load run take longer than the run. The
// sessions it returns are valid once the server has projected them.
func prepareOffline(ctx context.Context, dir string, accounts []string, password string, workers int) ([]*session, int64, error) {
	url := os.Getenv("LOTBOOK_EVENTS_URL")
	if url == "" {
		url = os.Getenv("LOTBOOK_DATABASE_URL")
	}
	store, err := backend.Open(ctx, dir, url)
	if err != nil {
		return nil, 0, fmt.Errorf("open event store: %w", err)
	}
	defer store.Close()
	svc := commands.New(store, commands.Options{})
	if err := seed.Demo(ctx, svc); err != nil {
		return nil, 0, err
	}
	out := make([]*session, len(accounts))
	var mu sync.Mutex
	var last int64
	var firstErr error
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for i := range jobs {
				s, err := svc.Register(ctx, commands.Meta{CommandID: uuid.NewString(), Actor: "system"}, commands.RegisterInput{
					Account: accounts[i], Password: password, ConfirmPassword: password, InviteCode: seed.InviteCode,
				})
				mu.Lock()
				if err != nil && firstErr == nil {
					firstErr = fmt.Errorf("register %s: %w", accounts[i], err)
				}
				last = max(last, s.Position)
				mu.Unlock()
				out[i] = &session{Account: s.Account, Token: s.Token}
			}
		})
	}
	for i := range accounts {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	return out, last, firstErr
}
