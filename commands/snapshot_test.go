package commands_test

import (
	"context"
	"fmt"
	"maps"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/commands/alerts"
	"github.com/lotbook/lotbook/commands/commandstest"
	"github.com/lotbook/lotbook/commands/commandstest/scenario"
	"github.com/lotbook/lotbook/commands/coupons"
	"github.com/lotbook/lotbook/commands/credit"
	_ "github.com/lotbook/lotbook/commands/favorites" // every capability with parts, so that each is checked
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
	held := map[string]bool{} // piece -> held state in some stream of some log
	for name, log := range map[string]func(*testing.T) events.Store{"demo": demoLog, "funds scenario": scenarioLog} {
		t.Run(name, func(t *testing.T) { checkSnapshots(t, log(t), held) })
	}
	for _, piece := range slices.Sorted(maps.Keys(held)) {
		if !held[piece] && !strings.HasPrefix(piece, "account.test.") && !strings.HasPrefix(piece, "member.test.") {
			t.Errorf("no stream of the logs holds state in %s: its restore is not checked", piece)
		}
	}
}

// scenarioLog is the log of the funds scenario: a verified member with a card, deposits, a
// withdrawal and a currency exchange, a check-in, a seat approved, notifications read and a flag
// ops set, through the commands.
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
	q, err := f.Funds.QuoteExchange(f.Ctx, commandstest.Meta("member"), m, funds.QuoteInput{From: "TWD", To: "USD", Amount: "1000"})
	f.Must(err)
	_, err = f.Funds.Exchange(f.Ctx, commandstest.Meta("member"), funds.Exchange{MemberID: m, QuoteID: q.QuoteID})
	f.Must(err)
	_, err = coupons.New(f.Svc).CheckIn(f.Ctx, commandstest.Meta("member"), m)
	f.Must(err)
	cr := credit.New(f.Svc)
	seat, err := cr.ApplySeat(f.Ctx, commandstest.Meta("member"), m)
	f.Must(err)
	_, err = cr.ApproveSeat(f.Ctx, commandstest.Meta("ops:ops"), credit.Review{MemberID: m, OrderNo: seat.OrderNo, Remark: "ok"})
	f.Must(err)
	_, err = alerts.New(f.Svc).ReadNotifications(f.Ctx, commandstest.Meta("member"), m, q.Position)
	f.Must(err)
	_, err = f.Svc.SetAccountFlag(f.Ctx, commandstest.Meta("ops:ops"), commands.SetFlag{Account: "0912345678", Flag: events.FlagWithdrawalBanned, On: true, Reason: "review"})
	f.Must(err)
	return f.Store
}

