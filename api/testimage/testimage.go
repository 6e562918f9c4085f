// Package testimage makes the images that upload tests and the upload load tool (ops/uploadload)
// send: genuine PNGs of any size, bit depth and colour type whose pixels are all zero, so that
// they compress about a thousand to one. Small on the wire, large once decoded: the worst case
// an upload endpoint must price before decoding. It also makes the ordinary images those tests
// upload: small PNGs and JPEGs whose pixels differ, a lossy WebP, a PNG header claiming any size.
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
	return encode(w, h, depth, colour, seed, [][4]int{{0, 0, 1, 1}})
}

// Interlaced is PNG with Adam7 interlacing, which the decoder assembles from seven passes.
func Interlaced(w, h, depth, colour int, seed byte) []byte {
	return encode(w, h, depth, colour, seed, [][4]int{
		{0, 0, 8, 8}, {4, 0, 8, 8}, {0, 4, 4, 8}, {2, 0, 4, 4}, {0, 2, 2, 4}, {1, 0, 2, 2}, {0, 1, 1, 2},
	})
}

// encode writes the image as passes, each {x0, y0, dx, dy}: one pass of {0, 0, 1, 1} is a
// non-interlaced image.
func encode(w, h, depth, colour int, seed byte, passes [][4]int) []byte {
	channels := map[int]int{Grey: 1, RGB: 3, Paletted: 1, GreyAlpha: 2, RGBA: 4}[colour]
	var idat bytes.Buffer
	zw, _ := zlib.NewWriterLevel(&idat, zlib.BestCompression)
	for i, p := range passes {
		pw, ph := (w-p[0]+p[2]-1)/p[2], (h-p[1]+p[3]-1)/p[3]
		if pw <= 0 || ph <= 0 {
			continue
		}
		row := make([]byte, 1+(pw*channels*depth+7)/8) // filter byte 0 (none), then samples
		for y := range ph {
			row[1] = 0
			if i == 0 && y == 0 {
				row[1] = seed
			}
			_, _ = zw.Write(row)
		}
	}
	_ = zw.Close()

	var out bytes.Buffer
	out.WriteString("\x89PNG\r\n\x1a\n")
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], uint32(w))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(h))
	ihdr[8], ihdr[9] = byte(depth), byte(colour)
	if len(passes) > 1 {
		ihdr[12] = 1 // Adam7
	}
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
