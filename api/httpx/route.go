package httpx

// Role is who may call a route; package api serves each role's routes on a subrouter whose
// middleware admits that role only.
type Role int

const (
	Public  Role = iota // no session
	AnyUser             // any logged-in user (member, ops, auditor)
	Member              // role member
	Ops                 // role ops
	Auditor             // role auditor
)

// Idem says how a route treats Idempotency-Key.
type Idem int

const (
	IdemNone     Idem = iota // reads
	IdemOptional             // login, register, logout: the key may be sent and is claimed, no answer is stored (it would hold a token)
	IdemRequired             // every other state-changing request
	IdemOwnBody              // as IdemRequired, but the handler reads its (multipart) body and binds the key to it
)

// Handler answers one call.
type Handler func(c *Call) (Reply, error)

// Route is one operation of api/openapi.yaml.
type Route struct {
	Role         Role
	Method, Path string
	Idem         Idem
	Handle       Handler
}

// Module is a capability's HTTP side: the routes it serves, declared next to its handlers.
type Module interface {
	Routes() []Route
}

// Op declares one operation: who may call it, its method and path template as in openapi.yaml,
// how it treats Idempotency-Key, and its handler.
func Op(role Role, method, path string, idem Idem, handle Handler) Route {
	return Route{Role: role, Method: method, Path: path, Idem: idem, Handle: handle}
}
