package varbuf

import (
	"encoding/binary"
	"testing"
)

func TestRoundTripAndShortInput(t *testing.T) {
	b := Append(nil, []byte("stream-1"))
	b = binary.AppendVarint(b, -42)
	b = binary.AppendUvarint(b, 7)
	b = Append(b, nil)
	b = append(b, 1, 2, 3)

	r := Reader{B: b}
	if got := string(r.Bytes()); got != "stream-1" {
		t.Fatalf("bytes: %q", got)
	}
	if got := r.Varint(); got != -42 {
		t.Fatalf("varint: %d", got)
	}
	if got := r.Uvarint(); got != 7 {
		t.Fatalf("uvarint: %d", got)
	}
	if got := r.Bytes(); len(got) != 0 || r.Bad {
		t.Fatalf("empty bytes: %q bad=%v", got, r.Bad)
	}
	fixed := r.Take(3)
	if string(fixed) != "\x01\x02\x03" || len(r.B) != 0 || r.Bad {
		t.Fatalf("take: %v rest %v bad=%v", fixed, r.B, r.Bad)
	}
	if cap(fixed) != 3 {
		t.Fatalf("take's cap %d lets an append write into the input", cap(fixed))
	}

	// A length that claims more than is left marks the reader bad and reads nothing further.
	short := Reader{B: Append(nil, []byte("abcdef"))[:4]}
	if got := short.Bytes(); got != nil || !short.Bad {
		t.Fatalf("short: %q bad=%v", got, short.Bad)
	}
	if short.Uvarint() != 0 || short.Varint() != 0 || len(short.Take(1)) != 0 {
		t.Fatal("a bad reader still reads")
	}
}
