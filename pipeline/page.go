package pipeline

import (
	"bytes"
	"encoding/gob"
	"fmt"
	"strconv"

	"github.com/ThreeDotsLabs/watermill/message"

	"github.com/lotbook/lotbook/events"
)

// Metadata keys of a page message: the global positions of its first and last event.
const (
	MetaFirst = "first"
	MetaLast  = "last"
)

// NewPageMessage is the message that carries a page of events in its payload, with id and
// first/last positions in its metadata.
func NewPageMessage(id string, page []events.RecordedEvent) (*message.Message, error) {
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(page); err != nil {
		return nil, fmt.Errorf("encode page %s: %w", id, err)
	}
	msg := message.NewMessage(id, buf.Bytes())
	msg.Metadata.Set(MetaFirst, strconv.FormatInt(page[0].Position, 10))
	msg.Metadata.Set(MetaLast, strconv.FormatInt(page[len(page)-1].Position, 10))
	return msg, nil
}

// Page is the page of events a message carries in its payload.
func Page(msg *message.Message) ([]events.RecordedEvent, error) {
	var page []events.RecordedEvent
	if err := gob.NewDecoder(bytes.NewReader(msg.Payload)).Decode(&page); err != nil {
		return nil, fmt.Errorf("message %s: decode page: %w", msg.UUID, err)
	}
	if len(page) == 0 {
		return nil, fmt.Errorf("message %s carries no events", msg.UUID)
	}
	return page, nil
}