func checkSnapshots(t *testing.T, store events.Store, held map[string]bool) {
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
		pieces, err := commands.SnapshotPieces(stream, want)
		if err != nil {
			t.Fatal(err)
		}
		for piece, h := range pieces {
			held[piece] = held[piece] || h
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
	cmds := make([][]events.Payload, len(facts))
	for i, p := range facts {
		cmds[i] = []events.Payload{p}
	}
	appendCommands(t, store, events.MemberStream("snap"), at, cmds)
	appendCommands(t, store, events.AccountStream("snap"), at, accountFacts("snap"))
	return store
}

// accountFacts are commands that put state into the account parts that the demo's members leave
// empty (its offerings and blocks are listed, not applied to), with the balances they move; some
// commands write two events, so that a snapshot may fall between them. Every field of every part
// is filled by one of them (SnapshotPieces), so that a field a part's mirror leaves out shows.
func accountFacts(memberID string) [][]events.Payload {
	d := decimal.RequireFromString
	avail, frozen := events.MemberAvailable(memberID), events.MemberFrozen(memberID)
	shares := events.MemberAccount(memberID, events.KindShares)
	return append(offeringFacts(d, avail, frozen), tradeFacts(d, avail, frozen, shares, memberID)...)
}

// offeringFacts are the offerings' and blocks' commands of accountFacts.
func offeringFacts(d func(string) decimal.Decimal, avail, frozen string) [][]events.Payload {
	freeze := func(amount string) []events.Posting {
		return []events.Posting{{Account: avail, Currency: "TWD", Amount: d(amount).Neg()}, {Account: frozen, Currency: "TWD", Amount: d(amount)}}
	}
	settle := func(no, cost string) events.OfferingSettlement {
		return events.OfferingSettlement{OfferingID: "o1", No: no, Shares: 1000, Price: d("50.5"), Cost: d(cost), FromFrozen: d(cost),
			Postings: []events.Posting{{Account: frozen, Currency: "TWD", Amount: d(cost).Neg()}}}
	}
	return [][]events.Payload{
		{events.DepositApproved{OrderNo: "d1", Currency: "TWD", Amount: d("900000.00"),
			Postings: []events.Posting{{Account: avail, Currency: "TWD", Amount: d("900000.00")}, {Account: avail, Currency: "USD", Amount: d("12.5")}}}},
		{events.ChipGrabFrozen{OrderNo: "g1", OfferingID: "c1", Symbol: "2884", Price: d("30.15"), Lots: 2, Shares: 2000, Amount: d("60300"), Postings: freeze("60300")},
			events.ChipGrabAllotted{OrderNo: "g1", OfferingID: "c1", Lots: 2, Price: d("30.15"), Postings: []events.Posting{{Account: frozen, Currency: "TWD", Amount: d("-60300")}}}},
		{events.ChipGrabFreezeRefused{OrderNo: "g2", OfferingID: "c1", Reason: "sold_out"}},
		{events.BlockApplied{OrderNo: "b1", BlockID: "k1", Symbol: "2330", Price: d("600"), Bid: d("601"), Lots: 1, Shares: 1000, Day: "2026-11-20",
			Amount: d("601000"), Postings: freeze("601000")}},
		{events.BlockApplicationApproved{OrderNo: "b1", BlockID: "k1", Lots: 1, Price: d("600"), Released: d("1000"), Remark: "ok"}},
		{events.BlockPasswordRejected{BlockID: "k1", Day: "2026-11-20", Attempt: 2}},
		{events.PlacementApplied{PlacementID: "p1", ApplicationNo: "a1", Symbol: "6669", Lots: 1, Shares: 1000, Price: d("50.5"), Amount: d("50500"),
			Postings: freeze("50500")}},
		{events.PlacementSettled{OfferingSettlement: settle("a1", "50500")}},
		{events.AuctionBidPlaced{AuctionID: "u1", BidNo: "u-1", Symbol: "2345", Price: d("88.8"), Lots: 3, Shares: 3000, Amount: d("266400"),
			Deposit: d("53280"), Postings: freeze("53280")},
			events.AuctionBidPlaced{AuctionID: "u1", BidNo: "u-2", Symbol: "2345", Price: d("80"), Lots: 1, Shares: 1000, Amount: d("80000"),
				Deposit: d("16000"), Postings: freeze("16000")}},
		{events.AuctionSettled{OfferingSettlement: settle("u-1", "53280")}},
		{events.SubscriptionApplied{IssueID: "i1", ApplicationNo: "s1", Symbol: "7777", Lots: 1, Shares: 1000, Price: d("25"), Amount: d("25000"),
			Fee: d("20"), Postings: freeze("25020")}},
		{events.SubscriptionPaid{IssueID: "i1", ApplicationNo: "s1", Amount: d("25000"), Fee: d("20")},
			events.SubscriptionAllotted{IssueID: "i1", ApplicationNo: "s1", Symbol: "7777", Shares: 1000, Price: d("25"), ListingDate: "2026-11-30"}},
	}
}

// tradeFacts are the rest of accountFacts: the member as a mentor (a profile, a profit share
// received) and as a follower (a mirrored buy filled, a mirrored sale half filled: a closing fill
// of an order still working), an own margin buy topped up, an AI quant release and a lend the
// repair sweep abandoned.
func tradeFacts(d func(string) decimal.Decimal, avail, frozen, shares, memberID string) [][]events.Payload {
	const day, security = "2026-11-20", "TW:2884"
	order := func(no, position, intent, side, origin string, n int64, price, leverage string) events.OrderPlaced {
		return events.OrderPlaced{OrderNo: no, PositionID: position, Intent: intent, Symbol: "2884", Name: "E.SUN", Kind: "stock", Side: side,
			Direction: events.DirectionLong, Type: events.OrderLimit, Shares: n, Price: d(price), Leverage: d(leverage), TradingDay: day,
			By: events.OrderByMember, Origin: origin}
	}
	fill := func(no, position, side string, n, remaining int64, amount, commission, tax, loan, cash, profit, basis string) events.OrderFilled {
		moved := n
		if side == events.SideSell {
			moved = -n
		}
		return events.OrderFilled{OrderNo: no, PositionID: position, Security: security, Seq: 1, Side: side, Shares: n, Amount: d(amount),
			Commission: d(commission), Tax: d(tax), Loan: d(loan), Cash: d(cash), Profit: d(profit), Basis: d(basis), SettleDate: "2026-11-24",
			Remaining: remaining, Postings: []events.Posting{{Account: avail, Currency: "TWD", Amount: d(cash)},
				{Account: shares, Security: security, Amount: decimal.NewFromInt(moved)}}}
	}
	return [][]events.Payload{
		{events.MentorProfileSet{DisplayName: "Snap", MinAmount: d("10000"), WindowDays: 30, ProfitShare: d("10")}},
		{events.ProfitShareReceived{FollowID: "F9", FollowerID: "follower", Amount: d("120"),
			Postings: []events.Posting{{Account: avail, Currency: "TWD", Amount: d("120")}}}},
		{events.FollowStarted{FollowID: "F1", MentorID: "mentor", MentorName: "M", Amount: d("50000"), ProfitShare: d("10"), Days: 30,
			Ends: "2026-12-20T01:00:00Z", Postings: events.FollowPostings(memberID, "TWD", d("50000"), false)}},
		{events.CopyFundsSpent{FollowID: "F1", Ref: "mf1", Symbol: "2884", Shares: 1000, Price: d("30"), Amount: d("30042"),
			Postings: events.Transfer(frozen, avail, "TWD", d("30042"))},
			order("t1", "t1", events.IntentOpen, events.SideBuy, "F1", 1000, "30", "1")},
		{fill("t1", "t1", events.SideBuy, 1000, 0, "30000", "42", "0", "0", "-30042", "0", "30042")},
		{order("t2", "t1", events.IntentClose, events.SideSell, "F1", 1000, "31", "1")},
		{fill("t2", "t1", events.SideSell, 500, 500, "15500", "22", "46", "0", "15432", "411", "15021")},
		{order("t3", "t3", events.IntentOpen, events.SideBuy, "", 2000, "30", "2")},
		{fill("t3", "t3", events.SideBuy, 2000, 0, "60000", "85", "0", "30000", "-30085", "0", "60085")},
		{events.MarginToppedUp{TopUpNo: "m1", PositionID: "t3", Symbol: "2884", Amount: d("3000"), Loan: d("3000"),
			Postings: []events.Posting{{Account: avail, Currency: "TWD", Amount: d("-3000")}}}},
		{events.QuantSubscribed{SubID: "q1", Product: "p1", Currency: "TWD", Amount: d("20000"), MinAmount: d("10000"),
			Postings: events.Transfer(avail, frozen, "TWD", d("20000"))}},
		{events.QuantFundsReleased{SubID: "q1", Currency: "TWD", Amount: d("5000"), Symbol: "2330", Shares: 1000,
			OrderCommandID: "quant-strategy/q1/" + day, Day: day, EntryClose: d("600"), Postings: events.Transfer(frozen, avail, "TWD", d("5000"))}},
		{events.LendingAbandoned{LendNo: "l1", Symbol: "2330"}},
	}
}

// appendCommands appends each of cmds, the events of one command, to stream, a minute apart
// from at.
func appendCommands(t testing.TB, store events.Store, stream string, at time.Time, cmds [][]events.Payload) {
	t.Helper()
	var version int64
	for i, ps := range cmds {
		cmd := uuid.NewString()
		batch := make([]events.EventData, len(ps))
		for j, p := range ps {
			typ, data, err := events.Encode(p)
			if err != nil {
				t.Fatal(err)
			}
			batch[j] = events.EventData{ID: events.EventID(cmd, stream, j), Type: typ, Data: data,
				Metadata: events.Metadata{CommandID: cmd, Actor: "system", Request: "req", ServerTime: at.Add(time.Duration(i) * time.Minute)}}
		}
		if _, err := store.Append(context.Background(), stream, version, batch); err != nil {
			t.Fatal(err)
		}
		version += int64(len(ps))
	}
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
