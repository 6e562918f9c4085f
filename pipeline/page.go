package pipeline

import (
	"encoding/binary"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/ThreeDotsLabs/watermill/message"

	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/events/varbuf"
)

// Metadata keys of a page message: the global positions of its first and last event.
const (
	MetaFirst = "first"
	MetaLast  = "last"
)

// pageFormat is the first byte of a page payload: the version of the encoding below.
const pageFormat = 1

// NewPageMessage is the message that carries a page of events in its payload, with id and
// first/last positions in its metadata.
func NewPageMessage(id string, page []events.RecordedEvent) (*message.Message, error) {
	payload, err := encodePage(page)
	if err != nil {
		return nil, fmt.Errorf("encode page %s: %w", id, err)
	}
	return pageMessage(id, page, payload), nil
}

// pageMessage is the message of a page already encoded as payload.
func pageMessage(id string, page []events.RecordedEvent, payload []byte) *message.Message {
	msg := message.NewMessage(id, payload)
	msg.Metadata.Set(MetaFirst, strconv.FormatInt(page[0].Position, 10))
	msg.Metadata.Set(MetaLast, strconv.FormatInt(page[len(page)-1].Position, 10))
	return msg
}

// encodedPages keeps the payloads of the pages encoded last: the subscriptions that keep up with
// the shared reader are sent the same pages, encoded once instead of once per consumer. A page is
// known by its first and last positions and its length (positions are unique and a page holds
// every event between them that a read returned, so two pages alike in all three are one).
// Payloads are shared between messages: they are read, never written (see Page).
type encodedPages struct{ lastPages[encodedPage] }

type encodedPage struct {
	first, last int64
	n           int
	payload     []byte
}

func (c *encodedPages) encode(page []events.RecordedEvent) ([]byte, error) {
	key := encodedPage{first: page[0].Position, last: page[len(page)-1].Position, n: len(page)}
	if p, ok := c.find(func(p *encodedPage) bool {
		return p.payload != nil && p.first == key.first && p.last == key.last && p.n == key.n
	}); ok {
		return p.payload, nil
	}
	payload, err := encodePage(page)
	if err != nil {
		return nil, err
	}
	key.payload = payload
	c.add(key)
	return payload, nil
}

// lastPages keeps the pages a cache made last, the newest in place of the oldest.
type lastPages[T any] struct {
	mu    sync.Mutex
	pages [8]T
	next  int
}

// find is the first kept page that match accepts.
func (c *lastPages[T]) find(match func(*T) bool) (T, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i := range c.pages {
		if match(&c.pages[i]) {
			return c.pages[i], true
		}
	}
	var none T
	return none, false
}

func (c *lastPages[T]) add(p T) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.pages[c.next] = p
	c.next = (c.next + 1) % len(c.pages)
}

// Page is the page of events a message carries in its payload. The events' Data share the
// payload's bytes, and the page itself is shared by the messages that share the payload: they
// are read, never written.
func Page(msg *message.Message) ([]events.RecordedEvent, error) {
	page, err := decoded.decode(msg.Payload)
	if err != nil {
		return nil, fmt.Errorf("message %s: decode page: %w", msg.UUID, err)
	}
	if len(page) == 0 {
		return nil, fmt.Errorf("message %s carries no events", msg.UUID)
	}
	return page, nil
}

// decoded keeps the pages decoded last. Every projector unit and process runtime that keeps up
// is sent the same payload (see encodedPages), and each decoded all of it for itself: a fifth of
// the server's allocations under load. A payload is known by its first byte's address and its
// length; the entry holds the payload, so that address is not reused while it is kept.
var decoded decodedPages

type decodedPages struct{ lastPages[decodedPage] }

type decodedPage struct {
	payload []byte
	page    []events.RecordedEvent
}

