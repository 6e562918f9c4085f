package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/lotbook/lotbook/api/httpx"
)

// decodeStrict decodes exactly one JSON object into dst: the names must be the schema's own
// (exact case), each at most once in any object, every required field present and not null, no
// unknown fields, types exact (so a JSON number where the contract has a decimal string is
// refused), nothing after the value. The checks before the typed decode are one walk over the
// bytes: this runs on every command, and a token-by-token decode cost more than the typed one.
func decodeStrict(body []byte, sh requestShape, dst any) error {
	if !json.Valid(body) {
		return httpx.InvalidRequest(errors.New("body is not one JSON value"))
	}
	w := nameWalker{body: body}
	w.skipSpace()
	if body[w.i] != '{' {
		return httpx.InvalidRequest(errors.New("body is not an object"))
	}
	var topBuf [16]field
	top, err := w.object(topBuf[:0])
	if err != nil {
		return httpx.InvalidRequest(err)
	}
	for _, f := range top {
		if !sh.props[string(f.name)] {
			return httpx.InvalidRequest(fmt.Errorf("%s: unknown field %q", sh.name, f.name))
		}
	}
	for _, k := range sh.required {
		if !hasValue(top, k) {
			return httpx.InvalidRequest(fmt.Errorf("%s: missing field %q", sh.name, k))
		}
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(dst); err != nil {
		return httpx.InvalidRequest(fmt.Errorf("decode: %w", err))
	}
	return nil
}

// field is a name of an object as encoding/json decodes it, and whether its value is null.
type field struct {
	name []byte
	null bool
}

func hasValue(fields []field, name string) bool {
	for _, f := range fields {
		if string(f.name) == name {
			return !f.null
		}
	}
	return false
}

// manyNames is the size of an object from which its names are checked for duplicates in a map
// rather than against each other (a body may hold thousands of names).
const manyNames = 16

// nameWalker walks valid JSON (json.Valid said so) and refuses a name given twice in one object,
// at any depth. encoding/json silently keeps the last one, so a proxy, a log and this server
// could each read a different request from the same bytes.
type nameWalker struct {
	body []byte
	i    int
}

func (w *nameWalker) skipSpace() {
	for w.i < len(w.body) {
		switch w.body[w.i] {
		case ' ', '\t', '\n', '\r':
			w.i++
		default:
			return
		}
	}
}

// value skips one value starting at w.i, checking the objects within it.
func (w *nameWalker) value() error {
	switch w.body[w.i] {
	case '{':
		var buf [8]field
		_, err := w.object(buf[:0])
		return err
	case '[':
		w.i++
		w.skipSpace()
		if w.body[w.i] == ']' {
			w.i++
			return nil
		}
		for {
			w.skipSpace()
			if err := w.value(); err != nil {
				return err
			}
			w.skipSpace()
			end := w.body[w.i] == ']'
			w.i++ // the ',' or the ']'
			if end {
				return nil
			}
		}
	case '"':
		w.str()
	default: // a number, true, false or null
		for w.i < len(w.body) && !endsScalar(w.body[w.i]) {
			w.i++
		}
	}
	return nil
}

func endsScalar(c byte) bool {
	switch c {
	case ' ', '\t', '\n', '\r', ',', ']', '}':
		return true
	}
	return false
}

// str skips a string starting at w.i and reports whether it holds an escape or a byte beyond
// ASCII (its decoded text may then differ from its bytes).
func (w *nameWalker) str() (raw []byte, plain bool) {
	start := w.i + 1
	plain = true
	for w.i++; ; w.i++ {
		switch c := w.body[w.i]; {
		case c == '\\':
			plain = false
			w.i++ // the escaped byte; a \u's hex digits need no skipping of their own
		case c == '"':
			w.i++
			return w.body[start : w.i-1], plain
		case c >= 0x80:
			plain = false
		}
	}
}

// object walks an object starting at w.i and returns its fields appended to names.
func (w *nameWalker) object(names []field) ([]field, error) {
	var seen map[string]bool
	w.i++
	for {
		w.skipSpace()
		if w.body[w.i] == '}' { // an empty object, or a ',' never precedes it in valid JSON
			w.i++
			return names, nil
		}
		start := w.i
		name, plain := w.str()
		if !plain {
			var s string
			if err := json.Unmarshal(w.body[start:w.i], &s); err != nil {
				return nil, fmt.Errorf("decode: %w", err)
			}
			name = []byte(s)
		}
		var err error
		if names, seen, err = noteName(names, seen, name); err != nil {
			return nil, err
		}
		w.skipSpace()
		w.i++ // the ':'
		w.skipSpace()
		names[len(names)-1].null = w.body[w.i] == 'n'
		if err := w.value(); err != nil {
			return nil, err
		}
		w.skipSpace()
		if w.body[w.i] == ',' {
			w.i++
		}
	}
}

// noteName appends name to names, refusing one already there: compared with each other while
// there are few, through seen once there are many.
func noteName(names []field, seen map[string]bool, name []byte) ([]field, map[string]bool, error) {
	twice := seen[string(name)]
	if seen == nil {
		for _, f := range names {
			twice = twice || bytes.Equal(f.name, name)
		}
	}
	if twice {
		return nil, nil, fmt.Errorf("field %q given twice", name)
	}
	names = append(names, field{name: name})
	switch {
	case seen != nil:
		seen[string(name)] = true
	case len(names) >= manyNames:
		seen = make(map[string]bool, 2*len(names))
		for _, f := range names {
			seen[string(f.name)] = true
		}
	}
	return names, seen, nil
}
