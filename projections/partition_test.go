package projections

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/projections/projtest/eventlog"
)

// partitioned adds eight members (accounts from from on) spread over both partitions of two: registrations, fund
// passwords, flags and uploads (the members read model) and deposits (balances, journal and
// wallet, partitioned, and house_balances, run whole by partition 0).
func (e *env) partitioned(t *testing.T, from int) {
	t.Helper()
	seen := map[int]int{}
	for i := from; i < from+8; i++ {
		id := e.Register(fmt.Sprintf("09123456%02d", i))
		seen[streamPart(events.MemberStream(id), 2)]++
		e.Add(events.MemberStream(id), "member:m", events.FundPasswordSet{Hash: "h"},
			events.FileUploaded{FileID: "file-" + id, ContentType: "image/png", Size: 10, Width: 1, Height: 1})
		e.Add(events.MemberStream(id), "ops:ops", events.AccountFlagChanged{Flag: events.AllFlags[0], On: true, Reason: "r"})
		e.Deposit(id, "D"+id, "100")
	}
	if seen[0] == 0 || seen[1] == 0 {
		t.Fatalf("members per partition %v: the test needs both partitions to own some", seen)
	}
}

// runPart runs partition i of n over db.
func (e *env) runPart(db *ReadDB, i, n int) *running {
	r := NewRunner(db, e.Store, nil, nil)
	r.SetPartition(Partition{Index: i, Count: n}, false)
	return e.runWith(r)
}

