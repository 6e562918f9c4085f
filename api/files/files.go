// Package files is the uploads' HTTP side: a member's images (identity photos, deposit proofs),
// checked by content, re-encoded and stored by the hash of the clean bytes, and served to their
// owner and to ops.
package files

import (
	"context"
	"errors"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"path/filepath"
	"runtime"
	"strconv"
	"time"

	"github.com/lotbook/lotbook/api/httpx"
	"github.com/lotbook/lotbook/api/wire"
	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/projections"
)

// Commands are the write side's operations this module sends (*commands.Service).
type Commands interface {
	CheckUpload(ctx context.Context, memberID string, f events.FileUploaded) error
	RecordUpload(ctx context.Context, meta commands.Meta, memberID string, f events.FileUploaded) (commands.Result, error)
}

// Module serves the file routes.
type Module struct {
	cmd       Commands
	read      *projections.ReadDB
	files     fileStore
	decodes   Gate
	perMember *httpx.Limiter // uploads per member
}

// New is the files module over the command service, the read models (who owns a file), the
// data directory (uploads live in dataDir/files), the server-wide decode gate and the limiter of
// uploads per member.
func New(cmd Commands, read *projections.ReadDB, dataDir string, decodes Gate, perMember *httpx.Limiter) *Module {
	return &Module{cmd: cmd, read: read, files: fileStore{dir: filepath.Join(dataDir, "files")}, decodes: decodes, perMember: perMember}
}

// Routes are the file operations of openapi.yaml.
func (m *Module) Routes() []httpx.Route {
	return []httpx.Route{
		httpx.Op(httpx.AnyUser, "POST", "/api/vue/files", httpx.IdemOwnBody, m.upload),
		httpx.Op(httpx.AnyUser, "GET", "/api/vue/files/{id}", httpx.IdemNone, m.file),
	}
}

// multipartSlack is room for the multipart framing around a file of maxUploadBytes.
const multipartSlack = 64 << 10

// upload takes one image in the multipart field "file", checks it by content, re-encodes it,
// stores it by the hash of the clean bytes and records it as the caller's. Memory is bounded
// by the upload limit per request, the header's price of a decode and the decode gate; disk by
// the member's quota, checked before the file enters the store and decided again when recorded.
func (m *Module) upload(c *httpx.Call) (httpx.Reply, error) {
	raw, err := readUpload(c.W, c.R)
	if err != nil {
		return httpx.Reply{}, err
	}
	// The key binds to the file's content, not to the multipart framing (a retry may use
	// another boundary).
	if c.Bind(raw) {
		return httpx.Reply{Written: true}, nil
	}
	if err := httpx.Limit(c, func() (bool, time.Duration) { return m.perMember.Allow(c.Sess.MemberID) }); err != nil {
		return httpx.Reply{}, httpx.Refuse(http.StatusTooManyRequests, wire.MessageKeyUploadRateLimited, err)
	}
	kind, cost, err := checkImage(raw)
	if err != nil {
		return httpx.Reply{}, err
	}
	f, err := m.files.stage()
	if err != nil {
		return httpx.Reply{}, err
	}
	defer f.discard()
	img, err := m.reencodeGated(c.Ctx(), kind, cost, raw, f)
	if err != nil {
		return httpx.Reply{}, err
	}
	rec := events.FileUploaded{FileID: f.id(), ContentType: img.ContentType, Size: f.size, Width: img.Width, Height: img.Height}
	if err := m.cmd.CheckUpload(c.Ctx(), c.Sess.MemberID, rec); err != nil {
		return httpx.Reply{}, err
	}
	if _, err := f.commit(); err != nil {
		return httpx.Reply{}, err
	}
	if _, err := m.cmd.RecordUpload(c.Ctx(), c.Meta(), c.Sess.MemberID, rec); err != nil {
		return httpx.Reply{}, err
	}
	return httpx.OK(wire.FileRef{Id: rec.FileID})
}

// reencodeGated decodes and re-encodes inside the decode gate: the decoded image is garbage
// once the encoder has written it out. A large decode first collects the images of earlier
// ones (see collectBefore); it costs this upload a few milliseconds, once per large decode.
func (m *Module) reencodeGated(ctx context.Context, kind string, cost decodeCost, raw []byte, w io.Writer) (cleanImage, error) {
	leave, err := m.decodes.Enter(ctx)
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

// file serves an upload to its owner, to a member a capability shows it to, and to ops, never cached by shared caches.
func (m *Module) file(c *httpx.Call) (httpx.Reply, error) {
	id := c.Var("id")
	if !validFileID(id) {
		return httpx.Reply{}, errFileNotFound
	}
	if c.Sess.Role != events.RoleOps {
		owned, err := m.fileOwned(c, id)
		if err != nil {
			return httpx.Reply{}, err
		}
		if !owned {
			// Same answer whether it exists or belongs to someone else: ids do not leak.
			return httpx.Reply{}, errFileNotFound
		}
	}
	f, err := m.files.open(id)
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

// fileOwned asks the read model whether the caller uploaded the file or a capability shows it
// to them (an image in their chat), looking once more after catching up: the upload may be a
// moment old.
func (m *Module) fileOwned(c *httpx.Call, id string) (bool, error) {
	for try := 0; ; try++ {
		owned, err := m.read.FileVisibleTo(c.Ctx(), id, c.Sess.MemberID)
		if err != nil && !httpx.IsNotFound(err) {
			return false, fmt.Errorf("file owner: %w", err)
		}
		if owned || try == 1 {
			return owned, nil
		}
		c.CatchUpHead()
	}
}
