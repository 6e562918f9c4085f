package commands_test

import (
	"context"
	"fmt"
	"path/filepath"
	"reflect"
	"testing"
	"time"
	"unsafe"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/commands"
	_ "github.com/lotbook/lotbook/commands/alerts" // every capability with parts, so that each is checked
	"github.com/lotbook/lotbook/commands/commandstest"
	"github.com/lotbook/lotbook/commands/commandstest/scenario"
	_ "github.com/lotbook/lotbook/commands/favorites"
	"github.com/lotbook/lotbook/commands/funds"
	_ "github.com/lotbook/lotbook/commands/identity"
	"github.com/lotbook/lotbook/commands/rules/secret"
	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/events/sqlite"
	"github.com/lotbook/lotbook/ops/seed"
)

// cutStore reads every stream only up to version upTo, as the store was when a snapshot was
// taken. It keeps no snapshots (the embedded interface hides the backend's).
type cutStore struct {
	events.Store
	upTo int64
}

func (c cutStore) ReadStream(ctx context.Context, stream string, after int64) ([]events.RecordedEvent, error) {
	recs, err := c.Store.ReadStream(ctx, stream, after)
	for len(recs) > 0 && recs[len(recs)-1].Version > c.upTo {
		recs = recs[:len(recs)-1]
	}
	return recs, err
}

// snapStore keeps one snapshot, writes none, and notes where loads read their streams from.
type snapStore struct {
	events.Store
	snap   events.Snapshot
	readAt []int64
}

func (s *snapStore) LoadSnapshot(_ context.Context, stream string) (events.Snapshot, bool, error) {
	return s.snap, stream == s.snap.Stream, nil
}

func (s *snapStore) SaveSnapshot(context.Context, events.Snapshot) error { return nil }

func (s *snapStore) ReadStream(ctx context.Context, stream string, after int64) ([]events.RecordedEvent, error) {
	s.readAt = append(s.readAt, after)
	return s.Store.ReadStream(ctx, stream, after)
}

// TestSnapshotRestoreThenReplayEqualsReplay checks every stream of a real log whose aggregate
// can be snapshot, whatever its parts: restoring its snapshot at several versions and reading
// the events after it gives the aggregate, and the records retries are answered from, that a
// replay of the whole stream gives.
func TestSnapshotRestoreThenReplayEqualsReplay(t *testing.T) {
	for name, log := range map[string]func(*testing.T) events.Store{"demo": demoLog, "funds scenario": scenarioLog} {
		t.Run(name, func(t *testing.T) { checkSnapshots(t, log(t)) })
	}
}

// scenarioLog is the log of the funds scenario: a verified member with a card, deposits and a
// withdrawal, through the commands.
func scenarioLog(t *testing.T) events.Store {
	f := scenario.New(t)
	f.Seed(true)
	f.WithdrawalChannel()
	m := f.Verified("0912345678", scenario.IDNumber(1), "5000")
	card := f.Card(m, "0123-4567-8901")
	f.Card(m, "0123-4567-8902")
	for range 3 {
		f.Fund(m, "1000")
	}
	_, err := f.Funds.RequestWithdrawal(f.Ctx, commandstest.Meta("member"), m, funds.WithdrawalInput{Amount: "3000", CardID: card, FundPassword: "123456"})
	f.Must(err)
	return f.Store
}

