package api

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"image/jpeg"
	"image/png"
	"io"
	"net/http"
	"os"
	"path/filepath"

	"golang.org/x/image/webp"

	"github.com/lotbook/lotbook/api/wire"
)

const (
	maxUploadBytes = 5 << 20  // the contract's limit for one image
	maxPixels      = 40 << 20 // refuses decompression bombs before decoding
	maxSide        = 16384
)

var (
	errFileTooLarge = refuse(http.StatusRequestEntityTooLarge, wire.MessageKeyFileTooLarge, nil)
	errFileTypeBad  = refuse(http.StatusUnsupportedMediaType, wire.MessageKeyFileTypeInvalid, nil)
	errFileRequired = refuse(http.StatusBadRequest, wire.MessageKeyFileRequired, nil)
	errFileNotFound = refuse(http.StatusNotFound, wire.MessageKeyFileNotFound, nil)
)

// errFileUnreadable refuses an image whose content does not decode as what its bytes claim.
func errFileUnreadable(cause error) *apiError {
	return refuse(http.StatusUnsupportedMediaType, wire.MessageKeyFileTypeInvalid, cause)
}

// imageKind is what the leading bytes say; file names and declared content types are ignored.
func imageKind(b []byte) string {
	switch {
	case bytes.HasPrefix(b, []byte{0xFF, 0xD8, 0xFF}):
		return "jpeg"
	case bytes.HasPrefix(b, []byte("\x89PNG\r\n\x1a\n")):
		return "png"
	case len(b) >= 12 && string(b[:4]) == "RIFF" && string(b[8:12]) == "WEBP":
		return "webp"
	}
	return ""
}

// cleanImage is an upload after sniffing, full decoding and re-encoding: only pixels survive
// (EXIF, GPS, comments and anything appended after the image are dropped).
type cleanImage struct {
	Bytes         []byte
	ContentType   string
	Width, Height int
}

// reencode checks raw by content and returns it re-encoded: PNG stays PNG (lossless, keeps
// transparency), JPEG and WebP become JPEG at quality 85.
func reencode(raw []byte) (cleanImage, error) {
	kind := imageKind(raw)
	if kind == "" {
		return cleanImage{}, errFileTypeBad
	}
	decodeConfig, decode := jpeg.DecodeConfig, jpeg.Decode
	switch kind {
	case "png":
		decodeConfig, decode = png.DecodeConfig, png.Decode
	case "webp":
		decodeConfig, decode = webp.DecodeConfig, webp.Decode
	}
	cfg, err := decodeConfig(bytes.NewReader(raw))
	if err != nil {
		return cleanImage{}, errFileUnreadable(fmt.Errorf("%s header: %w", kind, err))
	}
	if cfg.Width <= 0 || cfg.Height <= 0 || cfg.Width > maxSide || cfg.Height > maxSide ||
		int64(cfg.Width)*int64(cfg.Height) > maxPixels {
		return cleanImage{}, errFileUnreadable(fmt.Errorf("%s of %dx%d pixels", kind, cfg.Width, cfg.Height))
	}
	img, err := decode(bytes.NewReader(raw))
	if err != nil {
		return cleanImage{}, errFileUnreadable(fmt.Errorf("decode %s: %w", kind, err))
	}
	var out bytes.Buffer
	ct := "image/jpeg"
	if kind == "png" {
		ct = "image/png"
		err = (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(&out, img)
	} else {
		err = jpeg.Encode(&out, img, &jpeg.Options{Quality: 85})
	}
	if err != nil {
		return cleanImage{}, fmt.Errorf("re-encode %s: %w", kind, err)
	}
	b := img.Bounds()
	return cleanImage{Bytes: out.Bytes(), ContentType: ct, Width: b.Dx(), Height: b.Dy()}, nil
}

// fileStore keeps uploads by the SHA-256 of their re-encoded bytes in a directory that no
// static handler serves.
type fileStore struct{ dir string }

func validFileID(id string) bool {
	if len(id) != 64 {
		return false
	}
	_, err := hex.DecodeString(id)
	return err == nil
}

func (fs fileStore) put(b []byte) (string, error) {
	sum := sha256.Sum256(b)
	id := hex.EncodeToString(sum[:])
	final := filepath.Join(fs.dir, id)
	if _, err := os.Stat(final); err == nil {
		return id, nil // same content already stored
	}
	if err := os.MkdirAll(fs.dir, 0o750); err != nil {
		return "", fmt.Errorf("files dir: %w", err)
	}
	tmp, err := os.CreateTemp(fs.dir, ".upload-*")
	if err != nil {
		return "", fmt.Errorf("temp file: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		return "", fmt.Errorf("write %s: %w", id, err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return "", fmt.Errorf("sync %s: %w", id, err)
	}
	if err := tmp.Close(); err != nil {
		return "", fmt.Errorf("close %s: %w", id, err)
	}
	if err := os.Rename(tmp.Name(), final); err != nil {
		return "", fmt.Errorf("store %s: %w", id, err)
	}
	return id, nil
}

func (fs fileStore) open(id string) (*os.File, error) {
	if !validFileID(id) {
		return nil, errFileNotFound
	}
	f, err := os.Open(filepath.Join(fs.dir, id))
	if errors.Is(err, os.ErrNotExist) {
		return nil, errFileNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("open file %s: %w", id, err)
	}
	return f, nil
}

// sniffStored tells the content type of a stored (already re-encoded) file.
func sniffStored(f io.ReadSeeker) (string, error) {
	head := make([]byte, 16)
	n, err := io.ReadFull(f, head)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) {
		return "", fmt.Errorf("read stored file: %w", err)
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return "", fmt.Errorf("rewind stored file: %w", err)
	}
	if imageKind(head[:n]) == "png" {
		return "image/png", nil
	}
	return "image/jpeg", nil
}
