package httpx

import (
	"context"
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

// Decoder decodes a JSON body strictly against the request schema named in openapi.yaml.
type Decoder func(schema string, body []byte, dst any) error

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

	decode Decoder
}

// NewCall starts a call; decode checks bodies against the contract.
func NewCall(w http.ResponseWriter, r *http.Request, decode Decoder) *Call {
	return &Call{W: w, R: r, decode: decode}
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
	return c.decode(schema, c.Body, dst)
}

// ApproveRemark decodes an ApproveRequest (an ops decision with an optional remark) and returns
// the remark, "" when none was given.
func (c *Call) ApproveRemark() (string, error) {
	var req wire.ApproveRequest
	if err := c.Decode("ApproveRequest", &req); err != nil {
		return "", err
	}
	if req.Remark == nil {
		return "", nil
	}
	return *req.Remark, nil
}
