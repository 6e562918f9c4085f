package projections

import (
	"context"
	"fmt"
	"hash/fnv"
	"slices"
	"strconv"
	"strings"
)

// A deployment may split the projector role over n instances (lotbook serve --role projector
// --partition i/n). Instance i applies, for every Partitioned read model, only the events whose
// stream hashes to i, under checkpoints of its own ("members#1/2"), and moves them over the
// events of the other partitions; the read models that combine streams (totals, queues, config,
// directories of names) are run whole by partition 0 under their plain checkpoint. The tables
// are shared: each partition writes the rows of its own streams only.
//
// The layout is in the checkpoints: a Partitioned read model of n > 1 has the rows name#i/n for
// every i (created together) beside its plain row, which then only keeps the schema hash. A
// reader's position of such a read model is the lowest of those rows, and 0 while one is
// missing.

// Partition is one projector instance's share of the partitioned read models: Index of Count.
// The zero value is the whole (0 of 1).
type Partition struct{ Index, Count int }

// ParsePartition reads "i/n" (0 ≤ i < n).
func ParsePartition(s string) (Partition, error) {
	is, ns, ok := strings.Cut(s, "/")
	i, ierr := strconv.Atoi(is)
	n, nerr := strconv.Atoi(ns)
	if !ok || ierr != nil || nerr != nil || n < 1 || i < 0 || i >= n {
		return Partition{}, fmt.Errorf("partition %q: want i/n with 0 <= i < n, e.g. 0/2", s)
	}
	return Partition{Index: i, Count: n}, nil
}

func (pt Partition) String() string { return fmt.Sprintf("%d/%d", pt.Index, pt.count()) }

func (pt Partition) count() int { return max(pt.Count, 1) }

// runs reports whether this partition runs p: its share of a Partitioned read model, the whole
// of any other on partition 0.
func (pt Partition) runs(p *Projector) bool { return p.Partitioned || pt.Index == 0 }

// checkpoint names p's checkpoint in this partition.
func (pt Partition) checkpoint(p *Projector) string {
	if !p.Partitioned || pt.count() == 1 {
		return p.Name
	}
	return partName(p.Name, pt.Index, pt.count())
}

func partName(name string, i, n int) string { return fmt.Sprintf("%s#%d/%d", name, i, n) }

// partOf splits a checkpoint name into its read model (or scratch copy) and partition; ok is
// false for a whole one.
func partOf(cpName string) (base string, pt Partition, ok bool) {
	at := strings.LastIndexByte(cpName, '#')
	if at < 0 {
		return cpName, Partition{}, false
	}
	pt, err := ParsePartition(cpName[at+1:])
	if err != nil {
		return cpName, Partition{}, false
	}
	return cpName[:at], pt, true
}

// streamPart is the partition of n that a stream's events belong to: FNV-1a of its member (a
// member's member- and account- streams go together, so rows keyed by the member from either
// stay in one partition), or of the stream's name.
func streamPart(stream string, n int) int {
	key := stream
	if m, err := MemberOf(stream); err == nil {
		key = m
	}
	h := fnv.New32a()
	h.Write([]byte(key))
	return int(h.Sum32() % uint32(n))
}

// Owns reports whether the events of stream are this partition's to apply (for the Partitioned
// read models).
func (pt Partition) Owns(stream string) bool { return streamPart(stream, pt.count()) == pt.Index }

// share is the part of page that the checkpoint cpName applies: the events of its partition's
// streams, or all of them for a whole checkpoint.
func share(cpName string, page []*entry) []*entry {
	_, pt, ok := partOf(cpName)
	if !ok || pt.count() == 1 {
		return page
	}
	out := make([]*entry, 0, len(page))
	for _, e := range page {
		if pt.Owns(e.Ev.Stream) {
			out = append(out, e)
		}
	}
	return out
}

// SetPartition makes the runner run partition pt (before Run). With repartition, Run resets the
// partitioned read models it finds split another way and projects them again from the log;
// without it, Run refuses to start over them.
func (r *Runner) SetPartition(pt Partition, repartition bool) {
	r.part, r.repartition = pt, repartition
	r.ps, r.cps = nil, map[*Projector]string{}
	for _, p := range projectors {
		if pt.runs(p) {
			r.ps = append(r.ps, p)
			r.cps[p] = pt.checkpoint(p)
		}
	}
}

// cp is the checkpoint under which this runner applies p.
func (r *Runner) cp(p *Projector) string { return r.cps[p] }

// own is the projectors this runner runs.
func (r *Runner) own() []*Projector { return r.ps }

// mine maps the runner's own checkpoints to their read models' names.
func (r *Runner) mine(cps map[string]int64) map[string]int64 {
	out := map[string]int64{}
	for _, p := range r.own() {
		out[p.Name] = cps[r.cp(p)]
	}
	return out
}

// layout is the checkpoint names that hold p's live position, as stored: its partitions', or
// its plain one.
func layout(cps map[string]int64, p *Projector) []string {
	var parts []string
	for name := range cps {
		if base, _, ok := partOf(name); ok && base == p.Name {
			parts = append(parts, name)
		}
	}
	if len(parts) == 0 {
		return []string{p.Name}
	}
	slices.Sort(parts)
	return parts
}