// TestPartitionsEqualOneReplay: two projector instances, partitions 0/2 and 1/2 of one read
// database, together build the same read models as one runner replaying the log alone, each
// with its own checkpoints moved to the head over the other's events; and the comparison that
// `lotbook verify` runs finds them equal to their replay.
func TestPartitionsEqualOneReplay(t *testing.T) {
	backends(t, func(t *testing.T, e *env) {
		e.partitioned(t, 0)
		db := e.open()
		a, b := e.runPart(db, 0, 2), e.runPart(e.open(), 1, 2)
		head := e.Head()
		a.waitFor(t, head)
		b.waitFor(t, head)
		cps, err := db.checkpoints(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range []string{"members#0/2", "members#1/2", "balances#0/2", "balances#1/2", "journal#1/2", "wallet#1/2", "house_balances"} {
			if cps[name] != head {
				t.Errorf("checkpoint %s at %d, want the head %d (checkpoints %v)", name, cps[name], head, cps)
			}
		}
		if _, ok := cps["house_balances#1/2"]; ok {
			t.Errorf("house_balances, which sums the house accounts of every stream, was partitioned: %v", cps)
		}
		sameAsOneRunner(t, e, db, head, projectors)

		// With partition 1 stopped behind partition 0, the comparison (lotbook verify) brings
		// it to partition 0's position and compares the whole read model with one replay.
		b.stop()
		e.partitioned(t, 8)
		head = e.Head()
		a.waitFor(t, head)
		noDiffs(t, a.Runner)
		if cps, err = db.checkpoints(t.Context()); err != nil || cps["members#1/2"] != head {
			t.Errorf("partition 1 of 2 at %d after the comparison (%v), want the head %d", cps["members#1/2"], err, head)
		}

		// A rebuild swaps the whole read model in and sets every partition to its position.
		if err := a.Rebuild(t.Context(), "members", nil); err != nil {
			t.Fatal(err)
		}
		if cps, err = db.checkpoints(t.Context()); err != nil || cps["members#0/2"] != head || cps["members#1/2"] != head {
			t.Errorf("after the rebuild: %v (%v), want both partitions at %d", cps, err, head)
		}
		noDiffs(t, a.Runner)
	})
}

// sameAsOneRunner fails the test unless the tables of ps in db, projected by partitions, equal
// those of one runner replaying the log to head alone.
func sameAsOneRunner(t *testing.T, e *env, db *ReadDB, head int64, ps []*Projector) {
	t.Helper()
	one, err := OpenReadDB(t.Context(), t.TempDir(), "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { one.Close() })
	e.runWith(NewRunner(one, e.Store, nil, nil)).waitFor(t, head)
	for _, p := range ps {
		for _, tb := range p.Tables {
			if got, want := dump(t, db, tb), dump(t, one, tb); !slices.Equal(got, want) {
				t.Errorf("%s by two partitions:\n%s\nby one runner:\n%s", tb.Name, strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		}
	}
}

// TestMoneySplitLikeOne: a journey of deposits and withdrawals (frozen holds opened, paid out
// and released, over several pages of the two partitions) gives the journal, wallet and balances
// read models of two partitions the same rows as one runner, and the house accounts' totals,
// summed by partition 0 alone, the same too.
func TestMoneySplitLikeOne(t *testing.T) {
	backends(t, func(t *testing.T, e *env) {
		db := e.open()
		a, b := e.runPart(db, 0, 2), e.runPart(e.open(), 1, 2)
		seen := map[int]int{}
		for i := range 6 {
			id := e.Register(fmt.Sprintf("09223456%02d", i))
			seen[streamPart(events.AccountStream(id), 2)]++
			e.Deposit(id, fmt.Sprintf("D%d", i), "1000")
			for j, approve := range []bool{true, false} {
				no, amount := fmt.Sprintf("W%d-%d", i, j), dec("100")
				e.Add(events.AccountStream(id), "member:m", events.WithdrawalRequested{OrderNo: no, ChannelID: "bank", ChannelName: "Bank",
					Currency: "TWD", Amount: amount, CardID: "c", Postings: events.Transfer(events.MemberAvailable(id), events.MemberFrozen(id), "TWD", amount)})
				if i%2 == 0 {
					continue // left frozen: an open hold
				}
				if approve {
					e.Add(events.AccountStream(id), "ops:ops", events.WithdrawalApproved{OrderNo: no, Currency: "TWD", Amount: amount,
						Postings: events.Transfer(events.MemberFrozen(id), events.HouseBankClearing, "TWD", amount)})
				} else {
					e.Add(events.AccountStream(id), "ops:ops", events.WithdrawalRejected{OrderNo: no, Currency: "TWD", Amount: amount, Remark: "r",
						Postings: events.Transfer(events.MemberFrozen(id), events.MemberAvailable(id), "TWD", amount)})
				}
			}
			// Part of the journey lands while the partitions run, part before they read it.
			if i == 2 {
				a.waitFor(t, e.Head())
			}
		}
		if seen[0] == 0 || seen[1] == 0 {
			t.Fatalf("members per partition %v: the test needs both partitions to own some", seen)
		}
		head := e.Head()
		a.waitFor(t, head)
		b.waitFor(t, head)
		money := []*Projector{journalProjector, walletProjector, balancesProjector, houseBalancesProjector}
		sameAsOneRunner(t, e, db, head, money)
		for _, tb := range []*Table{journalTable, walletHoldsTable, cashMonthsTable, balancesTable, houseBalancesTable} {
			if len(dump(t, db, tb)) == 0 {
				t.Errorf("%s: no rows, nothing compared", tb.Name)
			}
		}
		noDiffs(t, a.Runner)
	})
}

// TestForeignPostingStalls: an event of one member's account stream that posts to another
// member's account (which the command side refuses to append) stops the read models of money
// rather than be applied to a partition that does not own the other member.
func TestForeignPostingStalls(t *testing.T) {
	e := sqliteEnv(t)
	amount := dec("5")
	e.Add(events.AccountStream("a"), "ops:ops", events.DepositApproved{OrderNo: "D1", Currency: "TWD", Amount: amount,
		Postings: events.Transfer(events.HouseBankClearing, events.MemberAvailable("b"), "TWD", amount)})
	log, err := e.Store.ReadAll(t.Context(), 0, 10)
	if err != nil {
		t.Fatal(err)
	}
	db := e.open()
	for _, p := range []*Projector{balancesProjector, houseBalancesProjector, walletProjector} {
		err := db.writeTx(t.Context(), func(w *Wtx) error { _, err := p.applyPage(t.Context(), w, p.Name, wrap(log)); return err })
		if err == nil || !strings.Contains(err.Error(), events.MemberAvailable("b")) {
			t.Errorf("%s applied a posting to member b from member a's stream: %v", p.Name, err)
		}
	}
}

// dump is every row of tb, as text, sorted.
func dump(t *testing.T, db *ReadDB, tb *Table) []string {
	t.Helper()
	rows, err := db.TableRows(t.Context(), tb)
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// TestReadsWaitForEveryPartition: an API instance's read-your-writes wait (Watch) ends only
// once every partition has applied the write: with partition 1 of 2 not running, partition 0
// having applied and published the head does not make the read answer.
func TestReadsWaitForEveryPartition(t *testing.T) {
	e := postgresEnv(t)
	e.partitioned(t, 0)
	head := e.Head()
	zero := e.runPart(e.open(), 0, 2)
	eventlog.Start(t, zero.Publish)
	watcher := NewRunner(e.open(), e.Store, nil, nil)
	eventlog.Start(t, watcher.Watch)
	zero.waitFor(t, head)

	// Bounded by partition 1's absence, not by time: the wait cannot end while it is away.
	ctx, cancel := context.WithTimeout(t.Context(), 500*time.Millisecond)
	defer cancel()
	if err := watcher.WaitFor(ctx, head); err == nil {
		t.Fatalf("a read waited for position %d and answered with partition 1 of 2 not running (watcher at %d)", head, watcher.Position())
	}

	one := e.runPart(e.open(), 1, 2)
	eventlog.Start(t, one.Publish)
	eventlog.WaitFor(t, watcher, head)
}

// TestPartitionCountChangeRefused: a read database projected by one instance is not taken over
// by partitions of two (their checkpoints would start the members read model again on top of
// its rows), nor two partitions' by one, unless a repartition is asked for: then the
// partitioned read models are reset and projected again, equal to their replay.
func TestPartitionCountChangeRefused(t *testing.T) {
	e := sqliteEnv(t)
	e.partitioned(t, 0)
	db := e.open()
	stop := e.run(db, nil)
	stop.waitFor(t, e.Head())
	stop.stop()

	refused := func(i, n int) {
		t.Helper()
		r := NewRunner(db, e.Store, nil, nil)
		r.SetPartition(Partition{Index: i, Count: n}, false)
		err := r.Run(t.Context())
		if err == nil || !strings.Contains(err.Error(), "--repartition") || !strings.Contains(err.Error(), "members") {
			t.Fatalf("partition %d/%d over read models of another count: %v, want a refusal naming members and --repartition", i, n, err)
		}
	}
	refused(1, 2)

	r := NewRunner(db, e.Store, nil, nil)
	r.SetPartition(Partition{Index: 0, Count: 2}, true)
	zero := e.runWith(r)
	head := e.Head()
	zero.waitFor(t, head) // claimed: partition 1 now finds the count it runs
	one := e.runPart(e.open(), 1, 2)
	one.waitFor(t, head)
	noDiffs(t, zero.Runner)
	zero.stop()
	one.stop()

	refused(0, 1)
}

func TestParsePartition(t *testing.T) {
	for _, s := range []string{"0/1", "1/2", "3/4"} {
		if pt, err := ParsePartition(s); err != nil || pt.String() != s {
			t.Errorf("ParsePartition(%q) = %v, %v", s, pt, err)
		}
	}
	for _, s := range []string{"", "1", "2/2", "-1/2", "0/0", "a/b", "1/2/3"} {
		if _, err := ParsePartition(s); err == nil {
			t.Errorf("ParsePartition(%q) accepted", s)
		}
	}
}

// TestStreamPartIsStable pins the hash: a deployment's rows stay where its partitions wrote
// them only while every release hashes a stream to the same partition. A member's streams go
// together.
func TestStreamPartIsStable(t *testing.T) {
	id := events.MemberID("0912345678")
	if a, m := streamPart(events.AccountStream(id), 7), streamPart(events.MemberStream(id), 7); a != m {
		t.Errorf("member %s: account stream in partition %d, member stream in %d", id, a, m)
	}
	if got := []int{streamPart("config", 2), streamPart("config", 7), streamPart("member-a", 7), streamPart("member-b", 7)}; !slices.Equal(got, []int{1, 4, 5, 6}) {
		t.Errorf("partitions %v changed: FNV-1a of the member or stream name, mod n", got)
	}
}

func TestPublishedProgressNeedsEveryPartition(t *testing.T) {
	for _, tc := range []struct {
		pr   progress
		want int64
	}{
		{progress{}, 0},
		{progress{{0, 1}: 7}, 7},
		{progress{{0, 2}: 9}, 0},
		{progress{{0, 2}: 9, {1, 2}: 5}, 5},
		{progress{{0, 3}: 9, {2, 3}: 8}, 0},
	} {
		if got := tc.pr.low(); got != tc.want {
			t.Errorf("%v.low() = %d, want %d", tc.pr, got, tc.want)
		}
	}
}
