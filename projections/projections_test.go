package projections

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/lotbook/lotbook/events"
)

func TestApply(t *testing.T) {
	backends(t, func(t *testing.T, e *env) {
		ctx := context.Background()
		db := e.open()
		r := e.run(db, nil)

		m := e.Register("0912345678")
		other := e.Register("0922222222")
		e.Add(events.MemberStream(m), "member:0912345678",
			events.FundPasswordSet{Hash: "h"},
			events.FileUploaded{FileID: "f1", ContentType: "image/png", Size: 10, Width: 2, Height: 2})
		e.Add(events.MemberStream(m), "ops:ops", events.AccountFlagChanged{Flag: events.FlagWithdrawalBanned, On: true, Reason: "r"},
			events.AccountFlagChanged{Flag: events.FlagFrozen, On: true, Reason: "r"},
			events.AccountFlagChanged{Flag: events.FlagFrozen, On: false, Reason: "r"},
			events.AccountFlagChanged{Flag: events.FlagTradeBanned, On: true, Reason: "r"})
		e.RequestDeposit(m, "D1", "5000")
		e.RequestDeposit(m, "D2", "2500.5")
		e.ApproveDeposit(m, "D1", "5000")
		e.Add(events.AccountStream(m), "ops:ops", events.DepositRejected{OrderNo: "D2", Remark: "blurry proof"})
		e.RequestDeposit(other, "D3", "1000")
		r.waitFor(t, e.Head())

		mem, err := db.MemberByAccount(ctx, "0912345678")
		if err != nil {
			t.Fatal(err)
		}
		want := Member{MemberID: m, Account: "0912345678", Role: events.RoleMember, InviteCode: "I0912345678",
			RealNameStatus: RealNameUnverified, FundPasswordSet: true,
			Flags: []string{events.FlagTradeBanned, events.FlagWithdrawalBanned}}
		if mem.MemberID != want.MemberID || mem.InviteCode != want.InviteCode || mem.RealNameStatus != want.RealNameStatus ||
			!mem.FundPasswordSet || fmt.Sprint(mem.Flags) != fmt.Sprint(want.Flags) || mem.CreatedAt.IsZero() {
			t.Fatalf("member = %+v", mem)
		}
		if byID, err := db.MemberByID(ctx, other); err != nil || byID.Account != "0922222222" || byID.FundPasswordSet || len(byID.Flags) != 0 {
			t.Fatalf("member by id = %+v, %v", byID, err)
		}
		if _, err := db.MemberByAccount(ctx, "0900000000"); !errors.Is(err, ErrNotFound) {
			t.Fatalf("unknown member: %v", err)
		}
		list, more, err := db.Members(ctx, "0922", 1, 10)
		if err != nil || more || len(list) != 1 || list[0].MemberID != other {
			t.Fatalf("Members(0922) = %+v, %v, %v", list, more, err)
		}
		list, more, err = db.Members(ctx, "", 1, 1)
		if err != nil || !more || len(list) != 1 || list[0].MemberID != other {
			t.Fatalf("Members page 1 = %+v, %v, %v", list, more, err)
		}
		if owned, err := db.FileOwnedBy(ctx, "f1", m); err != nil || !owned {
			t.Fatalf("FileOwnedBy(f1, m) = %v, %v", owned, err)
		}
		if owned, err := db.FileOwnedBy(ctx, "f1", other); err != nil || owned {
			t.Fatalf("FileOwnedBy(f1, other) = %v, %v", owned, err)
		}

		mustBalance(t, db, m, "TWD", "5000", "0")
		if bs, err := db.Balances(ctx, other); err != nil || len(bs) != 0 {
			t.Fatalf("balances of other = %v, %v", bs, err)
		}
		house, err := db.HouseBalances(ctx)
		if err != nil || !house[events.HouseBankClearing]["TWD"].Equal(dec("-5000")) {
			t.Fatalf("house = %v, %v", house, err)
		}

		recs, more, err := db.FundHistory(ctx, m, "all", 1, 20)
		if err != nil || more || len(recs) != 2 {
			t.Fatalf("fund records = %+v, %v, %v", recs, more, err)
		}
		if recs[0].OrderNo != "D2" || recs[0].Status != events.ReviewRejected || recs[0].Remark != "blurry proof" ||
			!recs[0].Amount.Equal(dec("2500.5")) || recs[0].Type != events.LineDeposit || recs[0].Details["channelName"] != "Bank" ||
			recs[0].Details["proofFileId"] != "f-D2" || !recs[0].UpdatedAt.After(recs[0].CreatedAt) {
			t.Fatalf("record 0 = %+v", recs[0])
		}
		if recs[1].OrderNo != "D1" || recs[1].Status != events.ReviewApproved {
			t.Fatalf("record 1 = %+v", recs[1])
		}
		if w, _, err := db.FundHistory(ctx, m, events.LineWithdraw, 1, 20); err != nil || len(w) != 0 {
			t.Fatalf("withdraw records = %+v, %v", w, err)
		}

		noDiffs(t, r.Runner)
	})
}