func (c *decodedPages) decode(payload []byte) ([]events.RecordedEvent, error) {
	if len(payload) == 0 {
		return decodePage(payload)
	}
	if p, ok := c.find(func(p *decodedPage) bool {
		return len(p.payload) == len(payload) && &p.payload[0] == &payload[0]
	}); ok {
		return p.page, nil
	}
	page, err := decodePage(payload)
	if err != nil {
		return nil, err
	}
	c.add(decodedPage{payload: payload, page: page})
	return page, nil
}

// encodePage writes the format byte, the event count, then per event its positions, id, stream,
// type, data and metadata, lengths as uvarints. A hand-written layout: gob and JSON cost a
// projector's catch-up a third of its CPU time.
func encodePage(page []events.RecordedEvent) ([]byte, error) {
	size := 1 + binary.MaxVarintLen64
	for i := range page {
		size += 64 + len(page[i].Stream) + len(page[i].Type) + len(page[i].Data) + 128
	}
	b := make([]byte, 0, size)
	b = append(b, pageFormat)
	b = binary.AppendUvarint(b, uint64(len(page)))
	for i := range page {
		e := &page[i]
		b = binary.AppendVarint(b, e.Position)
		b = binary.AppendVarint(b, e.Version)
		b = append(b, e.ID[:]...)
		b = varbuf.Append(b, []byte(e.Stream))
		b = varbuf.Append(b, []byte(e.Type))
		b = varbuf.Append(b, e.Data)
		m := &e.Metadata
		for _, s := range []string{m.CommandID, m.Actor, m.CorrelationID, m.CausationID, m.Request} {
			b = varbuf.Append(b, []byte(s))
		}
		t, err := m.ServerTime.MarshalBinary()
		if err != nil {
			return nil, fmt.Errorf("event at %d: server time: %w", e.Position, err)
		}
		b = varbuf.Append(b, t)
	}
	return b, nil
}

var errShort = errors.New("payload ends early")

func decodePage(payload []byte) ([]events.RecordedEvent, error) {
	if len(payload) == 0 || payload[0] != pageFormat {
		return nil, errors.New("not a page of events")
	}
	count, n := binary.Uvarint(payload[1:])
	if n <= 0 || count > uint64(len(payload)) {
		return nil, errShort
	}
	r := &varbuf.Reader{B: payload[1+n:]}
	page := make([]events.RecordedEvent, count)
	// A page repeats most of its strings, and each distinct one is allocated once instead of
	// once per field (most of a page decode's allocations were these strings): types, streams
	// and actors recur across a page's commands, a command's ids recur in its own events.
	names := map[string]string{}
	name := func(b []byte) string {
		if s, ok := names[string(b)]; ok {
			return s
		}
		s := string(b)
		names[s] = s
		return s
	}
	var prev events.Metadata
	for i := range page {
		e := &page[i]
		e.Position = r.Varint()
		e.Version = r.Varint()
		copy(e.ID[:], r.Take(uint64(len(e.ID))))
		e.Stream = name(r.Bytes())
		e.Type = name(r.Bytes())
		e.Data = r.Bytes()
		m := &e.Metadata
		m.CommandID = reuse(r.Bytes(), prev.CommandID)
		m.Actor = name(r.Bytes())
		m.CorrelationID = reuse(r.Bytes(), m.CommandID, prev.CorrelationID)
		m.CausationID = reuse(r.Bytes(), m.CommandID, prev.CausationID)
		m.Request = reuse(r.Bytes(), prev.Request)
		prev = *m
		if r.Bad {
			break
		}
		var t time.Time
		if err := t.UnmarshalBinary(r.Bytes()); err != nil {
			return nil, fmt.Errorf("event %d: server time: %w", i, err)
		}
		m.ServerTime = t
	}
	if r.Bad {
		return nil, errShort
	}
	if len(r.B) != 0 {
		return nil, errors.New("bytes after the last event")
	}
	return page, nil
}

// reuse is b as a string: one of known when equal to it, else a new one.
func reuse(b []byte, known ...string) string {
	for _, s := range known {
		if s == string(b) {
			return s
		}
	}
	return string(b)
}
