package backend

import "encoding/json"

// Every stored event's metadata is encoded on append and decoded on every read (stream loads,
// the projections' feed, rebuilds); with encoding/json the decode alone was about 40% of reading
// a page of events. The metadata is a flat object of short strings, so the common case is
// written and parsed here by hand, and anything unusual (escapes, non-ASCII text, other keys or
// value types) goes through encoding/json, which stays the definition of the format.

// appendMetadata encodes m exactly as json.Marshal does when every string is plain printable
// ASCII without characters JSON escapes; ok is false otherwise.
func appendMetadata(b []byte, m metadata) (_ []byte, ok bool) {
	for _, s := range []string{m.CommandID, m.Actor, m.CorrelationID, m.CausationID, m.Request, m.ServerTime} {
		if !plainJSON(s) {
			return b, false
		}
	}
	b = append(b, `{"commandId":"`...)
	b = append(b, m.CommandID...)
	b = append(b, `","actor":"`...)
	b = append(b, m.Actor...)
	if m.CorrelationID != "" {
		b = append(b, `","correlationId":"`...)
		b = append(b, m.CorrelationID...)
	}
	if m.CausationID != "" {
		b = append(b, `","causationId":"`...)
		b = append(b, m.CausationID...)
	}
	if m.Request != "" {
		b = append(b, `","request":"`...)
		b = append(b, m.Request...)
	}
	b = append(b, `","serverTime":"`...)
	b = append(b, m.ServerTime...)
	return append(b, `"}`...), true
}

// plainJSON reports whether s is printable ASCII that encoding/json writes as is (it escapes
// quotes, backslashes and, for HTML safety, <, > and &).
func plainJSON(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c > 0x7e || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			return false
		}
	}
	return true
}

// parseMetadata decodes a flat JSON object of plain strings (any key order and white space, as
// PostgreSQL's jsonb returns it) into m; ok is false when b needs encoding/json.
func parseMetadata(b []byte, m *metadata) (ok bool) {
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return false
	}
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return skipSpace(b, i+1) == len(b)
	}
	for {
		var key, val []byte
		if key, i, ok = plainString(b, i); !ok {
			return false
		}
		if i = skipSpace(b, i); i >= len(b) || b[i] != ':' {
			return false
		}
		if val, i, ok = plainString(b, skipSpace(b, i+1)); !ok {
			return false
		}
		// Keys are matched without a string of their own, and a flow or cause that is the
		// command itself shares its id's string: these were most of a read's allocations.
		switch string(key) {
		case "commandId":
			m.CommandID = string(val)
		case "actor":
			m.Actor = string(val)
		case "correlationId":
			m.CorrelationID = m.commandOr(val)
		case "causationId":
			m.CausationID = m.commandOr(val)
		case "request":
			m.Request = string(val)
		case "serverTime":
			m.ServerTime = string(val)
		default:
			return false
		}
		if i = skipSpace(b, i); i >= len(b) {
			return false
		}
		switch b[i] {
		case ',':
			i = skipSpace(b, i+1)
		case '}':
			return skipSpace(b, i+1) == len(b)
		default:
			return false
		}
	}
}

// commandOr is the command's id when v is the same, else v.
func (m *metadata) commandOr(v []byte) string {
	if string(v) == m.CommandID {
		return m.CommandID
	}
	return string(v)
}

// plainString reads a JSON string at b[i] that holds printable ASCII without escapes: its
// contents, within b.
func plainString(b []byte, i int) ([]byte, int, bool) {
	if i >= len(b) || b[i] != '"' {
		return nil, i, false
	}
	for j := i + 1; j < len(b); j++ {
		switch c := b[j]; {
		case c == '"':
			return b[i+1 : j], j + 1, true
		case c == '\\' || c < 0x20 || c > 0x7e:
			return nil, i, false
		}
	}
	return nil, i, false
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// decodeMetadata is the stored metadata's decoder: by hand when it can, else encoding/json.
func decodeMetadata(b []byte) (metadata, error) {
	var m metadata
	if parseMetadata(b, &m) {
		return m, nil
	}
	m = metadata{}
	err := json.Unmarshal(b, &m)
	return m, err
}

// encodeMetadata is the stored metadata's encoder: by hand when it can, else encoding/json.
func encodeMetadata(m metadata) ([]byte, error) {
	n := 80 + len(m.CommandID) + len(m.Actor) + len(m.CorrelationID) + len(m.CausationID) + len(m.Request) + len(m.ServerTime)
	if b, ok := appendMetadata(make([]byte, 0, n), m); ok {
		return b, nil
	}
	return json.Marshal(m)
}
