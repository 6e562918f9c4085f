package commands

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/events/varbuf"
)

// Aggregate snapshots: a stream's aggregate, encoded with the records its replay answers from, is
// stored beside the log (events.SnapshotStore) when the stream grew by snapshotEvery events since
// the last one, off the command path; a load that misses the cache restores it and reads only the
// events after it. Snapshots are a cache: a missing, unreadable or foreign-schema one is ignored
// and the stream is replayed whole, as a stream whose aggregate cannot be encoded always is.

// SnapshotPart is a part (or a composed aggregate's own fields) that can encode its state. A part
// opts in by implementing it, through an exported mirror of its fields; an aggregate is snapshot
// only if every one of its parts does. SnapshotVersion names the encoding: change it whenever
// MarshalSnapshot's output changes, and the snapshots written before are ignored.
type SnapshotPart interface {
	SnapshotVersion() int
	MarshalSnapshot() ([]byte, error)
	UnmarshalSnapshot([]byte) error
}

const (
	// snapshotEvery is how many events a stream grows by between two of its snapshots.
	snapshotEvery = 200
	// snapshotFormat is the version of the envelope below (parts and records), in every schema.
	snapshotFormat = 1
	// snapshotQueue bounds the snapshots waiting for the writer; past it, offers are dropped
	// (the stream offers again snapshotEvery events later).
	snapshotQueue = 256
	// snapshotTimeout bounds one snapshot's wait for its stream and its write.
	snapshotTimeout = 10 * time.Second
)

// A snapshot's state is its pieces' encodings (a JSON array, in layout order, after its length
// as a uvarint), then what each command wrote to the stream (Entry.seen), so that a retry older
// than the snapshot is answered with its own events exactly as after a replay. The records are
// binary, their count first, then each: its event count, position, command id and binding, for
// a state that keeps copies (snapshotter) the record's copy, then each event's type and data
// (strings as a uvarint length and the bytes). A member's thousand records would cost more
// to parse as JSON than the replay they save, and their events are decoded only when a retry
// asks for them (Record.decodeRestored).

// restoredEvent is an event of a record restored from a snapshot, not decoded yet.
type restoredEvent struct {
	typ  string
	data []byte
}

// snapshotLayout is st's encodable pieces with their names: a composed aggregate's own fields then
// its registered parts (member, account), or st itself for an aggregate that is not composed. ok
// is false when some piece cannot be encoded.
func snapshotLayout(st State) (names []string, pieces []SnapshotPart, ok bool) {
	all, named := []any{st}, []string{"self"}
	switch a := st.(type) {
	case *Member:
		all, named = composedPieces((*memberShell)(a), a.parts), append([]string{memberParts.shell}, memberParts.names...)
	case *Account:
		all, named = composedPieces((*accountShell)(a), a.parts), append([]string{accountParts.shell}, accountParts.names...)
	}
	pieces = make([]SnapshotPart, len(all))
	for i, p := range all {
		if pieces[i], ok = p.(SnapshotPart); !ok {
			return nil, nil, false
		}
	}
	return named, pieces, true
}

// composedPieces is a composed aggregate's shell followed by its parts.
func composedPieces(shell any, parts []State) []any {
	all := make([]any, 0, 1+len(parts))
	all = append(all, shell)
	for _, p := range parts {
		all = append(all, p)
	}
	return all
}

// snapshotSchema names the encoding of an aggregate laid out as names and pieces: the envelope's
// version and every piece's name and SnapshotVersion, hashed.
func snapshotSchema(names []string, pieces []SnapshotPart) string {
	var b strings.Builder
	b.WriteString(strconv.Itoa(snapshotFormat))
	for i, p := range pieces {
		fmt.Fprintf(&b, ";%s/%d", names[i], p.SnapshotVersion())
	}
	sum := sha256.Sum256([]byte(b.String()))
	return names[0] + "-" + hex.EncodeToString(sum[:8])
}

