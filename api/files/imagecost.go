package files

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
)

// The memory a decode may take. A few KB of compressed PNG can claim 16-bit RGBA at 40
// megapixels (320 MB decoded), so uploads are priced from their headers before decoding.
const (
	maxDecodedBytes = 64 << 20                // the decoded image itself
	maxDecodeWork   = maxDecodedBytes * 3 / 2 // the image plus the decoder's working memory
)

// decodeCost is what decoding an image of this kind will allocate, read from its header only:
// pixels are the bytes of the decoded image, work adds the decoder's own buffers (interlace
// passes, progressive JPEG coefficients, WebP alpha planes). The figures follow what the Go
// decoders allocate, rounded up.
type decodeCost struct {
	pixels, work int64
}

var errHeader = errors.New("image header unreadable")

// costOf prices raw (already sniffed as kind) from its header.
func costOf(kind string, raw []byte) (decodeCost, error) {
	switch kind {
	case "png":
		return pngCost(raw)
	case "jpeg":
		return jpegCost(raw)
	case "webp":
		return webpCost(raw)
	}
	return decodeCost{}, fmt.Errorf("%w: kind %q", errHeader, kind)
}

// pngCost reads IHDR (size, bit depth, colour type, interlace) and looks for tRNS before the
// first IDAT, which turns grey and truecolour images into NRGBA.
func pngCost(raw []byte) (decodeCost, error) {
	if len(raw) < 33 || string(raw[12:16]) != "IHDR" {
		return decodeCost{}, fmt.Errorf("%w: png without IHDR", errHeader)
	}
	w := int64(binary.BigEndian.Uint32(raw[16:20]))
	h := int64(binary.BigEndian.Uint32(raw[20:24]))
	depth, colour, interlaced := raw[24], raw[25], raw[28] == 1
	transparent := pngHasTRNS(raw[33:])
	var bpp int64 // bytes per pixel of the image.Image the decoder returns
	switch colour {
	case 0: // grey: Gray or Gray16, NRGBA or NRGBA64 with tRNS
		bpp = 1
		if transparent {
			bpp = 4
		}
	case 2, 4, 6: // truecolour, grey with alpha, truecolour with alpha: RGBA or NRGBA
		bpp = 4
	case 3: // paletted
		bpp = 1
	default:
		return decodeCost{}, fmt.Errorf("%w: png colour type %d", errHeader, colour)
	}
	if depth == 16 {
		bpp *= 2
	}
	pixels := w * h * bpp
	work := pixels
	if interlaced {
		work += pixels // the seven passes are decoded into images of their own, then merged
	}
	return decodeCost{pixels: pixels, work: work}, nil
}

// pngHasTRNS walks the chunks after IHDR up to the first IDAT.
func pngHasTRNS(chunks []byte) bool {
	for len(chunks) >= 8 {
		n := int64(binary.BigEndian.Uint32(chunks[:4]))
		switch string(chunks[4:8]) {
		case "tRNS":
			return true
		case "IDAT":
			return false
		}
		next := 12 + n // length, type, data, CRC
		if next > int64(len(chunks)) {
			return false
		}
		chunks = chunks[next:]
	}
	return false
}

// jpegCost reads the frame header (SOF0, SOF1 or SOF2, the ones image/jpeg decodes): per
// component its sampling factors give the blocks the decoder allocates, 64 bytes of pixels
// each, plus 256 bytes of coefficients each when the JPEG is progressive. Four components
// (CMYK, YCCK) are converted into a further 4 bytes per pixel.
func jpegCost(raw []byte) (decodeCost, error) {
	sof, marker, err := jpegFrame(raw)
	if err != nil {
		return decodeCost{}, err
	}
	if len(sof) < 6 {
		return decodeCost{}, fmt.Errorf("%w: short jpeg frame", errHeader)
	}
	h := int64(binary.BigEndian.Uint16(sof[1:3]))
	w := int64(binary.BigEndian.Uint16(sof[3:5]))
	n := int(sof[5])
	if n != 1 && n != 3 && n != 4 || len(sof) < 6+3*n {
		return decodeCost{}, fmt.Errorf("%w: jpeg with %d components", errHeader, n)
	}
	hmax, vmax := int64(1), int64(1)
	for i := range n {
		s := sof[7+3*i]
		hmax, vmax = max(hmax, int64(s>>4)), max(vmax, int64(s&0x0f))
	}
	mcuX, mcuY := ceilDiv(w, 8*hmax), ceilDiv(h, 8*vmax)
	var blocks int64
	for i := range n {
		s := sof[7+3*i]
		blocks += mcuX * mcuY * int64(s>>4) * int64(s&0x0f)
	}
	pixels := blocks * 64
	if n == 4 {
		pixels += mcuX * 8 * hmax * mcuY * 8 * vmax * 4
	}
	work := pixels
	if marker == 0xC2 {
		work += blocks * 256
	}
	return decodeCost{pixels: pixels, work: work}, nil
}

