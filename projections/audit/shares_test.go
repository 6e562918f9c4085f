package audit

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/lotbook/lotbook/events"
)

// fakePositions is the trading read model's positions of one member.
type fakePositions []struct {
	id, symbol, direction string
	shares                int64
}

func (f fakePositions) HeldShares(_ context.Context, _ string, each func(positionID, symbol, direction string, shares int64)) error {
	for _, p := range f {
		each(p.id, p.symbol, p.direction, p.shares)
	}
	return nil
}

// TestVerifyShares: share accounts summed from v2 fills must equal the shares the positions hold;
// positions with a v1 fill (no share legs) are left out; shares_borrowed may not go above zero.
func TestVerifyShares(t *testing.T) {
	const sec = "TW:2330"
	long := fakePositions{{"T1", "2330", events.DirectionLong, 1000}}
	tests := []struct {
		name      string
		fills     func(b *logBuilder, id string)
		positions fakePositions
		want      []string // finding kinds
	}{
		{name: "bought and held", positions: long, fills: func(b *logBuilder, id string) {
			b.fill(id, "T1", sec, events.TransferShares(events.HouseExchangeShares, events.MemberAccount(id, events.KindShares), sec, 1000))
		}},
		{name: "positions hold more than was posted", positions: fakePositions{{"T1", "2330", events.DirectionLong, 2000}},
			want: []string{KindShares}, fills: func(b *logBuilder, id string) {
				b.fill(id, "T1", sec, events.TransferShares(events.HouseExchangeShares, events.MemberAccount(id, events.KindShares), sec, 1000))
			}},
		{name: "a v1 fill posted no shares: its position is left out", positions: long, fills: func(b *logBuilder, id string) {
			b.fillV1(id, "T1")
		}},
		{name: "short sold and owed", positions: fakePositions{{"T2", "2330", events.DirectionShort, 1000}}, fills: func(b *logBuilder, id string) {
			b.fill(id, "T2", sec, events.TransferShares(events.MemberAccount(id, events.KindSharesBorrowed), events.HouseExchangeShares, sec, 1000))
		}},
		{name: "covered more than borrowed", want: []string{KindNegative, KindShares}, fills: func(b *logBuilder, id string) {
			b.fill(id, "T2", sec, events.TransferShares(events.HouseExchangeShares, events.MemberAccount(id, events.KindSharesBorrowed), sec, 1000))
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := &logBuilder{t: t, store: newStore(t)}
			id := journey(b, "0912345678")
			tc.fills(b, id)
			rep, err := Verify(context.Background(), b.store, nil, WithShares(tc.positions))
			if err != nil {
				t.Fatal(err)
			}
			var kinds []string
			for _, f := range rep.Findings {
				kinds = append(kinds, f.Kind)
			}
			if strings.Join(kinds, ",") != strings.Join(tc.want, ",") || !rep.SharesChecked {
				t.Fatalf("findings %v, want %v\n%s", kinds, tc.want, rep)
			}
		})
	}
}

// fill appends an OrderFilled (v2) of position with the given postings.
func (b *logBuilder) fill(memberID, position, security string, postings []events.Posting) {
	b.t.Helper()
	b.add(events.AccountStream(memberID), "system", events.OrderFilled{OrderNo: position, PositionID: position, Security: security,
		Seq: 1, Shares: 1000, Postings: postings})
}

// fillV1 appends a fill as v1 stored it: no security, money legs only.
func (b *logBuilder) fillV1(memberID, position string) {
	b.t.Helper()
	data, err := json.Marshal(events.OrderFilled{OrderNo: position, PositionID: position, Seq: 1, Shares: 1000,
		Postings: events.Transfer(events.MemberAvailable(memberID), events.HouseTradeClearing, "TWD", dec("1000"))})
	if err != nil {
		b.t.Fatal(err)
	}
	b.n++
	stream := events.AccountStream(memberID)
	_, err = b.store.Append(context.Background(), stream, events.AnyVersion, []events.EventData{{
		ID: events.EventID("v1", stream, b.n), Type: "OrderFilled.v1", Data: data,
		Metadata: events.Metadata{CommandID: "v1", Actor: "system", ServerTime: time.Date(2026, 3, 2, 2, 0, b.n, 0, time.UTC)},
	}})
	if err != nil {
		b.t.Fatal(err)
	}
}