// TestPageFolding applies a history in pages of one to three events, on both databases: the read
// models must come out as a replay makes them (what a page folds in memory equals what it reads
// back; a decision in a later page than its request reads the row it changes).
func TestPageFolding(t *testing.T) { backends(t, testPageFolding) }

func testPageFolding(t *testing.T, e *env) {
	ctx := context.Background()
	m := e.Register("0912345678")
	e.Add(events.MemberStream(m), "member:x", events.FundPasswordSet{Hash: "h"}, events.AccountFlagChanged{Flag: events.FlagFrozen, On: true},
		events.AccountFlagChanged{Flag: events.FlagTradeBanned, On: true}, events.AccountFlagChanged{Flag: events.FlagFrozen, On: false})
	for i := range 5 {
		order := fmt.Sprintf("D%d", i)
		e.Deposit(m, order, "1000")
	}
	log, err := e.Store.ReadAll(ctx, 0, 1000)
	if err != nil {
		t.Fatal(err)
	}
	db := e.open()
	r := NewRunner(db, e.Store, nil, nil)
	// Live tables get the log one event per transaction, in random page sizes; Compare replays it
	// in pages of rebuildPage.
	for i := 0; i < len(log); {
		n := 1 + i%3
		page := log[i:min(len(log), i+n)]
		for _, p := range projectors {
			if err := db.writeTx(ctx, func(w *Wtx) error { _, err := p.applyPage(ctx, w, p.Name, wrap(page)); return err }); err != nil {
				t.Fatal(err)
			}
		}
		i += n
	}
	mustBalance(t, db, m, "TWD", "5000", "0")
	if mem, err := db.MemberByID(ctx, m); err != nil || !mem.FundPasswordSet || fmt.Sprint(mem.Flags) != fmt.Sprint([]string{events.FlagTradeBanned}) {
		t.Fatalf("member = %+v, %v", mem, err)
	}
	noDiffs(t, r)
}

func TestResumeWithoutDoubleApply(t *testing.T) {
	backends(t, func(t *testing.T, e *env) {
		ctx := context.Background()
		m, db, r := e.deposited(t)
		mustBalance(t, db, m, "TWD", "1000", "0")
		r.stop()

		// Redelivering an applied page (as after a crash between commit and ack) changes nothing.
		log, err := e.Store.ReadAll(ctx, 0, 100)
		if err != nil {
			t.Fatal(err)
		}
		if err := db.writeTx(ctx, func(w *Wtx) error {
			_, err := balancesProjector.applyPage(ctx, w, "balances", wrap(log))
			return err
		}); err != nil {
			t.Fatal(err)
		}
		mustBalance(t, db, m, "TWD", "1000", "0")

		// A page that fails half-way leaves neither rows nor checkpoint behind.
		e.Deposit(m, "D2", "2000")
		tail, err := e.Store.ReadAll(ctx, log[len(log)-1].Position, 100)
		if err != nil {
			t.Fatal(err)
		}
		boom := errors.New("boom")
		err = db.writeTx(ctx, func(w *Wtx) error {
			if _, err := balancesProjector.applyPage(ctx, w, "balances", wrap(tail)); err != nil {
				return err
			}
			return boom
		})
		if !errors.Is(err, boom) {
			t.Fatalf("writeTx = %v", err)
		}
		mustBalance(t, db, m, "TWD", "1000", "0")
		db.Close()

		// After a restart every projector resumes after its checkpoint.
		db = e.open()
		r = e.run(db, nil)
		e.Deposit(m, "D3", "300")
		r.waitFor(t, e.Head())
		mustBalance(t, db, m, "TWD", "3300", "0")
		recs, _, err := db.FundHistory(ctx, m, "all", 1, 10)
		if err != nil || len(recs) != 3 {
			t.Fatalf("records = %+v, %v", recs, err)
		}
		noDiffs(t, r.Runner)
	})
}

