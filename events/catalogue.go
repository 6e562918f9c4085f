package events

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"strings"
)

// Payload is a typed event. Name is the event's name without version ("DepositApproved").
type Payload interface {
	EventName() string
}

// Upcaster turns the JSON of version n of an event into version n+1.
type Upcaster func(old json.RawMessage) (json.RawMessage, error)

type entry struct {
	version   int
	stored    string // the type at this version, "Name.vN": built once, not on every encode
	typ       reflect.Type
	upcasters map[int]Upcaster // from version -> to version+1
}

var registry = map[string]*entry{}

// register adds a payload type at its current version. Upcasters are keyed by the version they
// read; every version below the current one must have one, so old events always decode.
func register(p Payload, version int, upcasters map[int]Upcaster) {
	name := p.EventName()
	if _, dup := registry[name]; dup {
		panic("events: duplicate registration of " + name)
	}
	for v := 1; v < version; v++ {
		if upcasters[v] == nil {
			panic(fmt.Sprintf("events: %s v%d has no upcaster to v%d", name, v, v+1))
		}
	}
	t := reflect.TypeOf(p)
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	registry[name] = &entry{version: version, stored: name + ".v" + strconv.Itoa(version), typ: t, upcasters: upcasters}
}

// TypeName is the stored type of a payload at its current version, e.g. "DepositApproved.v1".
func TypeName(p Payload) string {
	e, ok := registry[p.EventName()]
	if !ok {
		panic("events: unregistered event " + p.EventName())
	}
	return e.stored
}

// SplitType splits "Name.vN" into name and version.
func SplitType(typ string) (string, int, error) {
	i := strings.LastIndex(typ, ".v")
	if i < 0 {
		return "", 0, fmt.Errorf("events: type %q has no version suffix", typ)
	}
	v, err := strconv.Atoi(typ[i+2:])
	if err != nil || v < 1 {
		return "", 0, fmt.Errorf("events: type %q has a bad version suffix", typ)
	}
	return typ[:i], v, nil
}

// Encode builds the EventData for a payload; the id and metadata come from the caller.
func Encode(p Payload) (typ string, data []byte, err error) {
	data, err = json.Marshal(p)
	if err != nil {
		return "", nil, fmt.Errorf("events: encode %s: %w", p.EventName(), err)
	}
	return TypeName(p), data, nil
}

// Decode turns a stored event into its typed payload at the current version, upcasting older
// versions step by step.
func Decode(typ string, data []byte) (Payload, error) {
	name, v, err := SplitType(typ)
	if err != nil {
		return nil, err
	}
	e, ok := registry[name]
	if !ok {
		return nil, fmt.Errorf("events: unknown event type %q", typ)
	}
	if v > e.version {
		return nil, fmt.Errorf("events: %q is newer than this binary (v%d)", typ, e.version)
	}
	raw := json.RawMessage(data)
	for ; v < e.version; v++ {
		if raw, err = e.upcasters[v](raw); err != nil {
			return nil, fmt.Errorf("events: upcast %s v%d: %w", name, v, err)
		}
	}
	ptr := reflect.New(e.typ)
	if err := json.Unmarshal(raw, ptr.Interface()); err != nil {
		return nil, fmt.Errorf("events: decode %s: %w", typ, err)
	}
	return ptr.Elem().Interface().(Payload), nil
}

// DecodeRecorded decodes a recorded event's payload.
func DecodeRecorded(r RecordedEvent) (Payload, error) {
	p, err := Decode(r.Type, r.Data)
	if err != nil {
		return nil, fmt.Errorf("stream %s v%d: %w", r.Stream, r.Version, err)
	}
	return p, nil
}

// Registered lists every registered event name with its current version, sorted by name.
func Registered() map[string]int {
	out := make(map[string]int, len(registry))
	for n, e := range registry {
		out[n] = e.version
	}
	return out
}

// RegisteredNames is the sorted list of registered event names.
func RegisteredNames() []string {
	names := make([]string, 0, len(registry))
	for n := range registry {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// sameJSON is the upcaster of a version whose JSON the next one reads unchanged: the next version
// only added fields that the old one could not fill.
func sameJSON(old json.RawMessage) (json.RawMessage, error) { return old, nil }
