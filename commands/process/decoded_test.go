package process

import (
	"testing"

	"github.com/google/uuid"

	"github.com/lotbook/lotbook/events"
)

func TestFeedDecodesAnEventOnceForItsRuntimes(t *testing.T) {
	d := decoded{byPos: map[int64]*payload{}}
	recorded := func(pos int64, id uuid.UUID, symbol string) events.RecordedEvent {
		typ, data, err := events.Encode(events.FavoriteAdded{Symbol: symbol})
		if err != nil {
			t.Fatal(err)
		}
		return events.RecordedEvent{ID: id, Stream: "account-m1", Version: pos, Position: pos, Type: typ, Data: data}
	}
	symbol := func(ev events.RecordedEvent) string {
		t.Helper()
		p, err := d.get(ev)
		if err != nil {
			t.Fatal(err)
		}
		return p.(events.FavoriteAdded).Symbol
	}
	id := uuid.New()
	if got := symbol(recorded(1, id, "2330")); got != "2330" {
		t.Fatalf("decoded %q, want 2330", got)
	}
	// The same event again (its bytes changed here only to show which copy answers): the first
	// runtime's decoding is reused.
	if got := symbol(recorded(1, id, "2603")); got != "2330" {
		t.Fatalf("decoded %q again, want the shared 2330", got)
	}
	// Another event at that position (another store) is decoded anew.
	if got := symbol(recorded(1, uuid.New(), "0050")); got != "0050" {
		t.Fatalf("decoded %q, want 0050", got)
	}
	// Past the ring's capacity the oldest payloads are forgotten: the map stays bounded.
	for pos := int64(2); pos <= feedCapacity+1; pos++ {
		symbol(recorded(pos, uuid.New(), "2330"))
	}
	if len(d.byPos) > feedCapacity {
		t.Fatalf("%d payloads kept, want at most %d", len(d.byPos), feedCapacity)
	}
	if _, kept := d.byPos[1]; kept {
		t.Fatal("the oldest payload is still kept")
	}
}