// encodeSnapshot is e's snapshot, its state appended to buf; ok is false when its aggregate cannot
// be encoded. Under e.mu.
func encodeSnapshot(e *Entry, buf []byte) (snap events.Snapshot, ok bool, err error) {
	names, pieces, ok := snapshotLayout(e.st)
	if !ok {
		return events.Snapshot{}, false, nil
	}
	parts := make([]json.RawMessage, len(pieces))
	for i, p := range pieces {
		if parts[i], err = p.MarshalSnapshot(); err != nil {
			return events.Snapshot{}, false, fmt.Errorf("snapshot %s part %s: %w", e.stream, names[i], err)
		}
	}
	head, err := json.Marshal(parts)
	if err != nil {
		return events.Snapshot{}, false, fmt.Errorf("snapshot %s: %w", e.stream, err)
	}
	state := varbuf.Append(buf, head)
	ids := slices.SortedFunc(maps.Keys(e.seen), func(a, b string) int {
		return cmp.Or(cmp.Compare(e.seen[a].Position, e.seen[b].Position), strings.Compare(a, b))
	})
	state = binary.AppendUvarint(state, uint64(len(ids)))
	sn, copies := e.st.(snapshotter)
	for _, id := range ids {
		rec, err := e.seen[id].encoded(sn, copies)
		if err != nil {
			return events.Snapshot{}, false, fmt.Errorf("snapshot %s record %s: %w", e.stream, id, err)
		}
		// Kept encoded, as a restore would leave it: the stream's next snapshot copies its bytes
		// instead of encoding every event of the stream again (which made a busy account's
		// snapshots cost more the longer its day grew), and only a retry decodes it.
		e.seen[id] = rec
		state = binary.AppendUvarint(state, uint64(len(rec.restored)))
		state = varbuf.Append(varbuf.Append(binary.AppendVarint(state, rec.Position), []byte(id)), []byte(rec.binding))
		if copies {
			state = varbuf.Append(state, rec.restoredCopy)
		}
		for _, ev := range rec.restored {
			state = varbuf.Append(varbuf.Append(state, []byte(ev.typ)), ev.data)
		}
	}
	return events.Snapshot{Stream: e.stream, Version: e.version, Position: e.position,
		Schema: snapshotSchema(names, pieces), State: state}, true, nil
}

// restoreSnapshot puts snap into e, a fresh entry of its stream (version 0, its new state). ok is
// false when the snapshot is not of the aggregate's current schema. On an error e's state may be
// half restored: the caller starts it over.
func restoreSnapshot(e *Entry, snap events.Snapshot) (ok bool, err error) {
	names, pieces, ok := snapshotLayout(e.st)
	if !ok || snap.Schema != snapshotSchema(names, pieces) {
		return false, nil
	}
	r := varbuf.Reader{B: snap.State}
	var parts []json.RawMessage
	if err := json.Unmarshal(r.Bytes(), &parts); err != nil || r.Bad {
		return false, fmt.Errorf("restore %s: parts: %v", e.stream, cmp.Or(err, errBadSnapshot))
	}
	if len(parts) != len(pieces) {
		return false, fmt.Errorf("restore %s: %d parts for %d", e.stream, len(parts), len(pieces))
	}
	for i, p := range pieces {
		if err := p.UnmarshalSnapshot(parts[i]); err != nil {
			return false, fmt.Errorf("restore %s part %s: %w", e.stream, names[i], err)
		}
	}
	_, copies := e.st.(snapshotter)
	for count := r.Uvarint(); count > 0 && !r.Bad; count-- {
		n := r.Uvarint()
		rec := &Record{Position: r.Varint()}
		id := string(r.Bytes())
		rec.binding = string(r.Bytes())
		if copies {
			rec.restoredCopy = r.Bytes()
		}
		rec.restored = make([]restoredEvent, 0, min(n, uint64(len(r.B))))
		for i := uint64(0); i < n && !r.Bad; i++ {
			rec.restored = append(rec.restored, restoredEvent{typ: string(r.Bytes()), data: r.Bytes()})
		}
		e.seen[id] = rec
	}
	if r.Bad || len(r.B) > 0 {
		return false, fmt.Errorf("restore %s: records: %w", e.stream, errBadSnapshot)
	}
	e.version, e.position, e.snapped = snap.Version, snap.Position, snap.Version
	return true, nil
}

var errBadSnapshot = errors.New("truncated or malformed")

// encoded is r with every event and its copy (when the state keeps copies) in their snapshot
// encoding, as restoreSnapshot makes them: r itself when it has nothing decoded, else a new
// record, so that a caller still reading r (the answer of the command that wrote it) sees it
// unchanged.
func (r *Record) encoded(sn snapshotter, copies bool) (*Record, error) {
	if len(r.Payloads) == 0 && (!copies || r.restoredCopy != nil) {
		return r, nil
	}
	out := &Record{Position: r.Position, binding: r.binding, restoredCopy: r.restoredCopy,
		restored: make([]restoredEvent, 0, len(r.restored)+len(r.Payloads))}
	if copies && out.restoredCopy == nil {
		out.restoredCopy = sn.appendCopy(nil, r.Snapshot)
	}
	out.restored = append(out.restored, r.restored...) // as restored, still undecoded: they come first
	for _, p := range r.Payloads {
		typ, data, err := events.Encode(p)
		if err != nil {
			return nil, err
		}
		out.restored = append(out.restored, restoredEvent{typ: typ, data: data})
	}
	return out, nil
}