func checkSnapshots(t *testing.T, store events.Store) {
	ctx := context.Background()
	all, err := store.ReadAll(ctx, 0, 1_000_000)
	if err != nil {
		t.Fatal(err)
	}
	length := map[string]int64{}
	for _, r := range all {
		length[r.Stream] = r.Version
	}
	opts := commands.Options{PasswordCost: secret.TestCost}
	checked := 0
	for stream, n := range length {
		plain := commands.New(store, opts)
		want, wantSeen, _, err := commands.LoadedAggregate(ctx, plain, stream)
		if err != nil {
			t.Fatal(err)
		}
		for _, at := range []int64{1, n / 3, 2 * n / 3, n} {
			if at < 1 {
				continue
			}
			snap, ok, err := commands.SnapshotOf(ctx, commands.New(cutStore{store, at}, opts), stream)
			if err != nil {
				t.Fatalf("%s at v%d: %v", stream, at, err)
			}
			if !ok {
				break // not snapshot-able: replayed as always
			}
			if snap.Version != at {
				t.Fatalf("%s: snapshot at v%d, want v%d", stream, snap.Version, at)
			}
			ss := &snapStore{Store: store, snap: snap}
			got, gotSeen, v, err := commands.LoadedAggregate(ctx, commands.New(ss, opts), stream)
			if err != nil {
				t.Fatal(err)
			}
			if len(ss.readAt) != 1 || ss.readAt[0] != at || v != n {
				t.Fatalf("%s: snapshot at v%d: read the stream after %v, loaded v%d of %d", stream, at, ss.readAt, v, n)
			}
			if diff := equal(reflect.ValueOf(got), reflect.ValueOf(want), "state"); diff != "" {
				t.Errorf("%s restored at v%d then replayed differs from a replay: %s", stream, at, diff)
			}
			if diff := equal(reflect.ValueOf(gotSeen), reflect.ValueOf(wantSeen), "records"); diff != "" {
				t.Errorf("%s restored at v%d then replayed differs from a replay: %s", stream, at, diff)
			}
		}
		if _, ok, _ := commands.SnapshotOf(ctx, plain, stream); ok {
			checked++
		}
	}
	t.Logf("%d of %d streams (%d events) snapshot and restored at 4 versions each", checked, len(length), len(all))
	if checked < 2 {
		t.Fatalf("only %d streams could be snapshot", checked)
	}
}

// demoLog is the demo's log (serve --demo) with a member stream that holds every kind of fact a
// member's parts keep, and a thousand uploads.
func demoLog(t *testing.T) events.Store {
	t.Helper()
	ctx := context.Background()
	store, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "events.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	sealer, err := secret.NewSealer(secret.DevKey())
	if err != nil {
		t.Fatal(err)
	}
	if err := seed.Demo(ctx, commands.New(store, commands.Options{PasswordCost: secret.TestCost, Sealer: sealer})); err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 11, 20, 1, 0, 0, 0, time.UTC)
	facts := []events.Payload{
		events.MemberRegistered{MemberID: "snap", Account: "snap", Role: events.RoleMember},
		events.SessionOpened{TokenHash: "t1", ExpiresAt: at.Add(time.Hour)},
		events.SessionOpened{TokenHash: "t2", ExpiresAt: at.Add(48 * time.Hour)},
		events.FundPasswordSet{Hash: "h"},
		events.FundPasswordRejected{Attempt: 1},
		events.AccountFlagChanged{Flag: events.FlagFrozen, On: true},
		events.AccountFlagChanged{Flag: events.FlagFrozen, On: false},
		events.RealNameSubmitted{SubmissionID: "s1", Name: "N", IDNumberKeyedHash: "k"},
		events.RealNameApproved{SubmissionID: "s1"},
		events.BankCardBound{CardID: "c1", HolderName: "N", BankName: "B", BankCode: "012", CardLast4: "1234", CardNumberKeyedHash: "ch"},
		events.BankCardBound{CardID: "c2", HolderName: "N", BankName: "B", BankCode: "013", CardLast4: "5678", CardNumberKeyedHash: "ch2"},
		events.BankCardUnbound{CardID: "c2"},
		events.AvatarSet{FileID: "f0"},
		events.FavoriteAdded{Symbol: "2330"},
		events.WatchlistGroupCreated{GroupID: "g1", Name: "tech"},
		events.AlertSet{AlertID: "a1", Symbol: "2330", Kind: "priceAbove", Value: decimal.RequireFromString("600.50")},
		events.AlertSet{AlertID: "a2", Symbol: "2317", Kind: "priceBelow", Value: decimal.RequireFromString("100")},
		events.AlertCancelled{AlertID: "a2"},
		events.NewsRead{ID: "n1"},
	}
	for i := range 1000 {
		facts = append(facts, events.FileUploaded{FileID: fmt.Sprintf("proof-%d", i), ContentType: "image/png", Size: 100, Width: 32, Height: 32})
	}
	stream := events.MemberStream("snap")
	for i, p := range facts {
		typ, data, err := events.Encode(p)
		if err != nil {
			t.Fatal(err)
		}
		cmd := uuid.NewString()
		d := events.EventData{ID: events.EventID(cmd, stream, 0), Type: typ, Data: data,
			Metadata: events.Metadata{CommandID: cmd, Actor: "system", Request: "req", ServerTime: at.Add(time.Duration(i) * time.Minute)}}
		if _, err := store.Append(ctx, stream, int64(i), []events.EventData{d}); err != nil {
			t.Fatal(err)
		}
	}
	return store
}

