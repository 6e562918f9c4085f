package pipeline_test

import (
	"context"
	"encoding/json"
	"log/slog"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/ThreeDotsLabs/watermill/message"
	"github.com/ThreeDotsLabs/watermill/pubsub/tests"
	"github.com/google/uuid"

	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/events/sqlite"
	"github.com/lotbook/lotbook/pipeline"
)

// The log has no publisher and its messages are pages, so Watermill's universal suite runs over
// an adapter (see the package documentation): the test publisher appends each message as one
// event to the topic's stream; the adapter subscribes with one event per page and passes on the
// events of the topic's stream as messages, acking or nacking the page as the test does the
// message, and keeps each topic's position as a consumer's checkpoint (shared by the pub/subs of
// one test, as a database would keep it).

const messageType = "PipelineTestMessage.v1"

type storedMessage struct {
	UUID     string            `json:"uuid"`
	Payload  []byte            `json:"payload"`
	Metadata map[string]string `json:"metadata"`
}

type logPublisher struct{ st events.Store }

func (p logPublisher) Publish(topic string, msgs ...*message.Message) error {
	evs := make([]events.EventData, len(msgs))
	for i, m := range msgs {
		// One message may go to several topics; event ids are unique in the whole log.
		id := uuid.NewSHA1(uuid.NameSpaceOID, []byte(topic+"\x00"+m.UUID))
		data, err := json.Marshal(storedMessage{UUID: m.UUID, Payload: m.Payload, Metadata: m.Metadata})
		if err != nil {
			return err
		}
		evs[i] = events.EventData{ID: id, Type: messageType, Data: data, Metadata: events.Metadata{CommandID: m.UUID, Actor: "system", ServerTime: time.Now()}}
	}
	_, err := p.st.Append(context.Background(), "topic-"+topic, events.AnyVersion, evs)
	return err
}

func (logPublisher) Close() error { return nil }

// checkpoints are the topics' consumer positions of one test.
type checkpoints struct {
	mu  sync.Mutex
	pos map[string]int64
}

func (c *checkpoints) get(topic string) int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.pos[topic]
}

func (c *checkpoints) set(topic string, pos int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.pos[topic] = max(c.pos[topic], pos)
}

type topicSubscriber struct {
	sub    *pipeline.Subscriber
	cps    *checkpoints
	cancel context.CancelFunc
	done   chan struct{}
	wg     sync.WaitGroup // the adapters' goroutines
}

func (s *topicSubscriber) Subscribe(ctx context.Context, topic string) (<-chan *message.Message, error) {
	pages, err := s.sub.Subscribe(ctx, topic)
	if err != nil {
		return nil, err
	}
	out := make(chan *message.Message)
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		defer close(out)
		for page := range pages {
			evs, err := pipeline.Page(page)
			if err != nil || len(evs) != 1 {
				page.Nack()
				continue
			}
			ev := evs[0]
			if ev.Stream != "topic-"+topic {
				s.cps.set(topic, ev.Position)
				page.Ack()
				continue
			}
			var sm storedMessage
			if err := json.Unmarshal(ev.Data, &sm); err != nil {
				page.Nack()
				continue
			}
			msg := message.NewMessage(sm.UUID, sm.Payload)
			msg.Metadata = sm.Metadata
			msg.SetContext(page.Context())
			select {
			case out <- msg:
			case <-page.Context().Done():
				return
			}
			select {
			case <-msg.Acked():
				s.cps.set(topic, ev.Position)
				page.Ack()
			case <-msg.Nacked():
				page.Nack()
			case <-page.Context().Done():
				return
			}
		}
	}()
	return out, nil
}

func (s *topicSubscriber) Close() error {
	err := s.sub.Close()
	s.wg.Wait()
	s.cancel()
	<-s.done
	return err
}

func TestUniversalPubSub(t *testing.T) {
	if testing.Short() {
		t.Skip("the universal suite takes a while")
	}
	stores := map[*testing.T]*sqlite.Store{}
	var mu sync.Mutex
	cpsOf := map[*testing.T]*checkpoints{}
	constructor := func(t *testing.T) (message.Publisher, message.Subscriber) {
		mu.Lock()
		defer mu.Unlock()
		st, ok := stores[t]
		if !ok {
			var err error
			if st, err = sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "events.db")); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { st.Close() })
			stores[t] = st
			cpsOf[t] = &checkpoints{pos: map[string]int64{}}
		}
		cps := cpsOf[t]
		sub := pipeline.NewSubscriber(pipeline.Config{Store: st, MaxPage: 1, HubCapacity: 256, Logger: slog.New(slog.DiscardHandler),
			From: func(_ context.Context, topic string) (int64, error) { return cps.get(topic), nil }})
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { sub.Run(ctx); close(done) }()
		return logPublisher{st: st}, &topicSubscriber{sub: sub, cps: cps, cancel: cancel, done: done}
	}
	tests.TestPubSub(t, tests.Features{
		ConsumerGroups:      false, // a topic is one consumer, its start is the consumer's checkpoint
		ExactlyOnceDelivery: false, // at least once: consumers make it once (checkpoints, command ids)
		GuaranteedOrder:     true,
		Persistent:          true,
		// The long variants differ only in counts (5000 messages, 50 subscribers): at one event per
		// page, every topic reading the whole log, they did not end within four minutes here.
		ForceShort: true,
	}, constructor, nil)
}
