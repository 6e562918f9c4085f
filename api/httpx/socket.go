package httpx

import (
	"context"

	"github.com/lotbook/lotbook/api/wire"
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
