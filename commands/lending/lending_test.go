package lending

import (
	"errors"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/commands/commandstest"
	"github.com/lotbook/lotbook/events"
)

// weekends is a calendar whose only holidays are Saturdays and Sundays.
type weekends struct{}

func (weekends) IsHoliday(t time.Time) bool {
	wd := t.Weekday()
	return wd == time.Saturday || wd == time.Sunday
}

// fixedCloses closes every day at the price of its map, failing for a day it lacks.
type fixedCloses map[string]string

func (f fixedCloses) Close(_, day string) (decimal.Decimal, error) {
	s, ok := f[day]
	if !ok {
		return decimal.Zero, errors.New("no close")
	}
	return decimal.RequireFromString(s), nil
}

func TestAccruePaysTradingDaysOnceAtEachClose(t *testing.T) {
	d := decimal.RequireFromString
	closes := fixedCloses{"2026-03-06": "365", "2026-03-09": "730", "2026-03-10": "365"}
	lent := func() *lending {
		return &lending{StockLent: events.StockLent{LendNo: "LD1", Symbol: "2330", Shares: 1000, AnnualRate: d("0.01"), Day: "2026-03-06"},
			status: StatusLending}
	}
	for _, c := range []struct {
		name, through, accrued string
		want                   []string // day=amount
		err                    bool
	}{
		{name: "the lending day itself", through: "2026-03-06", want: []string{"2026-03-06=10"}},
		{name: "over a weekend (catch-up after downtime)", through: "2026-03-09", want: []string{"2026-03-06=10", "2026-03-09=20"}},
		{name: "days paid are not paid again", through: "2026-03-10", accrued: "2026-03-09", want: []string{"2026-03-10=10"}},
		{name: "nothing due yet", through: "2026-03-05"},
		{name: "a day without a close waits", through: "2026-03-11", accrued: "2026-03-10", err: true},
	} {
		l := lent()
		l.accruedThrough = c.accrued
		out, err := accrue("m1", l, c.through, closes, weekends{})
		if (err != nil) != c.err {
			t.Fatalf("%s: err %v", c.name, err)
		}
		var got []string
		for _, p := range out {
			e := p.(events.LendingFeeAccrued)
			got = append(got, e.Day+"="+e.Amount.String())
			if len(e.Postings) != 2 || !e.Postings[0].Amount.Add(e.Postings[1].Amount).IsZero() {
				t.Fatalf("%s: postings %+v", c.name, e.Postings)
			}
		}
		if len(got) != len(c.want) {
			t.Fatalf("%s: got %v want %v", c.name, got, c.want)
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Fatalf("%s: got %v want %v", c.name, got, c.want)
			}
		}
	}
	// A completed lending earns nothing more.
	l := lent()
	l.status = StatusCompleted
	if out, _ := accrue("m1", l, "2026-03-10", closes, weekends{}); len(out) != 0 {
		t.Fatalf("completed lending accrued %v", out)
	}
}

func TestDeskRefusesAndTakesQuota(t *testing.T) {
	d := &desk{symbols: map[string]symbolRule{}}
	q := &quota{taken: map[string]events.LendingQuotaTaken{}, released: map[string]bool{}}
	if _, err := decideTake(d, q, "2330", "m", "LD1", 1000); err == nil || err.Error() == "" {
		t.Fatal("closed channel lent")
	}
	d.open, d.defaultRate = true, decimal.RequireFromString("0.02")
	if _, err := decideTake(d, q, "2330", "m", "LD1", 1000); err == nil {
		t.Fatal("a symbol without a rule lent")
	}
	d.symbols["2330"] = symbolRule{quota: 1500}
	out, err := decideTake(d, q, "2330", "m", "LD1", 1000)
	if err != nil || len(out) != 1 {
		t.Fatalf("take %v %v", out, err)
	}
	q.Apply(events.RecordedEvent{}, out[0])
	if _, err := decideTake(d, q, "2330", "m", "LD2", 501); err == nil {
		t.Fatal("beyond the quota")
	}
	q.Apply(events.RecordedEvent{}, events.LendingQuotaReleased{LendNo: "LD1"})
	if q.used != 0 || len(decideRelease(q, "LD1", "again")) != 0 {
		t.Fatalf("release %+v", q)
	}
}

// The repair sweep closes a lending whose quota was taken but that was never lent, once; it
// leaves a lending that was lent alone; a late lending step of a closed lending is refused.
func TestDecideAbandon(t *testing.T) {
	lent := events.StockLent{LendNo: "LD1", Symbol: "2330", Shares: 1000, AnnualRate: decimal.RequireFromString("0.01"), Day: "2026-03-02"}
	abandoned := events.LendingAbandoned{LendNo: "LD1", Symbol: "2330"}
	for _, c := range []struct {
		name    string
		history []events.Payload
		events  int
		ok      bool
	}{
		{"taken, never lent", nil, 1, true},
		{"lent: its quota is its own", []events.Payload{lent}, 0, false},
		{"closed already: the quota may still need giving back", []events.Payload{abandoned}, 0, true},
	} {
		out, ok := decideAbandon(commandstest.Build(commands.NewAccount("m1"), nil, c.history...), "LD1", "2330")
		if len(out) != c.events || ok != c.ok {
			t.Errorf("%s: %v %v", c.name, out, ok)
		}
	}
	a := commandstest.Build(commands.NewAccount("m1"), nil, abandoned)
	_, err := decideLend(a, &desk{open: true, symbols: map[string]symbolRule{}}, events.LendingQuotaTaken{LendNo: "LD1", MemberID: "m1", Shares: 1000},
		"2330", "", time.Now())
	commandstest.WantKey(t, err, KeyNotActive)
}
