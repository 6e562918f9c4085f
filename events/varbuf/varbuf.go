// Package varbuf is the length-prefixed binary framing lotbook's own encodings share: the
// pipeline's pages of events and the aggregates' snapshots.
package varbuf

import "encoding/binary"

// Append appends s to b with its length before it.
func Append(b, s []byte) []byte {
	return append(binary.AppendUvarint(b, uint64(len(s))), s...)
}

// Reader reads what Append and binary.AppendUvarint/AppendVarint wrote. Once the input ends
// early Bad is true, B is empty and every further read returns zero.
type Reader struct {
	B   []byte
	Bad bool
}

func (r *Reader) fail() {
	r.Bad, r.B = true, nil
}

// Uvarint reads an unsigned varint.
func (r *Reader) Uvarint() uint64 {
	v, n := binary.Uvarint(r.B)
	if n <= 0 {
		r.fail()
		return 0
	}
	r.B = r.B[n:]
	return v
}

// Varint reads a signed varint.
func (r *Reader) Varint() int64 {
	v, n := binary.Varint(r.B)
	if n <= 0 {
		r.fail()
		return 0
	}
	r.B = r.B[n:]
	return v
}

// Take reads the next n bytes, capped so that appending to them never writes into the input.
func (r *Reader) Take(n uint64) []byte {
	if n > uint64(len(r.B)) {
		r.fail()
		return nil
	}
	out := r.B[:n:n]
	r.B = r.B[n:]
	return out
}

// Bytes reads what Append appended.
func (r *Reader) Bytes() []byte {
	n := r.Uvarint()
	if r.Bad {
		return nil
	}
	return r.Take(n)
}
