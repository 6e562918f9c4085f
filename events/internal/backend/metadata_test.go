package backend

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/lotbook/lotbook/events"
)

var metadataSamples = []metadata{
	{CommandID: "0b6c2f1e-4a5d-4c1e-9f3a-6d2b8e7c1a90", Actor: "member:0912345678", CorrelationID: "c", CausationID: "d",
		Request: "withdrawal.request 5e8c0f3a9b2d4c6e", ServerTime: "2026-03-02T01:02:03.123456789Z"},
	{CommandID: "k", Actor: "system", ServerTime: "2026-03-02T01:02:03Z"},
	{Actor: "ops:ops", CausationID: "x", ServerTime: "2026-03-02T01:02:03Z"},
	{CommandID: `quote " and \ backslash`, Actor: "a<b>&c", ServerTime: "t"},
	{CommandID: "tab\there", Actor: "中文", CorrelationID: "\u2028", ServerTime: "t"},
	{CommandID: "del\x7f", Actor: "bad utf-8 \xff", ServerTime: "t"},
	{},
}

// The hand-written encoding is byte for byte what encoding/json writes, and both decoders agree.
func TestMetadataMatchesEncodingJSON(t *testing.T) {
	for _, m := range metadataSamples {
		want, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		got, err := encodeMetadata(m)
		if err != nil || string(got) != string(want) {
			t.Fatalf("encodeMetadata(%+v) = %s, %v; want %s", m, got, err, want)
		}
		var viaJSON metadata
		if err := json.Unmarshal(want, &viaJSON); err != nil {
			t.Fatal(err)
		}
		dec, err := decodeMetadata(want)
		if err != nil || dec != viaJSON {
			t.Fatalf("decodeMetadata(%s) = %+v, %v; want %+v", want, dec, err, viaJSON)
		}
	}
}

func TestParseMetadataForms(t *testing.T) {
	tests := []struct {
		in   string
		fast bool // parsed by hand rather than by encoding/json
		want metadata
	}{
		// PostgreSQL's jsonb text: keys reordered, a space after every colon and comma.
		{`{"actor": "system", "commandId": "k", "serverTime": "2026-03-02T01:02:03Z", "causationId": "k"}`, true,
			metadata{CommandID: "k", Actor: "system", CausationID: "k", ServerTime: "2026-03-02T01:02:03Z"}},
		{`{"actor": "system", "request": "logout ab12", "commandId": "k", "serverTime": "2026-03-02T01:02:03Z"}`, true,
			metadata{CommandID: "k", Actor: "system", Request: "logout ab12", ServerTime: "2026-03-02T01:02:03Z"}},
		{" {\n\"actor\" : \"a\" }\t", true, metadata{Actor: "a"}},
		{`{}`, true, metadata{}},
		{`{"actor":"a\"b"}`, false, metadata{Actor: `a"b`}},
		{`{"actor":"a","extra":1}`, false, metadata{Actor: "a"}},
		{`{"Actor":"a"}`, false, metadata{Actor: "a"}}, // encoding/json matches keys without case
		{`{"actor":null}`, false, metadata{}},
		{`{"actor":"a","actor":"b"}`, true, metadata{Actor: "b"}},
	}
	for _, tc := range tests {
		var m metadata
		if fast := parseMetadata([]byte(tc.in), &m); fast != tc.fast {
			t.Fatalf("parseMetadata(%s) fast = %v, want %v", tc.in, fast, tc.fast)
		}
		got, err := decodeMetadata([]byte(tc.in))
		if err != nil || got != tc.want {
			t.Fatalf("decodeMetadata(%s) = %+v, %v; want %+v", tc.in, got, err, tc.want)
		}
	}
	for _, bad := range []string{``, `{`, `{"actor"}`, `{"actor":"a"`, `{"actor":"a"} x`, `[]`, `{"actor":"a",}`} {
		if _, err := decodeMetadata([]byte(bad)); err == nil {
			t.Fatalf("decodeMetadata(%q) accepted", bad)
		}
	}
}

func FuzzDecodeMetadata(f *testing.F) {
	for _, m := range metadataSamples {
		b, _ := json.Marshal(m)
		f.Add(b)
	}
	f.Add([]byte(`{"actor": "system", "commandId": "k"}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		var want metadata
		wantErr := json.Unmarshal(b, &want)
		got, err := decodeMetadata(b)
		if (err != nil) != (wantErr != nil) || (err == nil && got != want) {
			t.Fatalf("decodeMetadata(%q) = %+v, %v; encoding/json %+v, %v", b, got, err, want, wantErr)
		}
	})
}

func BenchmarkMetadata(b *testing.B) {
	m := metadataSamples[0]
	raw, _ := json.Marshal(m)
	b.Run("encode", func(b *testing.B) {
		for b.Loop() {
			if _, err := encodeMetadata(m); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("decode", func(b *testing.B) {
		for b.Loop() {
			if _, err := decodeMetadata(raw); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("encoding/json decode", func(b *testing.B) {
		for b.Loop() {
			var m metadata
			if err := json.Unmarshal(raw, &m); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// Stored metadata is read back for ever: the form written before request fingerprints decodes
// with an empty one, and today's form is written byte for byte as its golden file.
func TestMetadataGolden(t *testing.T) {
	id := "0b6c2f1e-4a5d-4c1e-9f3a-6d2b8e7c1a90"
	at := time.Date(2026, 3, 2, 2, 0, 0, 123456789, time.UTC)
	old := events.Metadata{CommandID: id, Actor: "member:0912345678", CorrelationID: id, CausationID: id, ServerTime: at}
	current := old
	current.Request = "withdrawal.request 9c1d6b0e2f7a4385"
	for file, want := range map[string]events.Metadata{"before-request.json": old, "current.json": current} {
		b, err := os.ReadFile(filepath.Join("testdata", "metadata", file))
		if err != nil {
			t.Fatal(err)
		}
		b = bytes.TrimSuffix(b, []byte("\n"))
		got, err := UnmarshalMetadata(b)
		if err != nil || got != want {
			t.Fatalf("%s decodes as %+v, %v; want %+v", file, got, err, want)
		}
		if file == "current.json" {
			enc, err := MarshalMetadata(want, time.Time{})
			if err != nil || !bytes.Equal(enc, b) {
				t.Fatalf("MarshalMetadata = %s, %v; want %s", enc, err, b)
			}
		}
	}
}
