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

// followRetry is the pause before reading the log again after the store failed.
const followRetry = time.Second

// followPage is how many events a follower let go of the shared tail reads at a time.
const followPage = 1000

// FollowLog calls handle with every event appended from now on, in order, until ctx ends. The
// callers on one store share one subscription of its log (tail.go); handle runs on the caller's
// goroutine, and a slow one loses nothing. When the store fails it goes on from the last event
// handled after a pause. For pushes: a missed push is read over HTTP, so events from before the
// call are not replayed.
func FollowLog(ctx context.Context, store events.Store, log *slog.Logger, what string, handle func(ctx context.Context, r events.RecordedEvent)) error {
	from, err := store.Head(ctx)
	if err != nil {
		return fmt.Errorf("%s: head: %w", what, err)
	}
	t, f := join(store, log, from)
	defer t.leave(f)
	for {
		pages, attached := t.take(f)
		for _, page := range pages {
			for _, r := range page {
				if r.Position > from { // a follower that read ahead of the tail has handled it
					handle(ctx, r)
					from = r.Position
				}
			}
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if len(pages) > 0 {
			continue
		}
		if !attached { // behind the tail: read the store until it is caught up
			evs, err := store.ReadAll(ctx, from, followPage)
			if err != nil {
				if ctx.Err() != nil {
					return ctx.Err()
				}
				log.WarnContext(ctx, what+": reading the log", "err", err, "position", from)
				select {
				case <-ctx.Done():
					return ctx.Err()
				case <-time.After(followRetry):
				}
				continue
			}
			for _, r := range evs {
				handle(ctx, r)
				from = r.Position
			}
			if len(evs) < followPage {
				t.attach(f, from)
			}
			continue
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-f.wake:
		}
	}
}
