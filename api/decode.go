package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/lotbook/lotbook/api/httpx"
)

// decodeStrict decodes exactly one JSON object into dst: the names must be the schema's own
// (exact case), each at most once in any object, every required field present and not null, no
// unknown fields, types exact (so a JSON number where the contract has a decimal string is
// refused), nothing after the value.
func decodeStrict(body []byte, sh requestShape, dst any) error {
	if err := noDuplicateKeys(body); err != nil {
		return httpx.InvalidRequest(err)
	}
	var fields map[string]json.RawMessage
	if err := oneValue(body, &fields, false); err != nil {
		return httpx.InvalidRequest(err)
	}
	if fields == nil {
		return httpx.InvalidRequest(errors.New("body is not an object"))
	}
	for k := range fields {
		if !sh.props[k] {
			return httpx.InvalidRequest(fmt.Errorf("%s: unknown field %q", sh.name, k))
		}
	}
	for _, k := range sh.required {
		v, ok := fields[k]
		if !ok || bytes.Equal(bytes.TrimSpace(v), []byte("null")) {
			return httpx.InvalidRequest(fmt.Errorf("%s: missing field %q", sh.name, k))
		}
	}
	if err := oneValue(body, dst, true); err != nil {
		return httpx.InvalidRequest(err)
	}
	return nil
}

func oneValue(body []byte, dst any, strict bool) error {
	dec := json.NewDecoder(bytes.NewReader(body))
	if strict {
		dec.DisallowUnknownFields()
	}
	if err := dec.Decode(dst); err != nil {
		return fmt.Errorf("decode: %w", err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return errors.New("more than one JSON value")
	}
	return nil
}

// noDuplicateKeys walks body's tokens and refuses a name given twice in one object, at any depth.
// encoding/json silently keeps the last one, so a proxy, a log and this server could each read a
// different request from the same bytes.
func noDuplicateKeys(body []byte) error {
	type scope struct {
		keys    map[string]bool // nil for an array
		wantKey bool
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	var stack []*scope
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("decode: %w", err)
		}
		var top *scope
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if d, ok := tok.(json.Delim); ok && (d == '}' || d == ']') {
			stack = stack[:len(stack)-1]
			continue
		}
		if top != nil && top.keys != nil {
			if top.wantKey {
				k := tok.(string) // the decoder yields only strings where a name belongs
				if top.keys[k] {
					return fmt.Errorf("field %q given twice", k)
				}
				top.keys[k], top.wantKey = true, false
				continue
			}
			top.wantKey = true // this token starts the value; the next one at this depth is a name
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, &scope{keys: map[string]bool{}, wantKey: true})
		case json.Delim('['):
			stack = append(stack, &scope{})
		}
	}
}
