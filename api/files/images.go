package files

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"image"
	"image/jpeg"
	"image/png"
	"io"
	"net/http"
	"os"
	"path/filepath"

	"golang.org/x/image/webp"

	"github.com/lotbook/lotbook/api/httpx"
	"github.com/lotbook/lotbook/api/wire"
)

const (
	maxUploadBytes = 5 << 20  // the contract's limit for one image
	maxPixels      = 40 << 20 // refuses decompression bombs before decoding
	maxSide        = 16384
)

// MaxDecodes decodes run at once (the server's Gate); with maxDecodeWork each, uploads hold at
// most a few hundred MB whatever arrives.
const MaxDecodes = 2

var (
	errFileTooLarge = httpx.Refuse(http.StatusRequestEntityTooLarge, wire.MessageKeyFileTooLarge, nil)
	errFileTypeBad  = httpx.Refuse(http.StatusUnsupportedMediaType, wire.MessageKeyFileTypeInvalid, nil)
	errFileRequired = httpx.Refuse(http.StatusBadRequest, wire.MessageKeyFileRequired, nil)
	errFileNotFound = httpx.Refuse(http.StatusNotFound, wire.MessageKeyFileNotFound, nil)
)

// errImageTooLarge refuses an image whose header says it is too costly to decode.
func errImageTooLarge(cause error) *httpx.Error {
	return httpx.Refuse(http.StatusUnprocessableEntity, wire.MessageKeyImageTooLarge, cause)
}

// errFileUnreadable refuses an image whose content does not decode as what its bytes claim.
func errFileUnreadable(cause error) *httpx.Error {
	return httpx.Refuse(http.StatusUnsupportedMediaType, wire.MessageKeyFileTypeInvalid, cause)
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

// codecs are the decoders of the kinds imageKind tells.
var codecs = map[string]struct {
	decodeConfig func(io.Reader) (image.Config, error)
	decode       func(io.Reader) (image.Image, error)
}{
	"jpeg": {jpeg.DecodeConfig, jpeg.Decode},
	"png":  {png.DecodeConfig, png.Decode},
	"webp": {webp.DecodeConfig, webp.Decode},
}

// cleanImage is what re-encoding wrote: only pixels survive (EXIF, GPS, comments and anything
// appended after the image are dropped).
type cleanImage struct {
	ContentType   string
	Width, Height int
}

// checkImage sniffs raw and reads its header: the image must be of a kind we decode, of sane
// dimensions, and cheap enough to decode (see decodeCost). Nothing is decoded here.
func checkImage(raw []byte) (string, decodeCost, error) {
	kind := imageKind(raw)
	if kind == "" {
		return "", decodeCost{}, errFileTypeBad
	}
	cfg, err := codecs[kind].decodeConfig(bytes.NewReader(raw))
	if err != nil {
		return "", decodeCost{}, errFileUnreadable(fmt.Errorf("%s header: %w", kind, err))
	}
	if cfg.Width <= 0 || cfg.Height <= 0 {
		return "", decodeCost{}, errFileUnreadable(fmt.Errorf("%s of %dx%d pixels", kind, cfg.Width, cfg.Height))
	}
	cost, err := costOf(kind, raw)
	if err != nil {
		return "", decodeCost{}, errFileUnreadable(err)
	}
	if cfg.Width > maxSide || cfg.Height > maxSide || int64(cfg.Width)*int64(cfg.Height) > maxPixels ||
		cost.pixels > maxDecodedBytes || cost.work > maxDecodeWork {
		return "", decodeCost{}, errImageTooLarge(
			fmt.Errorf("%s of %dx%d pixels decodes to %d bytes (%d with the decoder's)", kind, cfg.Width, cfg.Height, cost.pixels, cost.work))
	}
	return kind, cost, nil
}

// reencode decodes raw (checked by checkImage as kind) and writes it re-encoded to w: PNG stays
// PNG (lossless, keeps transparency), JPEG and WebP become JPEG at quality 85.
func reencode(kind string, raw []byte, w io.Writer) (cleanImage, error) {
	img, err := codecs[kind].decode(bytes.NewReader(raw))
	if err != nil {
		return cleanImage{}, errFileUnreadable(fmt.Errorf("decode %s: %w", kind, err))
	}
	ct := "image/jpeg"
	if kind == "png" {
		ct = "image/png"
		err = (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(w, img)
	} else {
		err = jpeg.Encode(w, img, &jpeg.Options{Quality: 85})
	}
	if err != nil {
		return cleanImage{}, fmt.Errorf("re-encode %s: %w", kind, err)
	}
	b := img.Bounds()
	return cleanImage{ContentType: ct, Width: b.Dx(), Height: b.Dy()}, nil
}

// Gate lets at most a few decodes run at once server-wide: each holds up to
// maxDecodeWork bytes, so the gate is what bounds the memory uploads can take.
type Gate chan struct{}

// collectBefore is the decode cost from which a decode first collects the garbage of earlier
// ones. Decoded images are large and die right after encoding; left to the pacer, several of
// them pile up between collections (the heap reached 2.5 times its live size under 16 uploads
// at once), and the process's peak memory with them.
const collectBefore = 16 << 20

// NewGate lets n decodes run at once.
func NewGate(n int) Gate { return make(Gate, n) }

// Enter waits for a slot until ctx ends (the client gave up or timed out).
func (g Gate) Enter(ctx context.Context) (leave func(), err error) {
	select {
	case g <- struct{}{}:
		return func() { <-g }, nil
	case <-ctx.Done():
		return nil, httpx.Refuse(http.StatusServiceUnavailable, wire.MessageKeySystemBusy,
			fmt.Errorf("wait for a decode slot: %w", ctx.Err()))
	}
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

// stagedFile is a file being written into the store: a temporary file, hashed as it is
// written, that only commit moves under its id. Encoders write straight into it, so a large
// image is never held in memory twice.
type stagedFile struct {
	dir  string
	tmp  *os.File
	hash hash.Hash
	size int64
}

func (fs fileStore) stage() (*stagedFile, error) {
	if err := os.MkdirAll(fs.dir, 0o750); err != nil {
		return nil, fmt.Errorf("files dir: %w", err)
	}
	tmp, err := os.CreateTemp(fs.dir, ".upload-*")
	if err != nil {
		return nil, fmt.Errorf("temp file: %w", err)
	}
	return &stagedFile{dir: fs.dir, tmp: tmp, hash: sha256.New()}, nil
}

func (f *stagedFile) Write(p []byte) (int, error) {
	n, err := f.tmp.Write(p)
	f.hash.Write(p[:n])
	f.size += int64(n)
	return n, err
}

// id is the content hash of what was written so far.
func (f *stagedFile) id() string { return hex.EncodeToString(f.hash.Sum(nil)) }

// commit makes the file durable under its id (content already stored under it stays).
func (f *stagedFile) commit() (string, error) {
	defer f.discard()
	id := f.id()
	final := filepath.Join(f.dir, id)
	if _, err := os.Stat(final); err == nil {
		return id, nil
	}
	if err := f.tmp.Sync(); err != nil {
		return "", fmt.Errorf("sync %s: %w", id, err)
	}
	if err := f.tmp.Close(); err != nil {
		return "", fmt.Errorf("close %s: %w", id, err)
	}
	if err := os.Rename(f.tmp.Name(), final); err != nil {
		return "", fmt.Errorf("store %s: %w", id, err)
	}
	return id, nil
}

// discard drops the temporary file (after commit, only its name is gone already).
func (f *stagedFile) discard() {
	_ = f.tmp.Close()
	_ = os.Remove(f.tmp.Name())
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