// jpegFrame finds the frame header segment and its marker.
func jpegFrame(raw []byte) ([]byte, byte, error) {
	i := 2 // after SOI
	for i+4 <= len(raw) {
		if raw[i] != 0xFF {
			return nil, 0, fmt.Errorf("%w: jpeg marker expected at %d", errHeader, i)
		}
		m := raw[i+1]
		if m == 0xFF { // fill byte
			i++
			continue
		}
		if m == 0xD8 || m >= 0xD0 && m <= 0xD7 || m == 0x01 { // no length
			i += 2
			continue
		}
		n := int(binary.BigEndian.Uint16(raw[i+2 : i+4]))
		if n < 2 || i+2+n > len(raw) {
			break
		}
		seg := raw[i+4 : i+2+n]
		switch m {
		case 0xC0, 0xC1, 0xC2:
			return seg, m, nil
		case 0xDA, 0xD9:
			return nil, 0, fmt.Errorf("%w: jpeg scan before frame", errHeader)
		}
		if m >= 0xC3 && m <= 0xCF && m != 0xC4 && m != 0xC8 && m != 0xCC {
			return nil, 0, fmt.Errorf("%w: unsupported jpeg frame %#x", errHeader, m)
		}
		i += 2 + n
	}
	return nil, 0, fmt.Errorf("%w: jpeg without frame", errHeader)
}

// webpCost reads the first chunk: lossy VP8 decodes to 4:2:0 YCbCr (1.5 bytes per pixel,
// priced at 2 for macroblock padding); lossless VP8L to NRGBA plus its transforms' buffers;
// an extended file with alpha adds the alpha plane, decoded through a full NRGBA image.
func webpCost(raw []byte) (decodeCost, error) {
	if len(raw) < 30 {
		return decodeCost{}, fmt.Errorf("%w: short webp", errHeader)
	}
	var w, h, bpp, work int64
	switch chunk := raw[12:16]; {
	case bytes.Equal(chunk, []byte("VP8 ")):
		w = int64(binary.LittleEndian.Uint16(raw[26:28]) & 0x3fff)
		h = int64(binary.LittleEndian.Uint16(raw[28:30]) & 0x3fff)
		bpp, work = 2, 2
	case bytes.Equal(chunk, []byte("VP8L")):
		bits := binary.LittleEndian.Uint32(raw[21:25])
		w, h = int64(bits&0x3fff)+1, int64(bits>>14&0x3fff)+1
		bpp, work = 4, 8
	case bytes.Equal(chunk, []byte("VP8X")):
		flags := raw[20]
		w = int64(uint32(raw[24])|uint32(raw[25])<<8|uint32(raw[26])<<16) + 1
		h = int64(uint32(raw[27])|uint32(raw[28])<<8|uint32(raw[29])<<16) + 1
		bpp, work = 4, 8 // the image chunk may be lossless
		if flags&0x10 != 0 {
			bpp, work = 4, 12 // alpha: NYCbCrA or NRGBA, and the alpha plane's NRGBA
		}
	default:
		return decodeCost{}, fmt.Errorf("%w: webp chunk %q", errHeader, chunk)
	}
	return decodeCost{pixels: w * h * bpp, work: w * h * work}, nil
}

func ceilDiv(a, b int64) int64 { return (a + b - 1) / b }
