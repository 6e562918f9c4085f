// Package httpx is the HTTP core every capability's handlers share: the answer envelope and
// refusals, the request as handlers see it (Call) and their answer (Reply), query and body
// parsing, rate limits, and the route declaration with its role and idempotency mode. Package
// api serves the routes (sessions, one gorilla/mux subrouter per role, idempotency,
// read-your-writes) and does for a Call what it asks of the server (Core): reads over one
// snapshot, waits for the read models, binding a body the handler read itself.
//
// A capability's HTTP side (api/trading, api/funds or api/identity are the pattern):
//
//  1. its operations and request schemas in api/openapi.yaml, then go generate in api/wire;
//  2. api/<capability>/: a Module built by New from what it needs, whose Routes declare each
//     operation with Op(role, method, path, idempotency, handler), next to the handlers. It
//     sends commands through an interface it declares itself (Commands: the methods of the
//     write side it calls) and reads its read models over *projections.Reader. A command's
//     handler decodes, sends and answers through Send; an ops decision on a member's order reads
//     its input through Call.ReviewOf; a record named in the path is read through Found;
//  3. one line in api/capabilities.go, the list of modules.
//
// A module that pushes to the app's socket implements Pusher (it runs while the server runs and
// sends through Sockets), and one that takes client socket messages implements SocketReceiver
// (api/chat is the pattern); the server finds both on the modules of the list.
//
// A capability package imports this core, api/wire and its own commands and projections, never
// another capability nor package api (ops/archtest checks it): capabilities meet through events.
package httpx
