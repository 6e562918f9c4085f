package trading

import (
	"reflect"
	"testing"
)

// fakeRow scans stored values as database/sql would into the destinations.
type fakeRow []any

func (f fakeRow) Scan(dest ...any) error {
	for i, d := range dest {
		reflect.ValueOf(d).Elem().Set(reflect.ValueOf(f[i]))
	}
	return nil
}

// TestPositionFieldsKeepTheSchema: declaring trade_positions through its row map keeps the columns
// (names, kinds, order) it had, so that the table's signature, and with it every existing read
// model, stays valid without a rebuild.
func TestPositionFieldsKeepTheSchema(t *testing.T) {
	const want = "trade_positions|id:0|member_id:0|symbol:0|name:0|kind:0|direction:0|leverage:0|day_trade:1|open_day:0" +
		"|status:0|shares:1|closing:1|bought:1|entry_amount:0|exit_shares:1|exit_amount:0|fees:0|tax:0|loan:0|margin:0" +
		"|basis:0|profit:0|open_working:1|close_order:0|opened_at:1|closed_at:1|created_at:1|updated_at:1|seq:1|position:1" +
		"|key:id|ix:member_id, status, seq;member_id, seq"
	if got := tradePositionsTable.Signature(); got != want {
		t.Errorf("signature\n got %s\nwant %s", got, want)
	}
}

// TestRowMapRoundTrip: what args writes, scan reads back into an equal row.
func TestRowMapRoundTrip(t *testing.T) {
	in := positionRow{id: "p1", memberID: "m1", symbol: "2330", name: "台積電", kind: "stock", direction: "long", leverage: "2.5",
		dayTrade: 1, openDay: "2026-11-24", status: PositionHolding, shares: 2000, closing: 1000, bought: 3000, entryAmount: "270000",
		exitShares: 1000, exitAmount: "95000", fees: "520", tax: "285", loan: "108000", margin: "0", basis: "180256", profit: "4700",
		openWorking: 1, closeOrder: "o2", openedAt: 1, closedAt: 2, createdAt: 3, updatedAt: 4, seq: 5, pos: 6}
	args := positionFields.Args(&in)
	if len(args) != len(tradePositionsTable.Cols) {
		t.Fatalf("%d values for %d columns", len(args), len(tradePositionsTable.Cols))
	}
	var out positionRow
	if err := positionFields.Scan(fakeRow(args), &out); err != nil {
		t.Fatal(err)
	}
	if out != in {
		t.Errorf("round trip\n got %+v\nwant %+v", out, in)
	}
	if got, want := positionFields.List(), "id, member_id, symbol"; got[:len(want)] != want {
		t.Errorf("select list starts %q, want %q", got[:len(want)], want)
	}
}
