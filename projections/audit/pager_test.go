package audit

import (
	"context"
	"reflect"
	"testing"
)

// Every page, whether its start balances come from a checkpoint or from a fold of the postings
// before the cursor, equals the same slice of the whole replayed timeline.
func TestPagerPagesEqualTheReplay(t *testing.T) {
	store := newStore(t)
	b := &logBuilder{t: t, store: store}
	id := journey(b, "0912345678")
	journey(b, "0987654321")
	journey(b, "0912345678") // a second round: balances keep running across pages
	ctx := context.Background()
	whole, err := Timeline(ctx, store, id)
	if err != nil {
		t.Fatal(err)
	}
	if len(whole) != 14 {
		t.Fatalf("%d entries, want 14", len(whole))
	}
	for _, size := range []int{1, 3, 5, 13, 14, 50} {
		warm := NewPager(store, 8)
		var got []Entry
		after := int64(0)
		for pages := 1; ; pages++ {
			page, more, err := warm.Page(ctx, id, after, size)
			if err != nil {
				t.Fatal(err)
			}
			// A pager that never saw the cursor folds the postings before it.
			cold, coldMore, err := NewPager(store, 8).Page(ctx, id, after, size)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(cold, page) || coldMore != more {
				t.Fatalf("size %d after %d: cold pager differs", size, after)
			}
			got = append(got, page...)
			if !more {
				break
			}
			if len(page) != size {
				t.Fatalf("size %d: page %d has %d entries", size, pages, len(page))
			}
			after = page[len(page)-1].Position
		}
		if !reflect.DeepEqual(got, whole) {
			t.Fatalf("size %d: pages differ from the replay", size)
		}
	}
	// A cursor between the member's events (another member's position) starts after it.
	bal, err := BalancesAt(ctx, store, id, whole[7].Position+1)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(bal, whole[7].Balances) {
		t.Fatalf("balances at %d: %v, want %v", whole[7].Position+1, bal, whole[7].Balances)
	}
}

func TestPagerEvictsTheOldestCheckpoint(t *testing.T) {
	p := NewPager(nil, 2)
	for pos := int64(1); pos <= 3; pos++ {
		p.remember(checkpoint{"m", pos}, map[string]Balance{})
	}
	p.remember(checkpoint{"m", 3}, map[string]Balance{}) // already there: takes no slot
	if _, ok := p.seen[checkpoint{"m", 1}]; ok || len(p.seen) != 2 {
		t.Fatalf("checkpoints %v", p.seen)
	}
}
