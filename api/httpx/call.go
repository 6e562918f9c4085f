package httpx

import (
	"context"
	"fmt"
	"net/http"

	"github.com/google/uuid"
	"github.com/gorilla/mux"

	"github.com/lotbook/lotbook/api/wire"
	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/projections"
)

// Reply is what a handler answers: the message key (ok unless said) and data, or Written when
// the handler wrote a non-envelope body itself (images).
type Reply struct {
	Key     wire.MessageKey
	Data    any
	Written bool
}

// OK answers data with message key ok.
func OK(data any) (Reply, error) { return Reply{Key: wire.MessageKeyOk, Data: data}, nil }

// Core is what the server does for handlers beyond their request: it decodes bodies against
// the contract, reads the read models in one snapshot, waits for them to reach a position
// (read-your-writes) and binds a body a handler read itself to the request's Idempotency-Key.
type Core interface {
	// Decode decodes a JSON body strictly against the request schema named in openapi.yaml.
	Decode(schema string, body []byte, dst any) error
	// Snapshot runs read over one snapshot of the read models and returns the log position it
	// reflects.
	Snapshot(ctx context.Context, read func(rd *projections.Reader) error) (int64, error)
	// CatchUpTo waits (bounded) until the read models reached pos.
	CatchUpTo(ctx context.Context, pos int64)
	// CatchUpHead waits (bounded) until the read models reached the event store's head.
	CatchUpHead(ctx context.Context)
	// Bind fingerprints the request with payload and claims its key (see Call.Bind).
	Bind(c *Call, payload []byte) bool
}

// Call is one request as handlers see it.
type Call struct {
	W    http.ResponseWriter
	R    *http.Request
	Sess *projections.Session // nil on public routes
	// IdemKey is the request's Idempotency-Key ("" when none was sent).
	IdemKey string
	Body    []byte // JSON body of POST routes (read once, hashed for idempotency)
	// Request is the request's fingerprint, carried to its command's events.
	Request string
	// Claim is the key's record to store once the handler answered (nil: no key, or answered
	// by the replay of an earlier answer); Replayable says whether a success is stored with it.
	Claim      *projections.IdemRecord
	Replayable bool
	// Position is the log position a snapshot read reflects (0: the answer was not read from
	// one snapshot, and carries how far every projection has come).
	Position int64

	core Core
}

// NewCall starts a call served by core.
func NewCall(w http.ResponseWriter, r *http.Request, core Core) *Call {
	return &Call{W: w, R: r, core: core}
}

// Ctx is the request's context.
func (c *Call) Ctx() context.Context { return c.R.Context() }

// Var is the path variable name of the route's template.
func (c *Call) Var(name string) string { return mux.Vars(c.R)[name] }

// Meta is the command metadata: the idempotency key is the command id, so a retried command
// re-derives the same event ids and can never write twice; the request's fingerprint binds
// that id to this request on the command side too.
func (c *Call) Meta() commands.Meta {
	m := commands.Meta{CommandID: c.IdemKey, Actor: "system", Request: c.Request}
	if m.CommandID == "" {
		m.CommandID = uuid.NewString()
	}
	if c.Sess != nil {
		m.Actor = c.Sess.Role + ":" + c.Sess.Account
	}
	return m
}

// Decode reads the JSON body strictly against the request schema named in openapi.yaml.
func (c *Call) Decode(schema string, dst any) error {
	return c.core.Decode(schema, c.Body, dst)
}

// Snapshot runs read over one snapshot of the read models: what it reads is of one moment,
// and the answer carries the log position of that moment.
func (c *Call) Snapshot(read func(rd *projections.Reader) error) error {
	pos, err := c.core.Snapshot(c.Ctx(), read)
	if err != nil {
		return err
	}
	c.Position = pos
	return nil
}

// CatchUpTo waits (bounded) until the read models reached pos, a command's answer: what the
// client hears next reflects it. On time-out the call goes on with what they hold.
func (c *Call) CatchUpTo(pos int64) { c.core.CatchUpTo(c.Ctx(), pos) }

// CatchUpHead waits (bounded) until the read models reached the store's head. For a miss that
// may only be projection lag (an order or a file written a moment ago).
func (c *Call) CatchUpHead() { c.core.CatchUpHead(c.Ctx()) }

// Bind is for IdemOwnBody routes, which read their body themselves: it fingerprints the request
// with payload (what the key binds to, e.g. an upload's content rather than its framing) and
// claims the key. It reports whether it answered the request already (a replay of the stored
// answer, or 409 for a key another request used); the handler then answers Reply{Written: true}.
func (c *Call) Bind(payload []byte) bool { return c.core.Bind(c, payload) }

// Send is a command route's handler: it decodes the body strictly against the request schema
// named in openapi.yaml, sends the command run makes of it and answers key with what out makes of
// the command's result. A refusal of either step is the answer.
func Send[Req, Res, Out any](c *Call, schema string, key wire.MessageKey, run func(req Req) (Res, error), out func(Res) Out) (Reply, error) {
	var req Req
	if err := c.Decode(schema, &req); err != nil {
		return Reply{}, err
	}
	res, err := run(req)
	if err != nil {
		return Reply{}, err
	}
	return Reply{Key: key, Data: out(res)}, nil
}

// Done is the answer of a command that reports only its position in the log.
func Done(r commands.Result) wire.CommandResult { return wire.CommandResult{Position: r.Position} }

// Review is an ops decision on a member's order as the commands take it: the order named by the
// path's orderNo, its member, the remark.
type Review struct{ MemberID, OrderNo, Remark string }

// ReviewOf decodes an ops decision on the order the path's orderNo names (its remark: ReviewRemark)
// and finds the order's member with owner, which reads the read model (ops decide on what their
// queue showed them, so it is there): 404 order_not_found when it is not. what names the order in
// errors ("credit order").
func (c *Call) ReviewOf(approve bool, what string, owner func(ctx context.Context, orderNo string) (string, error)) (Review, error) {
	remark, err := c.ReviewRemark(approve)
	if err != nil {
		return Review{}, err
	}
	orderNo := c.Var("orderNo")
	memberID, err := owner(c.Ctx(), orderNo)
	if IsNotFound(err) {
		return Review{}, Refuse(http.StatusNotFound, wire.MessageKeyOrderNotFound, err)
	}
	if err != nil {
		return Review{}, fmt.Errorf("%s %s: %w", what, orderNo, err)
	}
	return Review{MemberID: memberID, OrderNo: orderNo, Remark: remark}, nil
}

// ReviewRemark decodes the body of an ops decision: an ApproveRequest, whose remark is optional,
// when approving, and a RejectRequest, whose remark (the reason the member reads) is required,
// when rejecting.
func (c *Call) ReviewRemark(approve bool) (string, error) {
	if approve {
		var req wire.ApproveRequest
		if err := c.Decode("ApproveRequest", &req); err != nil {
			return "", err
		}
		return Deref(req.Remark), nil
	}
	var req wire.RejectRequest
	if err := c.Decode("RejectRequest", &req); err != nil {
		return "", err
	}
	return req.Remark, nil
}