// equal compares two aggregates field by field, unexported fields included, as decisions see
// them: decimals and times by value, a nil map or slice like an empty one. It names the first
// difference, or returns "".
func equal(a, b reflect.Value, path string) string {
	if a.IsValid() != b.IsValid() {
		return path + ": one is missing"
	}
	if !a.IsValid() {
		return ""
	}
	if a.Type() != b.Type() {
		return fmt.Sprintf("%s: %s vs %s", path, a.Type(), b.Type())
	}
	switch a.Type() {
	case reflect.TypeFor[decimal.Decimal]():
		if !exposed(a).Interface().(decimal.Decimal).Equal(exposed(b).Interface().(decimal.Decimal)) {
			return path + ": decimals differ"
		}
		return ""
	case reflect.TypeFor[time.Time]():
		if !exposed(a).Interface().(time.Time).Equal(exposed(b).Interface().(time.Time)) {
			return path + ": times differ"
		}
		return ""
	}
	switch a.Kind() {
	case reflect.Pointer, reflect.Interface:
		if a.IsNil() || b.IsNil() {
			if a.IsNil() != b.IsNil() {
				return path + ": one is nil"
			}
			return ""
		}
		return equal(a.Elem(), b.Elem(), path)
	case reflect.Struct:
		for i := range a.NumField() {
			if d := equal(a.Field(i), b.Field(i), path+"."+a.Type().Field(i).Name); d != "" {
				return d
			}
		}
		return ""
	case reflect.Map:
		a, b = exposed(a), exposed(b) // so that its values are readable
		if a.Len() != b.Len() {
			return fmt.Sprintf("%s: %d entries vs %d", path, a.Len(), b.Len())
		}
		for _, k := range a.MapKeys() {
			if d := equal(a.MapIndex(k), b.MapIndex(k), fmt.Sprintf("%s[%v]", path, k)); d != "" {
				return d
			}
		}
		return ""
	case reflect.Slice, reflect.Array:
		if a.Len() != b.Len() {
			return fmt.Sprintf("%s: length %d vs %d", path, a.Len(), b.Len())
		}
		for i := range a.Len() {
			if d := equal(a.Index(i), b.Index(i), fmt.Sprintf("%s[%d]", path, i)); d != "" {
				return d
			}
		}
		return ""
	case reflect.Func, reflect.Chan:
		return ""
	}
	if fmt.Sprint(a) != fmt.Sprint(b) {
		return fmt.Sprintf("%s: %v vs %v", path, a, b)
	}
	return ""
}

// exposed is v readable even when it was reached through unexported fields (it is addressable
// then: the aggregates are reached through pointers).
func exposed(v reflect.Value) reflect.Value {
	if v.CanInterface() || !v.CanAddr() {
		return v
	}
	return reflect.NewAt(v.Type(), unsafe.Pointer(v.UnsafeAddr())).Elem()
}
