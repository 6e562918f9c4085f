package projections

import (
	"fmt"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/events"
)

// lendingFeePaid stands for a capability that arrives later (stock lending): it declares its
// own line type, labels and instrument, and the journal takes its lines with no edit here.
type lendingFeePaid struct {
	ContractNo string
	Fee        decimal.Decimal
}

func (lendingFeePaid) EventName() string { return "LendingFeePaid" }

func (e lendingFeePaid) JournalLines() []events.JournalLine {
	return []events.JournalLine{{Type: "lending_fee", OrderNo: e.ContractNo, Asset: "TWD", Amount: e.Fee, Account: "available",
		Status: events.LineCompleted, Instrument: "2330", Details: map[string]string{"rate": "0.015"}}}
}

func TestJournalTakesAnyCapabilitysLines(t *testing.T) {
	if !journalProjector.Wants(lendingFeePaid{}) {
		t.Fatal("the journal does not want a journaled event of a new capability")
	}
	m := "m1"
	at := time.Date(2026, 3, 2, 1, 0, 0, 0, time.UTC)
	ev := func(pos int64, p events.Payload) Decoded {
		return Decoded{Ev: &events.RecordedEvent{Stream: events.AccountStream(m), Position: pos, Type: p.EventName(),
			Metadata: events.Metadata{ServerTime: at}}, P: p}
	}
	pg := &journalPage{lines: map[[2]string]*journalRow{}, orders: map[[2]string]*orderLabel{}, fresh: map[[2]string]*orderLabel{}}
	touched := map[[2]string]*journalRow{}
	for _, d := range []Decoded{
		ev(1, events.DepositRequested{OrderNo: "D1", ChannelName: "Bank", Currency: "TWD", Amount: dec("5000")}),
		ev(2, events.DepositApproved{OrderNo: "D1", Currency: "TWD", Amount: dec("5000"), Remark: "ok"}),
		ev(3, events.OrderPlaced{OrderNo: "T1", Symbol: "2330", Name: "台積電"}),
		ev(4, events.OrderFilled{OrderNo: "T1", Postings: []events.Posting{
			{Account: events.MemberFrozen(m), Currency: "TWD", Amount: dec("-1001")},
			{Account: events.HouseTradeClearing, Currency: "TWD", Amount: dec("1000")},
			{Account: events.HouseFeesRevenue, Currency: "TWD", Amount: dec("1")}}}),
		ev(5, lendingFeePaid{ContractNo: "L1", Fee: dec("-12")}),
	} {
		if err := pg.apply(d, journalLines(d), touched); err != nil {
			t.Fatal(err)
		}
	}
	var got []string
	for _, id := range []string{"D1", "@4/0", "@4/1", "@5/0"} {
		r := touched[[2]string{m, id}]
		if r == nil {
			t.Fatalf("no line %s in %v", id, touched)
		}
		got = append(got, fmt.Sprintf("%s %s %s %s %s %s %s %s %d/%d", r.typ, r.orderNo, r.asset, r.amount, r.status, r.remark,
			r.instrument, r.details, r.seq, r.position))
	}
	want := []string{
		`deposit D1 TWD 5000 approved ok  {"channelName":"Bank","proofFileId":""} 1/2`,
		`trade T1 TWD -1000 completed 台積電 2330 {"settleDate":"","shares":"0","side":""} 4/4`,
		`fee T1 TWD -1 completed 台積電 2330  4/4`,
		`lending_fee L1 TWD -12 completed  2330 {"rate":"0.015"} 5/5`,
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("journal\n%q\nwant\n%q", got, want)
	}
	d := ev(6, events.WithdrawalApproved{OrderNo: "W9"})
	if err := pg.apply(d, journalLines(d), touched); err == nil {
		t.Fatal("a decision on a line never added was applied")
	}
}

func journalLines(d Decoded) []events.JournalLine {
	if j, ok := d.P.(events.Journaled); ok {
		return j.JournalLines()
	}
	return nil
}
