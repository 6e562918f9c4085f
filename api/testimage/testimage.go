// Package testimage makes the images that upload tests and the upload load tool (ops/uploadload)
// send: genuine PNGs of any size, bit depth and colour type whose pixels are all zero, so that
// they compress about a thousand to one. Small on the wire, large once decoded: the worst case
// an upload endpoint must price before decoding.
package testimage

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"hash/crc32"
)

// Colour types of the PNG specification.
const (
	Grey      = 0
	RGB       = 2
	Paletted  = 3
	GreyAlpha = 4
	RGBA      = 6
)

// PNG is a w x h image of bit depth depth (8 or 16) and colour type colour, every pixel zero,
// non-interlaced. seed changes one pixel, so that images of the same shape differ.
func PNG(w, h, depth, colour int, seed byte) []byte {
	channels := map[int]int{Grey: 1, RGB: 3, Paletted: 1, GreyAlpha: 2, RGBA: 4}[colour]
	row := make([]byte, 1+w*channels*depth/8) // filter byte 0 (none), then samples
	var idat bytes.Buffer
	zw, _ := zlib.NewWriterLevel(&idat, zlib.BestCompression)
	for y := range h {
		row[1] = 0
		if y == 0 {
			row[1] = seed
		}
		_, _ = zw.Write(row)
	}
	_ = zw.Close()

	var out bytes.Buffer
	out.WriteString("\x89PNG\r\n\x1a\n")
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], uint32(w))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(h))
	ihdr[8], ihdr[9] = byte(depth), byte(colour)
	chunk(&out, "IHDR", ihdr)
	if colour == Paletted {
		chunk(&out, "PLTE", []byte{0, 0, 0, 255, 255, 255})
	}
	chunk(&out, "IDAT", idat.Bytes())
	chunk(&out, "IEND", nil)
	return out.Bytes()
}

func chunk(out *bytes.Buffer, typ string, data []byte) {
	var n [4]byte
	binary.BigEndian.PutUint32(n[:], uint32(len(data)))
	out.Write(n[:])
	crc := crc32.NewIEEE()
	crc.Write([]byte(typ))
	crc.Write(data)
	out.WriteString(typ)
	out.Write(data)
	binary.BigEndian.PutUint32(n[:], crc.Sum32())
	out.Write(n[:])
}
