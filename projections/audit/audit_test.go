package audit

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/events/sqlite/sqlitetest"
	"github.com/shopspring/decimal"
)

// newStore is a fresh SQLite event store, the default backend.
func newStore(t *testing.T) events.Store { return sqlitetest.Open(t) }

// logBuilder appends typed events with readable metadata.
type logBuilder struct {
	t     *testing.T
	store events.Store
	n     int
}

func (b *logBuilder) add(stream, actor string, p events.Payload) {
	b.t.Helper()
	typ, data, err := events.Encode(p)
	if err != nil {
		b.t.Fatal(err)
	}
	b.n++
	cmd := fmt.Sprintf("cmd-%d", b.n)
	_, err = b.store.Append(context.Background(), stream, events.AnyVersion, []events.EventData{{
		ID: events.EventID(cmd, stream, 0), Type: typ, Data: data,
		Metadata: events.Metadata{CommandID: cmd, Actor: actor, ServerTime: time.Date(2026, 3, 2, 2, 0, b.n, 0, time.UTC)},
	}})
	if err != nil {
		b.t.Fatal(err)
	}
}

func dec(s string) decimal.Decimal { return decimal.RequireFromString(s) }

// journey writes a member's registration, fund password, one approved and one rejected deposit.
func journey(b *logBuilder, account string) string {
	id := events.MemberID(account)
	b.add(events.MemberStream(id), "system", events.MemberRegistered{MemberID: id, Account: account,
		Role: events.RoleMember, PasswordHash: "$argon2id$secret", InviteCode: "LOTBOOK"})
	b.add(events.MemberStream(id), "member:"+account, events.SessionOpened{TokenHash: "abc", ExpiresAt: time.Date(2026, 3, 3, 0, 0, 0, 0, time.UTC)})
	b.add(events.MemberStream(id), "member:"+account, events.FundPasswordSet{Hash: "$argon2id$fund"})
	b.add(events.AccountStream(id), "member:"+account, events.DepositRequested{OrderNo: "D1-" + account, ChannelID: "bank",
		ChannelName: "Bank", Currency: "TWD", Amount: dec("5000"), ProofFileID: "f1"})
	b.add(events.AccountStream(id), "ops:ops", events.DepositApproved{OrderNo: "D1-" + account, Currency: "TWD", Amount: dec("5000"),
		Postings: events.Transfer(events.HouseBankClearing, events.MemberAvailable(id), "TWD", dec("5000"))})
	b.add(events.AccountStream(id), "member:"+account, events.DepositRequested{OrderNo: "D2-" + account, ChannelID: "bank",
		ChannelName: "Bank", Currency: "TWD", Amount: dec("1000"), ProofFileID: "f1"})
	b.add(events.AccountStream(id), "ops:ops", events.DepositRejected{OrderNo: "D2-" + account, Remark: "blurred"})
	return id
}

type fakeReadModels map[string][]string

func (f fakeReadModels) Names() []string {
	var out []string
	for n := range f {
		out = append(out, n)
	}
	return out
}

func (f fakeReadModels) Compare(_ context.Context, name string) ([]string, error) {
	return f[name], nil
}

func TestVerify(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name  string
		build func(b *logBuilder)
		db    ReadModels
		want  []string // finding kinds, in order; empty means OK
	}{
		{
			name:  "clean log",
			build: func(b *logBuilder) { journey(b, "0912345678"); journey(b, "0987654321") },
			db:    fakeReadModels{"balances": nil, "members": nil},
		},
		{
			name: "unbalanced posting",
			build: func(b *logBuilder) {
				id := journey(b, "0912345678")
				b.add(events.AccountStream(id), "ops:ops", events.DepositApproved{OrderNo: "D3", Currency: "TWD", Amount: dec("10"),
					Postings: []events.Posting{
						{Account: events.HouseBankClearing, Currency: "TWD", Amount: dec("-10")},
						{Account: events.MemberAvailable(id), Currency: "TWD", Amount: dec("11")},
					}})
			},
			want: []string{KindUnbalanced, KindTotal},
		},
		{
			name: "negative balance",
			build: func(b *logBuilder) {
				id := journey(b, "0912345678")
				b.add(events.AccountStream(id), "ops:ops", events.DepositApproved{OrderNo: "D3", Currency: "TWD", Amount: dec("6000"),
					Postings: events.Transfer(events.MemberAvailable(id), events.HouseBankClearing, "TWD", dec("6000"))})
			},
			want: []string{KindNegative},
		},
		{
			name: "money of one member in another's stream",
			build: func(b *logBuilder) {
				id := journey(b, "0912345678")
				other := journey(b, "0987654321")
				b.add(events.AccountStream(other), "ops:ops", events.DepositApproved{OrderNo: "D9", Currency: "TWD", Amount: dec("1"),
					Postings: events.Transfer(events.HouseBankClearing, events.MemberAvailable(id), "TWD", dec("1"))})
			},
			want: []string{KindMisplaced},
		},
		{
			name:  "tampered read model",
			build: func(b *logBuilder) { journey(b, "0912345678") },
			db:    fakeReadModels{"balances": {"member 1 TWD available: read model 9000, replay 5000"}},
			want:  []string{KindReadModel},
		},
		{
			name: "undecodable event",
			build: func(b *logBuilder) {
				_, err := b.store.Append(ctx, "member-x", events.NoStream, []events.EventData{{ID: uuid.New(), Type: "Nonsense.v1", Data: []byte(`{}`)}})
				if err != nil {
					b.t.Fatal(err)
				}
			},
			want: []string{KindDecode},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			store := newStore(t)
			tc.build(&logBuilder{t: t, store: store})
			rep, err := Verify(ctx, store, tc.db)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, f := range rep.Findings {
				got = append(got, f.Kind)
			}
			if strings.Join(got, ",") != strings.Join(tc.want, ",") {
				t.Fatalf("findings %v, want %v\n%s", got, tc.want, rep)
			}
			if rep.OK() != (len(tc.want) == 0) {
				t.Fatalf("OK() = %v with findings %v", rep.OK(), got)
			}
			if head, _ := store.Head(ctx); rep.Events != head || rep.Head != head {
				t.Fatalf("replayed %d events up to %d, head %d", rep.Events, rep.Head, head)
			}
			if !rep.OK() && !strings.Contains(rep.String(), "FAILED") {
				t.Fatalf("report does not say FAILED:\n%s", rep)
			}
		})
	}
}

