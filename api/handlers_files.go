package api

import (
	"context"
	"errors"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"runtime"
	"strconv"
	"time"

	"github.com/gorilla/mux"

	"github.com/lotbook/lotbook/api/httpx"
	"github.com/lotbook/lotbook/api/wire"
	"github.com/lotbook/lotbook/events"
)

// multipartSlack is room for the multipart framing around a file of maxUploadBytes.
const multipartSlack = 64 << 10

// upload takes one image in the multipart field "file", checks it by content, re-encodes it,
// stores it by the hash of the clean bytes and records it as the caller's. Memory is bounded
// by the upload limit per request, the header's price of a decode and the decode gate; disk by
// the member's quota, checked before the file enters the store and decided again when recorded.
func (s *server) upload(c *httpx.Call) (httpx.Reply, error) {
	raw, err := readUpload(c.W, c.R)
	if err != nil {
		return httpx.Reply{}, err
	}
	// The key binds to the file's content, not to the multipart framing (a retry may use
	// another boundary).
	if s.bind(c, raw) {
		return httpx.Reply{Written: true}, nil
	}
	if err := s.limit(c, func() (bool, time.Duration) { return s.uploadMember.allow(c.Sess.MemberID) }); err != nil {
		return httpx.Reply{}, httpx.Refuse(http.StatusTooManyRequests, wire.MessageKeyUploadRateLimited, err)
	}
	kind, cost, err := checkImage(raw)
	if err != nil {
		return httpx.Reply{}, err
	}
	f, err := s.files.stage()
	if err != nil {
		return httpx.Reply{}, err
	}
	defer f.discard()
	img, err := s.reencodeGated(c.Ctx(), kind, cost, raw, f)
	if err != nil {
		return httpx.Reply{}, err
	}
	rec := events.FileUploaded{FileID: f.id(), ContentType: img.ContentType, Size: f.size, Width: img.Width, Height: img.Height}
	if err := s.cmd.CheckUpload(c.Ctx(), c.Sess.MemberID, rec); err != nil {
		return httpx.Reply{}, err
	}
	if _, err := f.commit(); err != nil {
		return httpx.Reply{}, err
	}
	if _, err := s.cmd.RecordUpload(c.Ctx(), c.Meta(), c.Sess.MemberID, rec); err != nil {
		return httpx.Reply{}, err
	}
	return httpx.OK(wire.FileRef{Id: rec.FileID})
}

// reencodeGated decodes and re-encodes inside the decode gate: the decoded image is garbage
// once the encoder has written it out. A large decode first collects the images of earlier
// ones (see collectBefore); it costs this upload a few milliseconds, once per large decode.
func (s *server) reencodeGated(ctx context.Context, kind string, cost decodeCost, raw []byte, w io.Writer) (cleanImage, error) {
	leave, err := s.decodes.enter(ctx)
	if err != nil {
		return cleanImage{}, err
	}
	defer leave()
	if cost.work >= collectBefore {
		runtime.GC()
	}
	return reencode(kind, raw, w)
}

// readUpload reads the "file" part, refusing bodies over the limit before buffering them.
func readUpload(w http.ResponseWriter, r *http.Request) ([]byte, error) {
	r.Body = http.MaxBytesReader(w, r.Body, maxUploadBytes+multipartSlack)
	mr, err := r.MultipartReader()
	if err != nil {
		return nil, httpx.InvalidRequest(fmt.Errorf("multipart: %w", err))
	}
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			return nil, errFileRequired
		}
		if err != nil {
			return nil, uploadReadError(err)
		}
		if part.FormName() != "file" {
			part.Close()
			continue
		}
		return readPart(part)
	}
}

func readPart(part *multipart.Part) ([]byte, error) {
	defer part.Close()
	raw, err := io.ReadAll(io.LimitReader(part, maxUploadBytes+1))
	if err != nil {
		return nil, uploadReadError(err)
	}
	if len(raw) > maxUploadBytes {
		return nil, errFileTooLarge
	}
	if len(raw) == 0 {
		return nil, errFileRequired
	}
	return raw, nil
}

func uploadReadError(err error) error {
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		return errFileTooLarge
	}
	return httpx.InvalidRequest(fmt.Errorf("read upload: %w", err))
}

// file serves an upload to its owner and to ops, never cached by shared caches.
func (s *server) file(c *httpx.Call) (httpx.Reply, error) {
	id := mux.Vars(c.R)["id"]
	if !validFileID(id) {
		return httpx.Reply{}, errFileNotFound
	}
	if c.Sess.Role != events.RoleOps {
		owned, err := s.fileOwned(c, id)
		if err != nil {
			return httpx.Reply{}, err
		}
		if !owned {
			// Same answer whether it exists or belongs to someone else: ids do not leak.
			return httpx.Reply{}, errFileNotFound
		}
	}
	f, err := s.files.open(id)
	if err != nil {
		return httpx.Reply{}, err
	}
	defer f.Close()
	ct, err := sniffStored(f)
	if err != nil {
		return httpx.Reply{}, err
	}
	st, err := f.Stat()
	if err != nil {
		return httpx.Reply{}, fmt.Errorf("stat file: %w", err)
	}
	h := c.W.Header()
	h.Set("Content-Type", ct)
	h.Set("Content-Length", strconv.FormatInt(st.Size(), 10))
	h.Set("Cache-Control", "private, no-store")
	h.Set("Content-Security-Policy", "default-src 'none'; sandbox")
	h.Set("Content-Disposition", "inline")
	c.W.WriteHeader(http.StatusOK)
	if c.R.Method != http.MethodHead {
		_, _ = io.Copy(c.W, f)
	}
	return httpx.Reply{Written: true}, nil
}

// fileOwned asks the read model, looking once more after catching up: the upload may be a
// moment old.
func (s *server) fileOwned(c *httpx.Call, id string) (bool, error) {
	for try := 0; ; try++ {
		owned, err := s.read.FileOwnedBy(c.Ctx(), id, c.Sess.MemberID)
		if err != nil && !httpx.IsNotFound(err) {
			return false, fmt.Errorf("file owner: %w", err)
		}
		if owned || try == 1 {
			return owned, nil
		}
		s.catchUpHead(c.Ctx())
	}
}
