package httpx

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/lotbook/lotbook/api/wire"
	"github.com/lotbook/lotbook/events"
)

// The app's WebSocket (GET /api/vue/ws) as capabilities see it. A client binds its socket to its
// session with {"op":"auth"}; package api keeps which sockets belong to which member and which
// are ops users'. A module pushes frames to them (Pusher) and takes the client messages of its
// own ops (SocketReceiver); the core names no capability.

// Sockets sends frames to the authenticated sockets. A push is best effort: a socket that does
// not keep up loses frames, and its client reads what it missed over HTTP.
type Sockets interface {
	// ToMember sends frame (a value encoded as JSON) to every socket of the member.
	ToMember(memberID string, frame any)
	// ToOps sends frame to every socket of an ops user.
	ToOps(frame any)
}

// SocketSession is whom an authenticated socket belongs to.
type SocketSession struct{ MemberID, Account, Role string }

// Pusher is a module that pushes to sockets while the server runs: Push runs until ctx ends.
type Pusher interface {
	Push(ctx context.Context, s Sockets) error
}

// SocketReceiver is a module that handles some client messages of authenticated sockets.
type SocketReceiver interface {
	// SocketOp handles req from sess when req.Op is one of the module's, answering through s;
	// handled false when it is not. A refusal comes back as the error frame's message key.
	SocketOp(ctx context.Context, req wire.WsRequest, sess SocketSession, s Sockets) (handled bool, refusal wire.MessageKey)
}

// followRetry is the pause before following the log again after the store failed.
const followRetry = time.Second

// FollowLog calls handle with every event appended from now on, in order, until ctx ends; when
// the store fails it follows on from the last event handled after a pause. For pushes: a missed
// push is read over HTTP, so events from before the call are not replayed.
func FollowLog(ctx context.Context, store events.Store, log *slog.Logger, what string, handle func(ctx context.Context, r events.RecordedEvent)) error {
	from, err := store.Head(ctx)
	if err != nil {
		return fmt.Errorf("%s: head: %w", what, err)
	}
	for {
		err := store.Subscribe(ctx, from, func(ctx context.Context, page []events.RecordedEvent) error {
			for _, r := range page {
				handle(ctx, r)
				from = r.Position
			}
			return nil
		})
		if ctx.Err() != nil {
			return ctx.Err()
		}
		log.WarnContext(ctx, what+": following the log", "err", err, "position", from)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(followRetry):
		}
	}
}
