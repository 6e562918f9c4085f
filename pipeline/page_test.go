package pipeline

import (
	"bytes"
	"reflect"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/lotbook/lotbook/events"
)

func TestAPageSurvivesItsPayload(t *testing.T) {
	at := time.Date(2026, 11, 24, 9, 0, 0, 123456789, time.FixedZone("TST", 8*3600))
	page := []events.RecordedEvent{
		{ID: uuid.New(), Stream: "account-m1", Version: 1, Position: 7, Type: "DepositRequested.v1", Data: []byte(`{"amount":"100"}`),
			Metadata: events.Metadata{CommandID: "c1", Actor: "member:m1", CorrelationID: "f", CausationID: "c0", Request: "r", ServerTime: at}},
		{ID: uuid.New(), Stream: "member-m2", Version: 12, Position: 1 << 40, Type: "MemberRegistered.v1", Data: []byte{},
			Metadata: events.Metadata{CommandID: "c2", Actor: "system", ServerTime: at.UTC()}},
	}
	msg, err := NewPageMessage("p", page)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Page(msg)
	if err != nil {
		t.Fatal(err)
	}
	for i := range page {
		if !page[i].Metadata.ServerTime.Equal(got[i].Metadata.ServerTime) {
			t.Fatalf("event %d: time %v, want %v", i, got[i].Metadata.ServerTime, page[i].Metadata.ServerTime)
		}
		got[i].Metadata.ServerTime = page[i].Metadata.ServerTime
	}
	if !reflect.DeepEqual(got, page) {
		t.Fatalf("decoded\n%+v\nwant\n%+v", got, page)
	}
	full := msg.Payload
	for cut := range len(full) {
		msg.Payload = full[:cut]
		if _, err := Page(msg); err == nil {
			t.Fatalf("a payload cut at %d decoded", cut)
		}
	}
}

func TestAPageIsEncodedOnceForEverySubscriptionSentIt(t *testing.T) {
	ev := func(pos int64) events.RecordedEvent {
		return events.RecordedEvent{ID: uuid.New(), Stream: "s", Version: pos, Position: pos, Type: "T.v1", Data: []byte(`{}`)}
	}
	var c encodedPages
	page := []events.RecordedEvent{ev(1), ev(2), ev(3)}
	a, err := c.encode(page)
	if err != nil {
		t.Fatal(err)
	}
	b, err := c.encode(slices.Clone(page))
	if err != nil {
		t.Fatal(err)
	}
	if &a[0] != &b[0] {
		t.Fatal("the same page was encoded twice")
	}
	// A read that returned fewer events between the same positions is another page.
	short, err := c.encode([]events.RecordedEvent{page[0], page[2]})
	if err != nil {
		t.Fatal(err)
	}
	got, err := Page(pageMessage("p", page, short))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 {
		t.Fatalf("the shorter page decoded to %d events", len(got))
	}
}

// The units and runtimes sent one payload share its decoded page; another payload is decoded.
func TestAPayloadIsDecodedOnceForEveryMessageThatCarriesIt(t *testing.T) {
	page := []events.RecordedEvent{{ID: uuid.New(), Stream: "s", Version: 1, Position: 1, Type: "T.v1", Data: []byte(`{}`)}}
	payload, err := encodePage(page)
	if err != nil {
		t.Fatal(err)
	}
	a, err := Page(pageMessage("a", page, payload))
	if err != nil {
		t.Fatal(err)
	}
	b, err := Page(pageMessage("b", page, payload))
	if err != nil {
		t.Fatal(err)
	}
	if &a[0] != &b[0] {
		t.Fatal("one payload was decoded twice")
	}
	c, err := Page(pageMessage("c", page, bytes.Clone(payload)))
	if err != nil {
		t.Fatal(err)
	}
	if &c[0] == &a[0] || !reflect.DeepEqual(a, c) {
		t.Fatalf("a copy of the payload decoded to %+v, shared %v", c, &c[0] == &a[0])
	}
}

func BenchmarkDecodePage(b *testing.B) {
	at := time.Now()
	page := make([]events.RecordedEvent, 64)
	for i := range page {
		cmd := uuid.NewString()
		page[i] = events.RecordedEvent{ID: uuid.New(), Stream: "account-m" + strconv.Itoa(i%8), Version: int64(i), Position: int64(i + 1),
			Type: "DepositRequested.v1", Data: []byte(`{"amount":"100"}`),
			Metadata: events.Metadata{CommandID: cmd, Actor: "member:m" + strconv.Itoa(i%8), CorrelationID: cmd, Request: "deposit:" + cmd, ServerTime: at}}
	}
	payload, err := encodePage(page)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := decodePage(payload); err != nil {
			b.Fatal(err)
		}
	}
}
