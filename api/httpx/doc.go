// Package httpx is the HTTP core every capability's handlers share: the answer envelope and
// refusals, the request as handlers see it (Call) and their answer (Reply), query and body
// parsing, and the route declaration with its role and idempotency mode. Package api serves
// the routes (sessions, role subrouters, idempotency, read-your-writes); a capability package
// under api/ imports this core and its own commands and projections, never another capability.
package httpx