func TestVerifyPages(t *testing.T) {
	store := newStore(t)
	id := events.MemberID("0912345678")
	batch := make([]events.EventData, pageSize+7)
	for i := range batch {
		typ, data, err := events.Encode(events.DepositApproved{OrderNo: fmt.Sprint(i), Currency: "TWD", Amount: dec("1"),
			Postings: events.Transfer(events.HouseBankClearing, events.MemberAvailable(id), "TWD", dec("1"))})
		if err != nil {
			t.Fatal(err)
		}
		batch[i] = events.EventData{ID: uuid.New(), Type: typ, Data: data, Metadata: events.Metadata{CommandID: "c", Actor: "system"}}
	}
	if _, err := store.Append(context.Background(), events.AccountStream(id), events.NoStream, batch); err != nil {
		t.Fatal(err)
	}
	rep, err := Verify(context.Background(), store, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !rep.OK() || rep.Events != pageSize+7 || rep.MoneyEvents != pageSize+7 || !rep.Totals["TWD"].IsZero() {
		t.Fatalf("report:\n%s", rep)
	}
}

func TestTimeline(t *testing.T) {
	store := newStore(t)
	b := &logBuilder{t: t, store: store}
	id := journey(b, "0912345678")
	journey(b, "0987654321") // another member's events never show up
	entries, err := Timeline(context.Background(), store, id)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 7 {
		t.Fatalf("%d entries, want 7", len(entries))
	}
	wantAvail := []string{"0", "0", "0", "0", "5000", "5000", "5000"}
	for i, e := range entries {
		if i > 0 && e.Position <= entries[i-1].Position {
			t.Fatalf("entry %d at %d not after %d", i, e.Position, entries[i-1].Position)
		}
		if got := e.Balances["TWD"].Available.String(); got != wantAvail[i] {
			t.Fatalf("entry %d (%s) available %s, want %s", i, e.Type, got, wantAvail[i])
		}
	}
	approved := entries[4]
	if approved.Actor != "ops:ops" || approved.CommandID == "" || len(approved.Postings) != 2 || approved.Type != "DepositApproved.v1" {
		t.Fatalf("approved entry: %+v", approved)
	}
	if _, ok := approved.Summary["postings"]; ok {
		t.Fatal("summary repeats postings")
	}
	raw, err := json.Marshal(entries)
	if err != nil {
		t.Fatal(err)
	}
	for _, secret := range []string{"$argon2id", "tokenHash", "passwordHash", `"hash"`} {
		if strings.Contains(string(raw), secret) {
			t.Fatalf("timeline leaks %s: %s", secret, raw)
		}
	}
	if !strings.Contains(string(raw), `"available":"5000"`) {
		t.Fatalf("balances not decimal strings: %s", raw)
	}
}

func TestSecretFieldHidesCredentialsAndSealedNumbers(t *testing.T) {
	for name, secret := range map[string]bool{
		"passwordHash": true, "hash": true, "tokenHash": true, "idNumberCipher": true,
		"idNumberKeyedHash": true, "cardNumberCipher": true, "cardNumberKeyedHash": true,
		"idNumberMasked": false, "last4": false, "amount": false, "orderNo": false, "name": false,
	} {
		if got := secretField(name); got != secret {
			t.Errorf("secretField(%q) = %v, want %v", name, got, secret)
		}
	}
}
