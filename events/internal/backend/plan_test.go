package backend

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/lotbook/lotbook/events"
)

func evs(n int) []events.EventData {
	out := make([]events.EventData, n)
	for i := range out {
		out[i] = events.EventData{ID: uuid.New(), Type: "T.v1", Data: []byte(`{}`)}
	}
	return out
}

func TestRetry(t *testing.T) {
	a := evs(3)
	stored := map[uuid.UUID]Stored{
		a[0].ID: {Stream: "s", Version: 4, Position: 10},
		a[1].ID: {Stream: "s", Version: 5, Position: 11},
		a[2].ID: {Stream: "s", Version: 6, Position: 15},
	}
	fresh := evs(1)[0]
	tests := []struct {
		name     string
		stream   string
		evs      []events.EventData
		done     bool
		conflict bool
		res      events.AppendResult
	}{
		{"new events", "s", []events.EventData{fresh}, false, false, events.AppendResult{}},
		{"full retry", "s", a, true, false, events.AppendResult{Version: 6, Position: 15}},
		{"retry of a prefix", "s", a[:2], true, false, events.AppendResult{Version: 5, Position: 11}},
		{"same ids in another stream", "t", a, true, true, events.AppendResult{}},
		{"stored and new mixed", "s", []events.EventData{a[0], fresh}, true, true, events.AppendResult{}},
		{"stored out of order", "s", []events.EventData{a[1], a[0]}, true, true, events.AppendResult{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, done, err := Retry(tc.stream, tc.evs, stored)
			if done != tc.done || (err != nil) != tc.conflict || res != tc.res {
				t.Fatalf("Retry = %+v, %v, %v; want %+v, %v, conflict %v", res, done, err, tc.res, tc.done, tc.conflict)
			}
			if tc.conflict && !errors.Is(err, events.ErrWrongExpectedVersion) {
				t.Fatalf("conflict error %v does not wrap ErrWrongExpectedVersion", err)
			}
		})
	}
}

// request builds a queued request whose answer can be read back.
func request(ctx context.Context, stream string, expected int64, e []events.EventData) *Request {
	return &Request{Ctx: ctx, Stream: stream, Expected: expected, Events: e, reply: make(chan reply, 1)}
}

func answer(r *Request) (res events.AppendResult, answered bool, err error) {
	select {
	case a := <-r.reply:
		return a.res, true, a.err
	default:
		return events.AppendResult{}, false, nil
	}
}

func TestNewPlan(t *testing.T) {
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	bg := context.Background()
	stored := evs(1)
	reqs := []*Request{
		request(bg, "a", 2, evs(2)),                        // ok: a is at 2 → v3, v4 at 101, 102
		request(bg, "a", 2, evs(1)),                        // refused: a is now at 4 in this batch
		request(bg, "a", 4, evs(1)),                        // ok: follows the first → 103
		request(bg, "b", events.NoStream, evs(1)),          // ok: new stream → 104
		request(bg, "c", events.AnyVersion, evs(1)),        // ok: c at 7 → v8, 105
		request(cancelled, "d", events.AnyVersion, evs(1)), // refused: caller gone
		request(bg, "x", events.NoStream, stored),          // retry of x v3 → its stored result
	}
	// A concurrent retry of request 3 in the same batch answers with its rows' result.
	reqs = append(reqs, request(bg, "b", events.NoStream, reqs[3].Events))
	versions := map[string]int64{"a": 2, "c": 7}
	ids := map[uuid.UUID]Stored{stored[0].ID: {Stream: "x", Version: 3, Position: 50}}
	p := NewPlan(100, reqs, versions, ids, time.Unix(0, 0))

	if len(p.Rows) != 5 {
		t.Fatalf("plan has %d rows, want 5", len(p.Rows))
	}
	for i, r := range p.Rows {
		if r.Position != int64(101+i) {
			t.Fatalf("row %d at position %d, want %d", i, r.Position, 101+i)
		}
	}
	if _, ok, err := answer(reqs[1]); !ok || !errors.Is(err, events.ErrWrongExpectedVersion) {
		t.Fatalf("stale request answered %v (answered %v), want ErrWrongExpectedVersion at once", err, ok)
	}
	if _, ok, err := answer(reqs[5]); !ok || !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled request answered %v (answered %v)", err, ok)
	}
	if len(p.Accepted()) != 6 {
		t.Fatalf("%d accepted, want 6", len(p.Accepted()))
	}
	if _, ok, _ := answer(reqs[0]); ok {
		t.Fatalf("accepted request answered before commit")
	}
	p.Commit()
	want := map[int]events.AppendResult{
		0: {Version: 4, Position: 102, Written: true},
		2: {Version: 5, Position: 103, Written: true},
		3: {Version: 1, Position: 104, Written: true},
		4: {Version: 8, Position: 105, Written: true},
		6: {Version: 3, Position: 50},  // a retry writes nothing
		7: {Version: 1, Position: 104}, // nor does one racing its original
	}
	for i, w := range want {
		res, ok, err := answer(reqs[i])
		if !ok || err != nil || res != w {
			t.Fatalf("request %d answered %+v, %v (answered %v); want %+v", i, res, err, ok, w)
		}
	}
}
