package commands

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/shopspring/decimal"
)

// The places where capabilities meet on the write side: which aggregate a stream holds, the parts
// an account is composed of, and order numbers. A capability registers itself here from its own
// file; nothing here names one.

// streamKind is a family of streams and the aggregate each of them holds.
type streamKind struct {
	prefix string                // "account-": the stream name is prefix + id
	name   string                // a single stream ("config"), when prefix is empty
	state  func(id string) State // a new, empty aggregate of the stream
}

var streamKinds []streamKind

// RegisterStreams declares the aggregate of every stream named prefix + id.
func RegisterStreams(prefix string, newState func(id string) State) {
	registerStreamKind(streamKind{prefix: prefix, state: newState})
}

// RegisterStream declares the aggregate of the one stream called name.
func RegisterStream(name string, newState func() State) {
	registerStreamKind(streamKind{name: name, state: func(string) State { return newState() }})
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
func stateFor(stream string) State {
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

// AccountPart is one capability's part of an account aggregate: its own state, evolved from
// every event of the account stream (the part ignores the events that are not its own). Its
// decisions are functions of the capability that reach the part through its PartKey. Member
// and config parts are the same of the member and config streams.
type AccountPart = State

// MemberPart is one capability's part of a member aggregate (stream member-<id>), as
// AccountPart is of an account: identity's submissions and cards, favourites' list.
type MemberPart = State

// OrderHolder is a part that issues order numbers; an account's new order number must be free in
// all of them.
type OrderHolder interface {
	HoldsOrder(orderNo string) bool
}

// PendingHolding is a part that knows of shares the member is due but may not sell yet (new
// shares allotted before their listing date): a close naming one of them is refused with the
// message key the part gives, not as an unknown position.
type PendingHolding interface {
	NotYetTradable(positionID string, now time.Time) (key string, ok bool)
}

// ShareHold is a part that keeps some of the member's shares of a symbol from being sold (lent
// shares until they are recalled): a member's sale must leave them in place.
type ShareHold interface {
	HeldShares(symbol string) int64
}

// FreeShareHolder is a part that knows the member's own shares of a symbol that are free to sell,
// lend or hold for something else: unfinanced long holdings not in a closing order (trading).
type FreeShareHolder interface {
	FreeShares(symbol string) int64
}

// WithdrawalHold is a part that keeps some of the available cash from being withdrawn (sale
// proceeds before settlement, say).
type WithdrawalHold interface {
	HeldFromWithdrawal(currency string, now time.Time) decimal.Decimal
}

// Debtor is a part that holds what the member owes (an outstanding loan with its unpaid
// interest): a withdrawal may take only the cash above it, the member's own equity.
type Debtor interface {
	Owed(currency string) decimal.Decimal
}

// Ledger is what every part may know of its account: the member and the member's ledger
// accounts.
type Ledger struct {
	MemberID  string
	Available string // the member's available cash account (events.MemberAvailable)
	Frozen    string // the member's frozen cash account (events.MemberFrozen)
}

// partSpecs are the registered parts of one kind of composed aggregate, in registration order:
// their names and constructors (given what the shell tells its parts, L).
type partSpecs[L any] struct {
	shell string
	names []string
	news  []func(L) State
}

var (
	accountParts = &partSpecs[Ledger]{shell: "account"}
	memberParts  = &partSpecs[string]{shell: "member"}
	configParts  = &partSpecs[struct{}]{shell: "config"}
)

// add registers a part and returns its index in every new aggregate's parts.
func (ps *partSpecs[L]) add(name string, newPart func(L) State) int {
	if slices.Contains(ps.names, name) {
		panic("commands: " + ps.shell + " part " + name + " registered twice")
	}
	ps.names, ps.news = append(ps.names, name), append(ps.news, newPart)
	return len(ps.news) - 1
}

// build is a new aggregate's parts.
func (ps *partSpecs[L]) build(l L) []State {
	out := make([]State, len(ps.news))
	for i, newPart := range ps.news {
		out[i] = newPart(l)
	}
	return out
}

// Composed is an aggregate made of parts that capabilities register: Account, Member, Config.
type Composed interface {
	*Account | *Member | *Config
	partList() []State
}

// PartKey reaches a registered part P of the composed aggregates A with its own type.
type PartKey[A Composed, P State] struct{ index int }

// Of is the part in a.
func (k PartKey[A, P]) Of(a A) P { return a.partList()[k.index].(P) }

// RegisterAccountPart adds a part to every account; the key it returns is the part's typed
// accessor. Called at package initialisation, once per part.
func RegisterAccountPart[P AccountPart](name string, newPart func(l Ledger) P) PartKey[*Account, P] {
	return PartKey[*Account, P]{index: accountParts.add(name, func(l Ledger) State { return newPart(l) })}
}

// RegisterMemberPart adds a part to every member aggregate, given the member's id; the key it
// returns is the part's typed accessor. Called at package initialisation, once per part.
func RegisterMemberPart[P MemberPart](name string, newPart func(memberID string) P) PartKey[*Member, P] {
	return PartKey[*Member, P]{index: memberParts.add(name, func(id string) State { return newPart(id) })}
}

// RegisterConfigPart adds a part to the config aggregate (stream config); the key it returns is
// the part's typed accessor. Called at package initialisation, once per part.
func RegisterConfigPart[P State](name string, newPart func() P) PartKey[*Config, P] {
	return PartKey[*Config, P]{index: configParts.add(name, func(struct{}) State { return newPart() })}
}

// OrderNumber is the n-th candidate order number of a command under a capability's prefix: the
// prefix, the date in Asia/Taipei, and 16 digits derived from the member and the command id. Deterministic, so a retried command proposes
// the same number; 10^16 numbers a day make a collision between members negligible, and within
// one account the next candidate is taken (Account.FreeOrderNo).
func OrderNumber(prefix, memberID, commandID string, day time.Time, n int) string {
	sum := sha256.Sum256([]byte(memberID + "\x00" + commandID + "\x00" + fmt.Sprint(n)))
	x := binary.BigEndian.Uint64(sum[:8]) % 10_000_000_000_000_000
	return fmt.Sprintf("%s%s%016d", prefix, day.In(Taipei).Format("20060102"), x)
}

// OrderNumbers is command c's candidate order numbers for the member under prefix.
func (c Cmd) OrderNumbers(prefix, memberID string) func(n int) string {
	return func(n int) string { return OrderNumber(prefix, memberID, c.CommandID, c.Now, n) }
}
