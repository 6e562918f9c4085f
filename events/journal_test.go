package events

import (
	"fmt"
	"testing"

	"github.com/shopspring/decimal"
)

// A money event that forgot its journal lines would move balances without a line in the
// member's fund records: every one must say what it adds, if nothing.
func TestEveryMoneyEventIsJournaled(t *testing.T) {
	for _, p := range samples {
		if _, money := p.(MovesMoney); !money {
			continue
		}
		if _, ok := p.(Journaled); !ok {
			t.Errorf("%s moves money but declares no journal lines", p.EventName())
		}
	}
	types := map[string]bool{}
	for _, typ := range LineTypes() {
		types[typ] = true
	}
	for _, p := range samples {
		j, ok := p.(Journaled)
		if !ok {
			continue
		}
		for _, l := range j.JournalLines() {
			if l.Type == "" && l.Key == "" {
				t.Errorf("%s changes a line without naming it", p.EventName())
			}
			if l.Type != "" && !types[l.Type] {
				t.Errorf("%s writes undeclared line type %q", p.EventName(), l.Type)
			}
		}
	}
}

// A fill's lines are the member's side of each house leg, in a fixed order, and add up to the
// cash the fill moved.
func TestOrderFilledLines(t *testing.T) {
	var f OrderFilled
	for _, p := range samples {
		if e, ok := p.(OrderFilled); ok {
			f = e
		}
	}
	var got []string
	var sum decimal.Decimal
	for _, l := range f.JournalLines() {
		got = append(got, fmt.Sprintf("%s %s %s %s", l.Type, l.OrderNo, l.Asset, l.Amount))
		sum = sum.Add(l.Amount)
	}
	want := "[trade T26030200000000000001 TWD -999000 fee T26030200000000000001 TWD -1423 financing T26030200000000000001 TWD 599000]"
	if fmt.Sprint(got) != want {
		t.Errorf("lines %v, want %s", got, want)
	}
	if !sum.Equal(f.Cash) {
		t.Errorf("lines sum to %s, the fill moved %s", sum, f.Cash)
	}
}
