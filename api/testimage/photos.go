package testimage

import (
	"bytes"
	_ "embed"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
)

// gradient is a w x h image whose pixels differ, as a photo's do.
func gradient(w, h int) image.Image {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.Set(x, y, color.RGBA{uint8(x), uint8(y), 128, 255})
		}
	}
	return img
}

// GradientPNG is a w x h PNG whose pixels differ: images of other sizes are other files.
func GradientPNG(w, h int) []byte {
	var b bytes.Buffer
	if err := png.Encode(&b, gradient(w, h)); err != nil {
		panic("testimage: " + err.Error()) // a bytes.Buffer takes every write
	}
	return b.Bytes()
}

// GradientJPEG is GradientPNG's image as a baseline 4:2:0 JPEG.
func GradientJPEG(w, h int) []byte {
	var b bytes.Buffer
	if err := jpeg.Encode(&b, gradient(w, h), nil); err != nil {
		panic("testimage: " + err.Error())
	}
	return b.Bytes()
}

//go:embed proof.webp
var proofWebP []byte

// WebP is a small lossy WebP from golang.org/x/image's test data.
func WebP() []byte { return bytes.Clone(proofWebP) }

// PNGClaiming is a PNG signature and IHDR that claim w x h pixels, with no pixel data.
func PNGClaiming(w, h int) []byte {
	out := GradientPNG(1, 1)
	// IHDR's width and height live at bytes 16..23, its CRC (over type and data) at 29..32.
	binary.BigEndian.PutUint32(out[16:], uint32(w))
	binary.BigEndian.PutUint32(out[20:], uint32(h))
	binary.BigEndian.PutUint32(out[29:], crc32.ChecksumIEEE(out[12:29]))
	return out
}