// decodeRestored decodes the events of a record restored from a snapshot, before any the stream
// added to it since, and its copy of st (a snapshotter) unless the stream replaced it since.
func (r *Record) decodeRestored(st State) error {
	if r.restoredCopy != nil {
		c, err := st.(snapshotter).parseCopy(r.restoredCopy)
		if err != nil {
			return fmt.Errorf("restored record's copy: %w", err)
		}
		r.Snapshot, r.restoredCopy = c, nil
	}
	if r.restored == nil {
		return nil
	}
	ps := make([]events.Payload, len(r.restored), len(r.restored)+len(r.Payloads))
	for i, ev := range r.restored {
		p, err := events.Decode(ev.typ, ev.data)
		if err != nil {
			return fmt.Errorf("restored record: %w", err)
		}
		ps[i] = p
	}
	r.Payloads, r.restored = append(ps, r.Payloads...), nil
	return nil
}

// snapshots is the service's side of the snapshot store: the store, when it keeps snapshots, and
// the queue of entries due one, drained by a writer goroutine that runs while there is work.
type snapshots struct {
	store   events.SnapshotStore // nil: the store keeps none
	queue   chan *Entry
	running atomic.Bool
	// buf is the state of the snapshot written last, taken by the next write to encode into:
	// an account's state is hundreds of kilobytes, and grown anew for every snapshot it was a
	// tenth of the server's allocated bytes under load.
	buf atomic.Pointer[[]byte]
}

func newSnapshots(store events.Store) snapshots {
	ss, _ := store.(events.SnapshotStore)
	return snapshots{store: ss, queue: make(chan *Entry, snapshotQueue)}
}

// loadSnapshot restores e, an entry about to catch up for the first time, from its stored
// snapshot if there is a usable one. Anything wrong with it only costs the replay it would save.
func (s *Service) loadSnapshot(ctx context.Context, e *Entry) {
	if s.snaps.store == nil || e.version != 0 || !e.checked.IsZero() {
		return
	}
	if _, _, ok := snapshotLayout(e.st); !ok {
		return
	}
	snap, found, err := s.snaps.store.LoadSnapshot(ctx, e.stream)
	if err != nil || !found {
		return // the replay reads the store and reports it, if it is down
	}
	if ok, err := restoreSnapshot(e, snap); err != nil || !ok {
		if err != nil {
			s.log.WarnContext(ctx, "snapshot ignored", "stream", e.stream, "err", err)
		}
		e.reset()
		return
	}
	s.cache.weigh(e, e.version)
}

// offerSnapshot hands e, just caught up under e.mu, to the writer when its stream grew by
// snapshotEvery events since its last snapshot. It never waits: with the queue full the offer is
// dropped.
func (s *Service) offerSnapshot(e *Entry) {
	if s.snaps.store == nil || e.version-e.snapped < snapshotEvery {
		return
	}
	if _, _, ok := snapshotLayout(e.st); !ok {
		return
	}
	e.snapped = e.version // a failed write is tried again snapshotEvery events later
	select {
	case s.snaps.queue <- e:
	default:
		return
	}
	if s.snaps.running.CompareAndSwap(false, true) {
		go s.writeSnapshots()
	}
}

// writeSnapshots writes the queued snapshots, and ends when the queue is empty.
func (s *Service) writeSnapshots() {
	for {
		select {
		case e := <-s.snaps.queue:
			if err := s.writeSnapshot(e); err != nil {
				s.log.Warn("snapshot not written", "stream", e.stream, "err", err)
			}
		default:
			s.snaps.running.Store(false)
			// An offer between the empty queue and the flag found the writer still running.
			if len(s.snaps.queue) == 0 || !s.snaps.running.CompareAndSwap(false, true) {
				return
			}
		}
	}
}

// writeSnapshot encodes e as it is now, under its lock, and stores it.
func (s *Service) writeSnapshot(e *Entry) error {
	ctx, cancel := context.WithTimeout(context.Background(), snapshotTimeout)
	defer cancel()
	if err := e.mu.Lock(ctx); err != nil {
		return fmt.Errorf("wait for %s: %w", e.stream, err)
	}
	var buf []byte
	if b := s.snaps.buf.Swap(nil); b != nil {
		buf = (*b)[:0]
	}
	snap, ok, err := encodeSnapshot(e, buf)
	e.mu.Unlock()
	if err != nil || !ok || snap.Version == 0 {
		return err
	}
	err = s.snaps.store.SaveSnapshot(ctx, snap)
	s.snaps.buf.Store(&snap.State) // the store kept none of it
	return err
}
