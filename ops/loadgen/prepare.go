package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/commands/funds"
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
// valid once the server has projected them. With grow it then sends deposits through the command
// side until the log holds grow events (growLog).
func prepareOffline(ctx context.Context, log *slog.Logger, dir string, accounts []string, password string, workers, fill, n int, grow int64) ([]*member, int64, error) {
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
	opts := commands.Options{Sealer: sealer}
	if grow > 0 {
		// A hundred thousand members at the server's cost (25-50 ms of a core each) would take
		// most of an hour on two cores; the hash's cost does not change the log's shape, and the
		// load never logs in (registration answers with each member's session).
		opts.PasswordCost = secret.TestCost
	}
	svc := commands.New(store, opts)
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
	// Each growth deposit is three events (its proof, the request, the approval); the proofs
	// the growth leaves unused are the load's.
	cycles := 0
	if grow > last {
		cycles = int((grow - last + int64(3*len(accounts)) - 1) / int64(3*len(accounts)))
	}
	members := make([]*member, len(accounts))
	ids := make([]string, len(accounts))
	// Concurrent appends, so that the store batches their commits (one fsync per member would
	// take minutes with a hundred thousand members).
	if err := parallel(ctx, len(accounts), growWorkers, func(i int) error {
		ids[i] = events.MemberID(accounts[i])
		pool, head, err := proofs.Record(ctx, store, ids[i], max(n, 1)+cycles)
		if err != nil {
			return err
		}
		members[i] = &member{s: out[i], proofs: pool, id: ids[i]}
		mu.Lock()
		last = max(last, head)
		mu.Unlock()
		return nil
	}); err != nil {
		return nil, 0, err
	}
	if cycles > 0 {
		head, err := growLog(ctx, log, svc, members, cycles, last, grow)
		return members, max(last, head), err
	}
	if fill <= 0 {
		return members, last, nil
	}
	head, err := fillLog(ctx, store, ids, fill)
	return members, max(last, head), err
}

// growWorkers is how many members the proofs' recording and growLog serve at once: enough
// concurrent appends for the store to batch their commits.
const growWorkers = 32

// growLog sends up to cycles deposit requests per member, each approved at once, through the
// command side (the same handlers as the HTTP routes), member by member, until the log's head
// reaches target from the head from: a big log the server has to project, made of events exactly as the running
// system writes them. It consumes the members' first proofs and returns the head.
func growLog(ctx context.Context, log *slog.Logger, svc *commands.Service, members []*member, cycles int, from, target int64) (int64, error) {
	f := funds.New(svc)
	var head atomic.Int64
	head.Store(from)
	start := time.Now()
	var done atomic.Int64
	err := parallel(ctx, len(members), growWorkers, func(i int) error {
		m := members[i]
		for range cycles {
			if head.Load() >= target {
				return nil
			}
			req, err := f.RequestDeposit(ctx, commands.Meta{CommandID: uuid.NewString(), Actor: m.id}, m.id, funds.DepositInput{
				ChannelID: seed.ChannelID, Amount: "1000", ProofFileID: m.proof(), ChannelPassword: seed.ChannelPassword,
			})
			if err != nil {
				return fmt.Errorf("grow: deposit of %s: %w", m.id, err)
			}
			ap, err := f.ApproveDeposit(ctx, commands.Meta{CommandID: uuid.NewString(), Actor: "system"},
				funds.ReviewOrder{MemberID: m.id, OrderNo: req.OrderNo, Remark: "grow"})
			if err != nil {
				return fmt.Errorf("grow: approve %s: %w", req.OrderNo, err)
			}
			raise(&head, ap.Position)
		}
		if n := done.Add(1); n%10000 == 0 {
			log.Info("growing the log", "members", n, "head", head.Load(), "events/s", int(float64(head.Load()-from)/time.Since(start).Seconds()))
		}
		return nil
	})
	return head.Load(), err
}

// fillLog appends n well-formed deposit events (requests and their approvals, balanced postings)
// straight to the members' account streams, in large appends: a big log for timing
// `lotbook rebuild` without spending minutes on commands. It returns the head.
func fillLog(ctx context.Context, store events.Store, memberIDs []string, n int) (int64, error) {
	const perAppend = 1000 // events per append: 500 request/approval pairs
	amount := decimal.NewFromInt(1000)
	var head int64
	// Each stream's version is read once, then counted: reading a stream back before each append
	// made a 10M-event fill quadratic in the streams' lengths.
	versions := map[string]int64{}
	for done, k := 0, 0; done < n; k++ {
		id := memberIDs[k%len(memberIDs)]
		stream := events.AccountStream(id)
		version, ok := versions[stream]
		if !ok {
			existing, err := store.ReadStream(ctx, stream, 0)
			if err != nil {
				return 0, err
			}
			version = int64(len(existing))
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
		res, err := store.Append(ctx, stream, version, batch)
		if err != nil {
			return 0, fmt.Errorf("fill %s: %w", stream, err)
		}
		versions[stream] = version + int64(len(batch))
		done += len(batch)
		head = res.Position
	}
	return head, nil
}

// membersFile is where a -grow run keeps its members in the data folder, for -reuse.
const membersFile = "loadgen-members.json"

type savedMember struct {
	Account string   `json:"account"`
	ID      string   `json:"id"`
	Token   string   `json:"token"`
	Proofs  []string `json:"proofs"` // not yet used by a deposit
}

type savedMembers struct {
	Head    int64         `json:"head"`
	Members []savedMember `json:"members"`
}

// writeMembers keeps members, with the proofs they have not used yet, and the log's head in dir.
func writeMembers(dir string, members []*member, head int64) error {
	out := savedMembers{Head: head, Members: make([]savedMember, len(members))}
	for i, m := range members {
		out.Members[i] = savedMember{Account: m.s.Account, ID: m.id, Token: m.s.Token,
			Proofs: m.proofs[min(int(m.next.Load()), len(m.proofs)):]}
	}
	raw, err := json.Marshal(out)
	if err != nil {
		return err
	}
	tmp := filepath.Join(dir, membersFile+".tmp")
	if err := os.WriteFile(tmp, raw, 0o600); err != nil {
		return fmt.Errorf("write members: %w", err)
	}
	return os.Rename(tmp, filepath.Join(dir, membersFile))
}

// readMembers reads what writeMembers kept in dir, the members with proofs left.
func readMembers(dir string) ([]*member, int64, error) {
	raw, err := os.ReadFile(filepath.Join(dir, membersFile))
	if err != nil {
		return nil, 0, fmt.Errorf("the members of a -grow run: %w", err)
	}
	var in savedMembers
	if err := json.Unmarshal(raw, &in); err != nil {
		return nil, 0, fmt.Errorf("%s: %w", membersFile, err)
	}
	// Members whose proofs earlier runs used up are left out: each run's load begins with the
	// first members, so the others keep theirs.
	var members []*member
	for _, m := range in.Members {
		if len(m.Proofs) > 0 {
			members = append(members, &member{s: &session{Account: m.Account, Token: m.Token}, id: m.ID, proofs: m.Proofs})
		}
	}
	if len(members) == 0 {
		return nil, 0, fmt.Errorf("%s: no member has an unused proof left (grow the log again with more -proofs)", membersFile)
	}
	return members, in.Head, nil
}
