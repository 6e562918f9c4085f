package commands

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/events"
)

// The places where capabilities meet on the write side: which aggregate a stream holds, the parts
// an account is composed of, and order numbers. A capability registers itself here from its own
// file; nothing here names one.

// streamKind is a family of streams and the aggregate each of them holds.
type streamKind struct {
	prefix string                // "account-": the stream name is prefix + id
	name   string                // a single stream ("config"), when prefix is empty
	state  func(id string) state // a new, empty aggregate of the stream
}

var streamKinds []streamKind

// registerStreams declares the aggregate of every stream named prefix + id.
func registerStreams(prefix string, newState func(id string) state) {
	registerStreamKind(streamKind{prefix: prefix, state: newState})
}

// registerStream declares the aggregate of the one stream called name.
func registerStream(name string, newState func() state) {
	registerStreamKind(streamKind{name: name, state: func(string) state { return newState() }})
}

func registerStreamKind(k streamKind) {
	for _, o := range streamKinds {
		if o.name == k.name && o.prefix == k.prefix ||
			o.prefix != "" && k.prefix != "" && (strings.HasPrefix(o.prefix, k.prefix) || strings.HasPrefix(k.prefix, o.prefix)) {
			panic(fmt.Sprintf("commands: streams %q%q registered twice", k.prefix, k.name))
		}
	}
	streamKinds = append(streamKinds, k)
}

// stateFor is a new, empty aggregate of a stream, as its registration says.
func stateFor(stream string) state {
	for _, k := range streamKinds {
		switch {
		case k.prefix == "" && stream == k.name:
			return k.state(stream)
		case k.prefix != "" && strings.HasPrefix(stream, k.prefix):
			return k.state(strings.TrimPrefix(stream, k.prefix))
		}
	}
	panic("commands: no aggregate for stream " + stream)
}

// accountPart is one capability's part of an account aggregate: its own state, evolved from
// every event of the account stream (the part ignores the events that are not its own). Its
// decisions are functions of the capability that reach the part through its partKey.
type accountPart interface {
	apply(r events.RecordedEvent, p events.Payload)
}

// orderHolder is a part that issues order numbers; an account's new order number must be free in
// all of them.
type orderHolder interface {
	holdsOrder(orderNo string) bool
}

// withdrawalHold is a part that keeps some of the available cash from being withdrawn (sale
// proceeds before settlement, say).
type withdrawalHold interface {
	heldFromWithdrawal(currency string, now time.Time) decimal.Decimal
}

// accountLedger is what every part may know of its account: the member and the member's ledger
// accounts.
type accountLedger struct {
	memberID  string
	available string
	frozen    string
}

// partSpec is a registered part: its name and constructor.
type partSpec struct {
	name    string
	newPart func(l accountLedger) accountPart
}

var accountParts []partSpec

// partKey reaches a registered part of an account with its own type.
type partKey[P accountPart] struct{ index int }

// registerAccountPart adds a part to every account; the key it returns is the part's typed
// accessor. Called at package initialisation, once per part.
func registerAccountPart[P accountPart](name string, newPart func(l accountLedger) P) partKey[P] {
	for _, s := range accountParts {
		if s.name == name {
			panic("commands: account part " + name + " registered twice")
		}
	}
	accountParts = append(accountParts, partSpec{name: name, newPart: func(l accountLedger) accountPart { return newPart(l) }})
	return partKey[P]{index: len(accountParts) - 1}
}

// of is the part in account a.
func (k partKey[P]) of(a *accountState) P { return a.parts[k.index].(P) }

// orderNumber is the n-th candidate order number of a command under a capability's prefix: the
// prefix, the date in Asia/Taipei, and 16 digits derived from the member and the command id. Deterministic, so a retried command proposes
// the same number; 10^16 numbers a day make a collision between members negligible, and within
// one account the next candidate is taken (accountState.freeOrderNo).
func orderNumber(prefix, memberID, commandID string, day time.Time, n int) string {
	sum := sha256.Sum256([]byte(memberID + "\x00" + commandID + "\x00" + fmt.Sprint(n)))
	x := binary.BigEndian.Uint64(sum[:8]) % 10_000_000_000_000_000
	return fmt.Sprintf("%s%s%016d", prefix, day.In(taipei).Format("20060102"), x)
}

// orderNumbers is command c's candidate order numbers for the member under prefix.
func (c cmd) orderNumbers(prefix, memberID string) func(n int) string {
	return func(n int) string { return orderNumber(prefix, memberID, c.CommandID, c.now, n) }
}
