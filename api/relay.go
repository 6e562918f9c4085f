package api

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log/slog"
	"time"

	"github.com/nats-io/nats.go"
)

// socketRelay carries the socket frames that are no event (chat typing) between the API
// instances of a deployment, over NATS: a module's socket op answers through it (httpx.Sockets),
// and it hands the frame to this instance's sockets and publishes it for the others, whose relay
// hands it to theirs. Frames that derive from an event (chat messages and marks, fired alerts,
// ended sessions) never take this path: every instance follows the shared log for them
// (httpx.Pusher), which is gap-free. A frame lost here (NATS down, a slow subscriber) is what a
// lost typing indicator always was: best effort.
type socketRelay struct {
	hub     *wsHub
	nc      *nats.Conn
	sub     *nats.Subscription
	subject string
	origin  string // this instance's id: its own frames come back and are dropped
	log     *slog.Logger
}

// relayed is a frame on the wire: to a member's sockets, or to every ops socket when Member is "".
type relayed struct {
	Origin string          `json:"o"`
	Member string          `json:"m,omitempty"`
	Frame  json.RawMessage `json:"f"`
}

// openSocketRelay connects to NATS and subscribes to subject before the instance serves, so
// that no frame published once it answers is missed.
func openSocketRelay(ctx context.Context, url, subject, role string, hub *wsHub, log *slog.Logger) (*socketRelay, error) {
	var id [8]byte
	_, _ = rand.Read(id[:])
	r := &socketRelay{hub: hub, subject: subject, origin: hex.EncodeToString(id[:]), log: log}
	nc, err := nats.Connect(url, nats.Name("lotbook "+role+" "+r.origin), nats.MaxReconnects(-1),
		nats.ReconnectWait(time.Second), nats.Timeout(5*time.Second))
	if err != nil {
		return nil, fmt.Errorf("api: connect to NATS: %w", err)
	}
	r.nc = nc
	if r.sub, err = nc.Subscribe(subject, r.deliver); err != nil {
		nc.Close()
		return nil, fmt.Errorf("api: subscribe to %s: %w", subject, err)
	}
	fctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := nc.FlushWithContext(fctx); err != nil {
		nc.Close()
		return nil, fmt.Errorf("api: NATS subscription to %s: %w", subject, err)
	}
	return r, nil
}

// ToMember sends frame to the member's sockets here and on the other instances (httpx.Sockets).
func (r *socketRelay) ToMember(memberID string, frame any) {
	r.hub.ToMember(memberID, frame)
	r.publish(memberID, frame)
}

// ToOps sends frame to every ops socket here and on the other instances (httpx.Sockets).
func (r *socketRelay) ToOps(frame any) {
	r.hub.ToOps(frame)
	r.publish("", frame)
}

func (r *socketRelay) publish(memberID string, frame any) {
	f, err := json.Marshal(frame)
	if err == nil {
		var msg []byte
		if msg, err = json.Marshal(relayed{Origin: r.origin, Member: memberID, Frame: f}); err == nil {
			err = r.nc.Publish(r.subject, msg)
		}
	}
	if err != nil {
		r.log.Warn("socket relay: publish", "subject", r.subject, "err", err)
	}
}

// deliver hands a frame another instance published to this instance's sockets.
func (r *socketRelay) deliver(m *nats.Msg) {
	var in relayed
	if err := json.Unmarshal(m.Data, &in); err != nil {
		r.log.Warn("socket relay: undecodable frame", "subject", m.Subject, "err", err)
		return
	}
	if in.Origin == r.origin {
		return
	}
	if in.Member != "" {
		r.hub.ToMember(in.Member, in.Frame)
	} else {
		r.hub.ToOps(in.Frame)
	}
}

// close stops taking frames and closes the connection.
func (r *socketRelay) close() {
	if err := r.sub.Unsubscribe(); err != nil {
		r.log.Warn("socket relay: unsubscribe", "err", err)
	}
	r.nc.Close()
}
