package main

import (
	"context"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/commands/rules/secret"
	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/events/backend"
	"github.com/lotbook/lotbook/ops/internal/proofs"
	"github.com/lotbook/lotbook/ops/seed"
)

// prepareOffline registers the load's members through the command side, on the data folder of
// the server about to start, with the server's argon2id cost: the HTTP registration limit (a few
// per minute per IP) would otherwise make setting up a load run take longer than the run. Each
// member also gets n deposit proofs recorded (ops/internal/proofs). The members it returns are
// valid once the server has projected them.
func prepareOffline(ctx context.Context, dir string, accounts []string, password string, workers, fill, n int) ([]*member, int64, error) {
	url := os.Getenv("LOTBOOK_EVENTS_URL")
	if url == "" {
		url = os.Getenv("LOTBOOK_DATABASE_URL")
	}
	store, err := backend.Open(ctx, dir, url)
	if err != nil {
		return nil, 0, fmt.Errorf("open event store: %w", err)
	}
	defer store.Close()
	// The seed derives the offerings' draw seeds from the server's key, as `serve --demo` does:
	// LOTBOOK_SECRET_KEY when set (the server started below inherits it), else the demo's key.
	key := secret.DevKey()
	if v := os.Getenv("LOTBOOK_SECRET_KEY"); v != "" {
		if key, err = secret.ParseKey(v); err != nil {
			return nil, 0, fmt.Errorf("LOTBOOK_SECRET_KEY: %w", err)
		}
	}
	sealer, err := secret.NewSealer(key)
	if err != nil {
		return nil, 0, fmt.Errorf("sealer: %w", err)
	}
	svc := commands.New(store, commands.Options{Sealer: sealer})
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
	if firstErr != nil {
		return nil, 0, firstErr
	}
	members := make([]*member, len(accounts))
	ids := make([]string, len(accounts))
	for i, a := range accounts {
		ids[i] = events.MemberID(a)
		pool, head, err := proofs.Record(ctx, store, ids[i], max(n, 1))
		if err != nil {
			return nil, 0, err
		}
		members[i] = &member{s: out[i], proofs: pool}
		last = max(last, head)
	}
	if fill <= 0 {
		return members, last, nil
	}
	head, err := fillLog(ctx, store, ids, fill)
	return members, max(last, head), err
}

// fillLog appends n well-formed deposit events (requests and their approvals, balanced postings)
// straight to the members' account streams, in large appends: a big log for timing
// `lotbook rebuild` without spending minutes on commands. It returns the head.
func fillLog(ctx context.Context, store events.Store, memberIDs []string, n int) (int64, error) {
	const perAppend = 1000 // events per append: 500 request/approval pairs
	amount := decimal.NewFromInt(1000)
	var head int64
	for done, k := 0, 0; done < n; k++ {
		id := memberIDs[k%len(memberIDs)]
		stream := events.AccountStream(id)
		existing, err := store.ReadStream(ctx, stream, 0)
		if err != nil {
			return 0, err
		}
		batch := make([]events.EventData, 0, perAppend)
		for i := 0; i < perAppend/2 && done+len(batch) < n; i++ {
			order := fmt.Sprintf("F%d%06d", k, i)
			for _, p := range []events.Payload{
				events.DepositRequested{OrderNo: order, ChannelID: seed.ChannelID, ChannelName: "Bank transfer",
					Currency: "TWD", Amount: amount, ProofFileID: "fill"},
				events.DepositApproved{OrderNo: order, Currency: "TWD", Amount: amount, Remark: "fill",
					Postings: events.Transfer(events.HouseBankClearing, events.MemberAvailable(id), "TWD", amount)},
			} {
				typ, data, err := events.Encode(p)
				if err != nil {
					return 0, err
				}
				batch = append(batch, events.EventData{ID: uuid.New(), Type: typ, Data: data,
					Metadata: events.Metadata{CommandID: uuid.NewString(), Actor: "system", ServerTime: time.Now().UTC()}})
			}
		}
		res, err := store.Append(ctx, stream, int64(len(existing)), batch)
		if err != nil {
			return 0, fmt.Errorf("fill %s: %w", stream, err)
		}
		done += len(batch)
		head = res.Position
	}
	return head, nil
}