// TestIndependentProgress: a projector far behind the others (here: its read model dropped)
// catches up from the store while the others idle at the head.
func TestIndependentProgress(t *testing.T) {
	backends(t, func(t *testing.T, e *env) {
		ctx := context.Background()
		m := e.Register("0912345678")
		for i := range 20 {
			e.Deposit(m, fmt.Sprintf("D%d", i), "100")
		}
		db := e.open()
		r := e.run(db, nil)
		r.waitFor(t, e.Head())
		r.stop()
		if err := db.writeTx(ctx, func(w *Wtx) error {
			if err := db.createTables(ctx, w, balancesProjector, "", true); err != nil {
				return err
			}
			return setCheckpoint(ctx, w, "balances", balancesProjector.schemaHash(), 0)
		}); err != nil {
			t.Fatal(err)
		}
		mustBalance(t, db, m, "TWD", "0", "0")
		runner := NewRunner(db, e.Store, nil, nil)
		runner.hubCapacity = 4
		r = e.runWith(runner)
		r.waitFor(t, e.Head())
		mustBalance(t, db, m, "TWD", "2000", "0")
		e.Deposit(m, "X", "1")
		r.waitFor(t, e.Head())
		mustBalance(t, db, m, "TWD", "2001", "0")
	})
}

func TestWaitFor(t *testing.T) {
	backends(t, func(t *testing.T, e *env) {
		db := e.open()
		r := e.run(db, nil)
		m := e.Register("0912345678")
		r.waitFor(t, e.Head())
		if r.Position() != e.Head() {
			t.Fatalf("Position = %d, head %d", r.Position(), e.Head())
		}
		target := e.Head() + 2
		done := make(chan error, 1)
		go func() {
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			done <- r.WaitFor(ctx, target)
		}()
		select {
		case err := <-done:
			t.Fatalf("WaitFor returned before the events existed: %v", err)
		case <-time.After(100 * time.Millisecond):
		}
		e.Deposit(m, "D1", "1000")
		if err := <-done; err != nil {
			t.Fatal(err)
		}
		mustBalance(t, db, m, "TWD", "1000", "0")

		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		defer cancel()
		if err := r.WaitFor(ctx, e.Head()+100); !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("WaitFor beyond the head = %v", err)
		}
	})
}

func TestRebuildWhileServing(t *testing.T) {
	backends(t, func(t *testing.T, e *env) {
		ctx := context.Background()
		var members []string
		for i := range 20 {
			members = append(members, e.Register(fmt.Sprintf("09%08d", i)))
		}
		for i := range 300 {
			m := members[i%len(members)]
			order := fmt.Sprintf("A%d", i)
			e.Deposit(m, order, "1000")
		}
		db := e.open()
		r := e.run(db, nil)
		r.waitFor(t, e.Head())

		// Writers keep appending while every read model is rebuilt; reads keep answering.
		stop := make(chan struct{})
		var wg sync.WaitGroup
		wg.Add(2)
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				m := members[i%len(members)]
				order := fmt.Sprintf("B%d", i)
				e.Deposit(m, order, "10")
			}
		}()
		readErrs := make(chan error, 1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				if _, err := db.Balances(ctx, members[0]); err != nil {
					select {
					case readErrs <- err:
					default:
					}
				}
				if _, _, err := db.FundHistory(ctx, members[0], "all", 1, 20); err != nil {
					select {
					case readErrs <- err:
					default:
					}
				}
				time.Sleep(time.Millisecond)
			}
		}()
		// Half of the rebuilds run through a second handle on the database, as `lotbook rebuild`
		// does from another process while the server runs its projectors.
		other := NewRunner(e.open(), e.Store, nil, nil)
		for i, name := range r.Names() {
			var last, total int64
			rebuilder := r.Runner
			if i%2 == 1 {
				rebuilder = other
			}
			if err := rebuilder.Rebuild(ctx, name, func(done, tot int64) { last, total = done, tot }); err != nil {
				t.Fatalf("Rebuild(%s): %v", name, err)
			}
			if last == 0 || last != total {
				t.Fatalf("Rebuild(%s) progress ended at %d/%d", name, last, total)
			}
		}
		close(stop)
		wg.Wait()
		select {
		case err := <-readErrs:
			t.Fatalf("read during rebuild: %v", err)
		default:
		}
		r.waitFor(t, e.Head())
		noDiffs(t, r.Runner)
		var sum int64
		for _, m := range members {
			bs, err := db.Balances(ctx, m)
			if err != nil {
				t.Fatal(err)
			}
			sum += bs["TWD"].Available.IntPart()
		}
		house, err := db.HouseBalances(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if -house[events.HouseBankClearing]["TWD"].IntPart() != sum {
			t.Fatalf("members hold %d, bank clearing %s", sum, house[events.HouseBankClearing]["TWD"])
		}

		// A second rebuild works too (fresh constraint and index names), also with no runner.
		r.stop()
		if err := NewRunner(db, e.Store, nil, nil).Rebuild(ctx, "journal", nil); err != nil {
			t.Fatal(err)
		}
		noDiffs(t, NewRunner(db, e.Store, nil, nil))
	})
}