// wholePosition is the position p's tables reflect for every stream: the lowest of its
// partitions, 0 when one of them is missing.
func wholePosition(cps map[string]int64, p *Projector) int64 {
	names := layout(cps, p)
	if len(names) == 1 && names[0] == p.Name {
		return cps[p.Name]
	}
	low := int64(-1)
	for _, name := range names {
		_, pt, _ := partOf(name)
		if !complete(cps, p.Name, pt.Count) {
			return 0
		}
		if pos := cps[name]; low < 0 || pos < low {
			low = pos
		}
	}
	return low
}

// complete reports whether every partition of n of the read model name has its checkpoint.
func complete(cps map[string]int64, name string, n int) bool {
	for i := range n {
		if _, ok := cps[partName(name, i, n)]; !ok {
			return false
		}
	}
	return true
}

// wholePositions maps every read model to its wholePosition.
func wholePositions(cps map[string]int64) map[string]int64 {
	out := map[string]int64{}
	for _, p := range projectors {
		out[p.Name] = wholePosition(cps, p)
	}
	return out
}

// Partitions is the number of partitions the read database's partitioned read models are split
// in (1 when none is): what `lotbook verify` runs to bring them to the head.
func (db *ReadDB) Partitions(ctx context.Context) (int, error) {
	cps, err := db.checkpoints(ctx)
	if err != nil {
		return 0, err
	}
	n := 1
	for name := range cps {
		if _, pt, ok := partOf(name); ok {
			n = max(n, pt.Count)
		}
	}
	return n, nil
}

// claim checks, before the runner's first page, that the stored layout of every partitioned
// read model is this runner's partition count, and creates the checkpoints of all its partitions
// (together, so that readers never take the ones present for all). A read model split another
// way is taken over only while it holds nothing (every checkpoint at 0) or with repartition,
// which resets its tables: its rows were written by partitions that no longer exist.
func (r *Runner) claim(ctx context.Context) error {
	n := r.part.count()
	return r.db.writeTx(ctx, func(w *Wtx) error {
		if r.db.d.postgres {
			// Partition instances starting together claim one after the other.
			if err := w.Exec(ctx, "SELECT pg_advisory_xact_lock(7746210395)"); err != nil {
				return err
			}
		}
		cps, err := w.checkpoints(ctx)
		if err != nil {
			return err
		}
		voided := false
		for _, p := range projectors {
			if !p.Partitioned {
				continue
			}
			want := []string{p.Name}
			if n > 1 {
				want = want[:0]
				for i := range n {
					want = append(want, partName(p.Name, i, n))
				}
			}
			have := layout(cps, p)
			if slices.Equal(have, want) {
				continue
			}
			if allZero(cps, have) {
				// Nothing projected yet: no rows to keep.
			} else if !r.repartition {
				return fmt.Errorf("read model %s is projected by %d partition(s) (checkpoints %s), and this instance is partition %s: "+
					"start every projector instance with the same --partition count, or once with --repartition to project the partitioned read models again from the log",
					p.Name, len(have), strings.Join(have, ", "), r.part)
			} else {
				r.logger.Warn("repartition: read model reset, projected again from the log", "projector", p.Name, "from", len(have), "to", n)
				if err := r.db.createTables(ctx, w, p, "", true); err != nil {
					return err
				}
			}
			for _, name := range have {
				if name != p.Name {
					if err := deleteCheckpoint(ctx, w, name); err != nil {
						return err
					}
				}
			}
			for _, name := range append(want, p.Name) {
				if err := setCheckpoint(ctx, w, name, p.schemaHash(), 0); err != nil {
					return err
				}
			}
			voided = true
		}
		if voided {
			// Progress published by partitions of the old count no longer holds.
			return w.Exec(ctx, sqlVoidProgress)
		}
		return nil
	})
}

func allZero(cps map[string]int64, names []string) bool {
	for _, n := range names {
		if cps[n] != 0 {
			return false
		}
	}
	return true
}

// checkpoints reads every checkpoint inside the transaction.
func (w *Wtx) checkpoints(ctx context.Context) (map[string]int64, error) {
	out := map[string]int64{}
	err := w.Query(ctx, "SELECT name, position FROM projection_checkpoints", nil, scanCheckpoint(out))
	if err != nil {
		return nil, fmt.Errorf("read checkpoints: %w", err)
	}
	return out, nil
}

// progress is the published position of every partition (Publish), as read by Watch.
type progress map[Partition]int64

// low is the position every running partition has published, 0 while a partition of a count
// present has published nothing: a missing instance must not make reads think they caught up.
func (pr progress) low() int64 {
	low := int64(-1)
	for pt, pos := range pr {
		for i := range pt.count() {
			if _, ok := pr[Partition{Index: i, Count: pt.count()}]; !ok {
				return 0
			}
		}
		if low < 0 || pos < low {
			low = pos
		}
	}
	return max(low, 0)
}
