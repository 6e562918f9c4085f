package process_test

import (
	"errors"
	"testing"

	"github.com/lotbook/lotbook/commands/process"
)

func TestEventSetWantsTheNamedEventsOfAnyVersion(t *testing.T) {
	s := process.Events("OrderFilled", "StockLent")
	for _, c := range []struct {
		typ  string
		want bool
	}{
		{"OrderFilled.v1", true},
		{"OrderFilled.v2", true},
		{"OrderFilled", true},
		{"StockLent.v1", true},
		{"OrderFilledX.v1", false},
		{"Order.v1", false},
		{"OrderPlaced.v1", false},
		{"", false},
	} {
		if got := s.Wants(c.typ); got != c.want {
			t.Errorf("Wants(%q) = %t, want %t", c.typ, got, c.want)
		}
	}
	if process.Events().Wants("OrderFilled.v1") {
		t.Error("an empty set wants an event")
	}
}

// counts is a fold of a checkpoint form 2: a form number, and counts by name.
type counts struct {
	Form  int            `json:"form"`
	Items map[string]int `json:"items"`
}

func countsFold() process.Fold[counts] {
	return process.NewFold(func() counts { return counts{Form: 2, Items: map[string]int{}} }, func(c *counts) error {
		if c.Form != 2 {
			return process.ErrRefold
		}
		process.EnsureMap(&c.Items)
		return nil
	})
}

func TestFoldRestoresWhatItSavesAndRefusesOlderForms(t *testing.T) {
	const before = `{"form":2,"items":{"kept":7}}` // what the fold holds before each Restore
	for _, c := range []struct {
		name, state string
		refold      bool // ErrRefold, the fold unchanged
		fails       bool // another error, the fold unchanged
		saved       string
	}{
		{name: "no state: the empty fold", state: "", saved: `{"form":2,"items":{}}`},
		{name: "the current form", state: `{"form":2,"items":{"a":1,"b":2}}`, saved: `{"form":2,"items":{"a":1,"b":2}}`},
		{name: "a map the JSON leaves out is filled in", state: `{"form":2}`, saved: `{"form":2,"items":{}}`},
		{name: "an explicit null map is filled in", state: `{"form":2,"items":null}`, saved: `{"form":2,"items":{}}`},
		{name: "a form before the form number", state: `{"items":{"a":1}}`, refold: true},
		{name: "another form number", state: `{"form":1,"items":{}}`, refold: true},
		{name: "a field of another type", state: `{"form":2,"items":["a"]}`, refold: true},
		{name: "not JSON", state: `{"form":`, fails: true},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := countsFold()
			if err := f.Restore([]byte(before)); err != nil {
				t.Fatal(err)
			}
			err := f.Restore([]byte(c.state))
			switch {
			case c.refold && !errors.Is(err, process.ErrRefold):
				t.Fatalf("Restore: %v, want ErrRefold", err)
			case c.fails && (err == nil || errors.Is(err, process.ErrRefold)):
				t.Fatalf("Restore: %v, want an error other than ErrRefold", err)
			case !c.refold && !c.fails && err != nil:
				t.Fatalf("Restore: %v", err)
			}
			want := c.saved
			if c.refold || c.fails {
				want = before
			}
			if got, err := f.Snapshot(); err != nil || string(got) != want {
				t.Fatalf("Snapshot = %s, %v; want %s", got, err, want)
			}
		})
	}
}

func TestFoldIsChangedBetweenLockAndUnlock(t *testing.T) {
	f := countsFold()
	f.Lock().Items["a"]++
	f.Unlock()
	if got, err := f.Snapshot(); err != nil || string(got) != `{"form":2,"items":{"a":1}}` {
		t.Fatalf("Snapshot = %s, %v", got, err)
	}
}