func TestCompareDetectsTampering(t *testing.T) {
	backends(t, func(t *testing.T, e *env) {
		ctx := context.Background()
		m, db, r := e.deposited(t)
		noDiffs(t, r.Runner)

		if _, err := db.w.ExecContext(ctx, db.d.rebind("UPDATE balances SET amount = ? WHERE member_id = ? AND kind = 'available'"), "1000000", m); err != nil {
			t.Fatal(err)
		}
		if _, err := db.w.ExecContext(ctx, db.d.rebind("DELETE FROM journal WHERE line_id = ?"), "D1"); err != nil {
			t.Fatal(err)
		}
		diffs, err := r.Compare(ctx, "balances")
		if err != nil {
			t.Fatal(err)
		}
		if len(diffs) != 1 || !strings.Contains(diffs[0], m) || !strings.Contains(diffs[0], `kind=available asset=TWD]: amount read model "1000000", replay "1000"`) {
			t.Fatalf("balances diffs = %q", diffs)
		}
		diffs, err = r.Compare(ctx, "journal")
		if err != nil {
			t.Fatal(err)
		}
		if len(diffs) != 1 || !strings.Contains(diffs[0], "line_id=D1") || !strings.Contains(diffs[0], "missing from the read model") {
			t.Fatalf("journal diffs = %q", diffs)
		}
		if _, err := r.Compare(ctx, "nope"); !errors.Is(err, ErrNotFound) {
			t.Fatalf("Compare(nope) = %v", err)
		}
		// Rebuild repairs it.
		if err := r.Rebuild(ctx, "balances", nil); err != nil {
			t.Fatal(err)
		}
		mustBalance(t, db, m, "TWD", "1000", "0")
	})
}

// TestMoneyProjectionStalls: an event with unbalanced postings stops the balances projector
// (failure counted, stalled gauge set) and the account unit it applies pages with, while the
// other projectors go on.
func TestMoneyProjectionStalls(t *testing.T) {
	e := sqliteEnv(t)
	m := e.Register("0912345678")
	e.RequestDeposit(m, "D1", "1000")
	bad := e.Add(events.AccountStream(m), "ops:ops", events.DepositApproved{OrderNo: "D1", Currency: "TWD", Amount: dec("1000"),
		Postings: []events.Posting{{Account: events.MemberAvailable(m), Currency: "TWD", Amount: dec("1000")}}})
	// More events than the shared feed buffers: the stalled projector must not hold them back.
	for i := range 30 {
		e.Register(fmt.Sprintf("09%08d", i))
	}
	db := e.open()
	reg := prometheus.NewRegistry()
	runner := NewRunner(db, e.Store, nil, reg)
	runner.hubCapacity = 8
	r := e.runWith(runner)

	deadline := time.Now().Add(10 * time.Second)
	for testutil.ToFloat64(r.failures.WithLabelValues("balances")) < 2 {
		if time.Now().After(deadline) {
			t.Fatal("balances projector did not fail")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if got := testutil.ToFloat64(r.stalled.WithLabelValues("balances")); got != 1 {
		t.Fatalf("stalled = %v", got)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for _, name := range []string{probeProjector.Name} {
		for {
			r.mu.Lock()
			pos := r.pos[name]
			r.mu.Unlock()
			if pos == e.Head() {
				break
			}
			if ctx.Err() != nil {
				t.Fatalf("%s stuck at %d", name, pos)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	for _, name := range []string{"balances", "members", "journal"} {
		r.mu.Lock()
		pos := r.pos[name]
		r.mu.Unlock()
		if pos >= bad {
			t.Fatalf("%s moved past the failing event: %d >= %d", name, pos, bad)
		}
	}
	if r.Position() >= bad {
		t.Fatalf("Position %d passed the failing event %d", r.Position(), bad)
	}
}

func TestMetrics(t *testing.T) {
	backends(t, func(t *testing.T, e *env) {
		m := e.Register("0912345678")
		e.RequestDeposit(m, "D1", "1000")
		db := e.open()
		reg := prometheus.NewRegistry()
		r := e.run(db, reg)
		r.waitFor(t, e.Head())
		got := gather(t, reg)
		for _, name := range r.Names() {
			for metric, want := range map[string]float64{
				"lotbook_projection_position": float64(e.Head()), "lotbook_projection_lag_events": 0,
				"lotbook_projection_lag_seconds": 0, "lotbook_projection_failures_total": 0, "lotbook_projection_stalled": 0,
			} {
				if v, ok := got[metric+"/"+name]; !ok || v != want {
					t.Fatalf("%s{projector=%q} = %v (present %v), want %v", metric, name, v, ok, want)
				}
			}
		}

		// A runner that has not caught up reports the events it lacks and their age.
		r.stop()
		e.RequestDeposit(m, "D2", "1000")
		reg = prometheus.NewRegistry()
		lagging := NewRunner(db, e.Store, nil, reg)
		if err := lagging.loadCheckpoints(context.Background()); err != nil {
			t.Fatal(err)
		}
		got = gather(t, reg)
		for _, name := range r.Names() {
			if got["lotbook_projection_lag_events/"+name] != 1 || got["lotbook_projection_lag_seconds/"+name] <= 0 {
				t.Fatalf("%s: lag %v events, %v s", name, got["lotbook_projection_lag_events/"+name], got["lotbook_projection_lag_seconds/"+name])
			}
		}
	})
}

// gather returns every series of g as "name/projector" -> value.
func gather(t testing.TB, g prometheus.Gatherer) map[string]float64 {
	t.Helper()
	mfs, err := g.Gather()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]float64{}
	for _, mf := range mfs {
		for _, m := range mf.GetMetric() {
			var Projector string
			for _, l := range m.GetLabel() {
				if l.GetName() == "projector" {
					Projector = l.GetValue()
				}
			}
			v := m.GetGauge().GetValue()
			if m.GetCounter() != nil {
				v = m.GetCounter().GetValue()
			}
			out[mf.GetName()+"/"+Projector] = v
		}
	}
	return out
}

func TestIdempotencyRecords(t *testing.T) {
	backends(t, func(t *testing.T, e *env) {
		ctx := context.Background()
		db := e.open()
		if _, found, err := db.GetIdempotency(ctx, "k0"); err != nil || found {
			t.Fatalf("Get(k0) = %v, %v", found, err)
		}
		// Concurrent puts share transactions; the first answer under a key wins: a second
		// wave of writers with other answers, after the first has been stored, changes nothing.
		for wave := range 2 {
			var wg sync.WaitGroup
			errs := make(chan error, 100)
			for i := range 100 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					errs <- db.PutIdempotency(ctx, IdemRecord{Key: fmt.Sprintf("k%d", i), Actor: "member:a", RequestHash: "h", HTTPStatus: 200 + wave, Body: []byte(`{"status":1}`)})
				}()
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				if err != nil {
					t.Fatal(err)
				}
			}
		}
		for i := range 100 {
			rec, found, err := db.GetIdempotency(ctx, fmt.Sprintf("k%d", i))
			if err != nil || !found || rec.HTTPStatus != 200 || string(rec.Body) != `{"status":1}` || rec.Actor != "member:a" || rec.RequestHash != "h" {
				t.Fatalf("Get(k%d) = %+v, %v, %v", i, rec, found, err)
			}
		}
		if err := db.PutIdempotency(ctx, IdemRecord{Key: "empty", HTTPStatus: 204}); err != nil {
			t.Fatal(err)
		}
		if rec, found, err := db.GetIdempotency(ctx, "empty"); err != nil || !found || len(rec.Body) != 0 {
			t.Fatalf("Get(empty) = %+v, %v, %v", rec, found, err)
		}
		// A claim without an answer takes the answer of the same request, in one batch or
		// later; never another request's, and a stored answer never changes.
		claim := IdemRecord{Key: "claim", Actor: "member:a", RequestHash: "h"}
		answered := IdemRecord{Key: "claim", Actor: "member:a", RequestHash: "h", HTTPStatus: 200, Body: []byte(`{"status":1}`)}
		other := IdemRecord{Key: "claim", Actor: "member:b", RequestHash: "h", HTTPStatus: 200, Body: []byte(`{"status":2}`)}
		batched := answered
		batched.Key = "batched"
		for _, put := range [][]IdemRecord{{claim}, {other}, {answered}, {claim, func() IdemRecord { c := claim; c.Key = "batched"; return c }(), batched}} {
			if err := db.PutIdempotency(ctx, put...); err != nil {
				t.Fatal(err)
			}
		}
		for _, want := range []IdemRecord{answered, batched} {
			if rec, found, err := db.GetIdempotency(ctx, want.Key); err != nil || !found || rec.HTTPStatus != 200 ||
				string(rec.Body) != `{"status":1}` || rec.Actor != "member:a" {
				t.Fatalf("Get(%s) = %+v, %v, %v", want.Key, rec, found, err)
			}
		}
		db.Close()
		if err := db.PutIdempotency(ctx, IdemRecord{Key: "late"}); !errors.Is(err, errReadDBClosed) {
			t.Fatalf("Put after Close = %v", err)
		}
	})
}

// TestAbandonedScratchTables: tables of a comparison that crashed are dropped on the next open,
// once old enough; recent ones (maybe another process's, still running) are kept.
func TestAbandonedScratchTables(t *testing.T) {
	backends(t, func(t *testing.T, e *env) {
		ctx := context.Background()
		db := e.open()
		for suffix, age := range map[string]time.Duration{"_cmp_old": 2 * abandonedAfter, "_cmp_new": time.Minute} {
			if err := db.writeTx(ctx, func(w *Wtx) error {
				if err := db.createTables(ctx, w, balancesProjector, suffix, false); err != nil {
					return err
				}
				if err := setCheckpoint(ctx, w, "balances"+suffix, "x", 0); err != nil {
					return err
				}
				return w.Exec(ctx, "UPDATE projection_checkpoints SET updated_at = ? WHERE name = ?", time.Now().Add(-age).UnixMicro(), "balances"+suffix)
			}); err != nil {
				t.Fatal(err)
			}
		}
		db.Close()
		db = e.open()
		if err := db.writeTx(ctx, func(w *Wtx) error {
			for suffix, want := range map[string]bool{"_cmp_old": false, "_cmp_new": true} {
				exist, err := db.tablesExist(ctx, w, balancesProjector.Tables, suffix)
				if err != nil {
					return err
				}
				if exist != want {
					t.Errorf("tables %s exist = %v", suffix, exist)
				}
				if _, found, err := checkpointSchema(ctx, w, "balances"+suffix); err != nil || found != want {
					t.Errorf("checkpoint %s found = %v, %v", suffix, found, err)
				}
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
	})
}

// TestRetiredTables: the open that gives a projector its new tables drops the tables it retired
// (the members projector's sessions, from a database written before it dropped them).
func TestRetiredTables(t *testing.T) {
	backends(t, func(t *testing.T, e *env) {
		ctx := context.Background()
		db := e.open()
		retired := []*Table{{Name: "sessions"}}
		if err := db.writeTx(ctx, func(w *Wtx) error {
			if err := w.Exec(ctx, "CREATE TABLE sessions (token_hash TEXT NOT NULL)"); err != nil {
				return err
			}
			return setCheckpoint(ctx, w, membersProjector.Name, "before", 0)
		}); err != nil {
			t.Fatal(err)
		}
		db.Close()
		db = e.open()
		if err := db.writeTx(ctx, func(w *Wtx) error {
			exist, err := db.tablesExist(ctx, w, retired, "")
			if err == nil && exist {
				t.Error("retired table sessions still exists")
			}
			return err
		}); err != nil {
			t.Fatal(err)
		}
	})
}

// TestSnapshotIsOneMoment: queries in one snapshot see the read models as they were when it
// began, although the projections apply more while it is open, and the snapshot names the
// position it reflects.
func TestSnapshotIsOneMoment(t *testing.T) {
	backends(t, func(t *testing.T, e *env) {
		ctx := context.Background()
		r := e.run(e.open(), nil)
		m := e.Register("0912345678")
		e.RequestDeposit(m, "D1", "1000")
		first := e.ApproveDeposit(m, "D1", "1000")
		r.waitFor(t, first)
		var second int64
		pos, err := r.Snapshot(ctx, func(rd *Reader) error {
			for i := range 2 {
				bs, err := rd.Balances(ctx, m)
				if err != nil {
					return err
				}
				if got := bs["TWD"].Available; !got.Equal(dec("1000")) {
					t.Errorf("read %d in the snapshot: available %s, want 1000", i, got)
				}
				if i == 0 {
					e.RequestDeposit(m, "D2", "500")
					second = e.ApproveDeposit(m, "D2", "500")
					r.waitFor(t, second)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if pos < first || pos >= second {
			t.Fatalf("snapshot reflects %d, want from %d and before %d", pos, first, second)
		}
		mustBalance(t, r.db, m, "TWD", "1500", "0")
	})
}

// TestBigUpsertAndSelectKeys: a page of rows beyond two full statements (sharing one prepared
// statement) is written whole, rewritten in place, and read back by its composite key, on both
// databases.
func TestBigUpsertAndSelectKeys(t *testing.T) {
	backends(t, func(t *testing.T, e *env) {
		ctx := context.Background()
		db := e.open()
		tb := &Table{Name: "upsert_probe", Key: []string{"a", "b"}, Fixed: []string{"fixed"},
			Cols: []Column{{Name: "a", Kind: KindText}, {Name: "b", Kind: KindText}, {Name: "fixed", Kind: KindInt}, {Name: "v", Kind: KindInt}}}
		per := MaxParams / len(tb.Cols)
		n := 2*per + 7
		rows := func(v int64) [][]any {
			out := make([][]any, n)
			for i := range out {
				out[i] = []any{fmt.Sprint(i % 10), fmt.Sprint(i), v, v + int64(i)}
			}
			return out
		}
		err := db.writeTx(ctx, func(w *Wtx) error {
			if err := w.Exec(ctx, db.d.createTable(tb, "", "t")); err != nil {
				return err
			}
			if err := w.Upsert(ctx, tb, rows(1)); err != nil {
				return err
			}
			return w.Upsert(ctx, tb, rows(1000000))
		})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		err = db.writeTx(ctx, func(w *Wtx) error {
			// (3, 3) and (4, 14) exist; (3, 4) pairs a real a with a real b of another row.
			keys := [][]any{{"3", "3"}, {"4", "14"}, {"3", "4"}}
			return w.SelectKeys(ctx, tb, keys, func(r Rows) error {
				var a, b string
				var fixed, v int64
				if err := r.Scan(&a, &b, &fixed, &v); err != nil {
					return err
				}
				got = append(got, fmt.Sprintf("%s/%s %d %d", a, b, fixed, v))
				return nil
			})
		})
		if err != nil {
			t.Fatal(err)
		}
		var count int
		if err := db.w.QueryRowContext(ctx, "SELECT COUNT(*) FROM upsert_probe").Scan(&count); err != nil || count != n {
			t.Fatalf("rows = %d, %v; want %d", count, err, n)
		}
		if fmt.Sprint(got) != "[3/3 1 1000003 4/14 1 1000014]" && fmt.Sprint(got) != "[4/14 1 1000014 3/3 1 1000003]" {
			t.Fatalf("selected %v", got)
		}
	})
}
