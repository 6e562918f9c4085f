package projections

import (
	"context"
	"fmt"
	"sort"
	"strings"
)

// Table name suffixes of the fresh copies that Rebuild and Compare build from the log.
const (
	rebuildSuffix = "_rebuild"
	compareSuffix = "_cmp_"
)

// rebuildPage is the number of events per transaction when building a read model from the log:
// large pages let a projector fold many events per row before writing.
const rebuildPage = 20000

// Rebuild builds the read model name into fresh tables from position 0 while the live tables
// keep serving, then swaps them in within one transaction and lets the live projector continue
// after the rebuilt position. progress, when not nil, gets (events done, events in the log).
// It works whether or not this process runs the projector: the swap locks the live checkpoint in
// the database, so a server applying pages in another process waits for it. Rebuilds of one
// Runner run one at a time; two processes must not rebuild the same read model at once.
func (r *Runner) Rebuild(ctx context.Context, name string, progress func(done, total int64)) error {
	p, err := projectorByName(name)
	if err != nil {
		return err
	}
	r.rebuildMu.Lock()
	defer r.rebuildMu.Unlock()
	const suffix = rebuildSuffix
	cpName := name + suffix
	if err := r.scratch(ctx, p, suffix, cpName); err != nil {
		return fmt.Errorf("rebuild %s: %w", name, err)
	}
	total, err := r.store.Head(ctx)
	if err != nil {
		return fmt.Errorf("rebuild %s: %w", name, err)
	}
	report := func(done int64) {
		if progress != nil {
			total = max(total, done)
			progress(done, total)
		}
	}
	done, err := r.build(ctx, p, suffix, cpName, 0, 0, report)
	if err != nil {
		return fmt.Errorf("rebuild %s: %w", name, err)
	}
	err = r.db.writeTx(ctx, func(w *Wtx) error {
		for _, t := range p.Tables {
			for _, ix := range r.db.d.createIndexes(t, suffix, randomTag()) {
				if err := w.Exec(ctx, ix); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("rebuild %s: index: %w", name, err)
	}
	var live []string
	err = r.db.writeTx(ctx, func(w *Wtx) error {
		var until int64
		if live, until, err = lockLive(ctx, w, p); err != nil {
			return err
		}
		w.suffix = suffix
		if done, err = r.catchUpInTx(ctx, w, p, cpName, until); err != nil {
			return err
		}
		w.suffix = ""
		for _, t := range p.Tables {
			if err := w.Exec(ctx, "DROP TABLE "+t.Name); err != nil {
				return err
			}
			if err := w.Exec(ctx, "ALTER TABLE "+t.Name+suffix+" RENAME TO "+t.Name); err != nil {
				return err
			}
		}
		// Every partition goes on from the rebuilt position: the tables it wrote are gone.
		for _, cp := range live {
			if err := setCheckpoint(ctx, w, cp, p.schemaHash(), done); err != nil {
				return err
			}
		}
		return deleteCheckpoint(ctx, w, cpName)
	})
	if err != nil {
		return fmt.Errorf("rebuild %s: swap: %w", name, err)
	}
	for _, cp := range live {
		r.advance(cp, done)
	}
	report(done)
	r.logger.Info("read model rebuilt and swapped in", "projector", name, "position", done)
	return nil
}

// build applies the log after from (up to until, or to the head when until is 0) to the
// projector's tables under suffix, one transaction per page. Three stages overlap: reading the
// next page from the store, decoding the page after the one being applied, and applying.
// It returns the position reached.
func (r *Runner) build(ctx context.Context, p *Projector, suffix, cpName string, from, until int64, report func(int64)) (int64, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type result struct {
		page []*entry
		err  error
	}
	read := make(chan result, 1)
	go func() {
		defer close(read)
		at := from
		for until == 0 || at < until {
			limit := rebuildPage
			if until > 0 {
				limit = int(min(int64(limit), until-at))
			}
			page, err := r.store.ReadAll(ctx, at, limit)
			if err != nil || len(page) == 0 {
				if err != nil {
					read <- result{err: err}
				}
				return
			}
			select {
			case read <- result{page: wrap(page)}:
			case <-ctx.Done():
				return
			}
			at = page[len(page)-1].Position
		}
	}()
	pages := make(chan result, 1)
	go func() {
		defer close(pages)
		for res := range read {
			if res.err == nil {
				// Decodes into the entries; a decoding error surfaces again when the page is applied.
				_, _ = p.selectEvents(res.page)
			}
			select {
			case pages <- res:
			case <-ctx.Done():
				return
			}
		}
	}()
	at := from
	for res := range pages {
		if res.err != nil {
			return at, fmt.Errorf("read log after %d: %w", at, res.err)
		}
		err := r.db.writeTx(ctx, func(w *Wtx) error {
			w.suffix = suffix
			var err error
			at, err = p.applyPage(ctx, w, cpName, res.page)
			return err
		})
		if err != nil {
			return at, err
		}
		if report != nil {
			report(at)
		}
	}
	return at, nil
}

// catchUpInTx applies the log from the checkpoint cpName up to until inside w's transaction
// (which holds the live checkpoint's lock). It returns the position reached (at least until).
func (r *Runner) catchUpInTx(ctx context.Context, w *Wtx, p *Projector, cpName string, until int64) (int64, error) {
	at, err := lockCheckpoint(ctx, w, cpName)
	if err != nil {
		return 0, err
	}
	for at < until {
		page, err := r.store.ReadAll(ctx, at, int(min(int64(rebuildPage), until-at)))
		if err != nil {
			return 0, fmt.Errorf("read log after %d: %w", at, err)
		}
		if len(page) == 0 {
			return 0, fmt.Errorf("log ends at %d, before the live checkpoint %d", at, until)
		}
		if at, err = p.applyPage(ctx, w, cpName, wrap(page)); err != nil {
			return 0, err
		}
	}
	return at, nil
}

// scratch creates p's tables with suffix, empty, and their checkpoint cpName at the log's start:
// where a rebuild or a comparison replays the log.
func (r *Runner) scratch(ctx context.Context, p *Projector, suffix, cpName string) error {
	return r.db.writeTx(ctx, func(w *Wtx) error {
		if err := r.db.createTables(ctx, w, p, suffix, false); err != nil {
			return err
		}
		return setCheckpoint(ctx, w, cpName, p.schemaHash(), 0)
	})
}

// lockLive locks the live checkpoints of p (its partitions', or its own) and returns their names
// and the highest of their positions.
func lockLive(ctx context.Context, w *Wtx, p *Projector) ([]string, int64, error) {
	cps, err := w.checkpoints(ctx)
	if err != nil {
		return nil, 0, err
	}
	live := layout(cps, p)
	var high int64
	for _, cp := range live {
		pos, err := lockCheckpoint(ctx, w, cp)
		if err != nil {
			return nil, 0, err
		}
		high = max(high, pos)
	}
	return live, high, nil
}

// maxDiffs bounds the differences Compare lists.
const maxDiffs = 100

// Compare replays the log into scratch tables up to the live checkpoint of the read model name
// and returns the rows that differ from the live tables (empty when they are equal).
func (r *Runner) Compare(ctx context.Context, name string) ([]string, error) {
	p, err := projectorByName(name)
	if err != nil {
		return nil, err
	}
	suffix := compareSuffix + randomTag()
	cpName := name + suffix
	if err := r.scratch(ctx, p, suffix, cpName); err != nil {
		return nil, fmt.Errorf("compare %s: %w", name, err)
	}
	defer func() {
		err := r.db.writeTx(context.WithoutCancel(ctx), func(w *Wtx) error {
			if err := r.db.dropTables(ctx, w, p, suffix); err != nil {
				return err
			}
			return deleteCheckpoint(ctx, w, cpName)
		})
		if err != nil {
			r.logger.Error("compare: drop scratch tables", "projector", name, "err", err)
		}
	}()
	cps, err := r.db.checkpoints(ctx)
	if err != nil {
		return nil, err
	}
	if _, err := r.build(ctx, p, suffix, cpName, 0, wholePosition(cps, p), nil); err != nil {
		return nil, fmt.Errorf("compare %s: %w", name, err)
	}
	var diffs []string
	// The last stretch and the comparison run under the live checkpoints' locks, so that both
	// sides stand at the same position. The partitions of a partitioned read model may stand
	// at different ones: those behind are first brought to the furthest, here, as their runners
	// would, so that the whole read model compares with one replay of the whole log.
	err = r.db.writeTx(ctx, func(w *Wtx) error {
		live, until, err := lockLive(ctx, w, p)
		if err != nil {
			return err
		}
		for _, cp := range live {
			if _, err := r.catchUpInTx(ctx, w, p, cp, until); err != nil {
				return err
			}
		}
		w.suffix = suffix
		if _, err := r.catchUpInTx(ctx, w, p, cpName, until); err != nil {
			return err
		}
		for _, t := range p.Tables {
			d, err := diffTable(ctx, w, t, suffix)
			if err != nil {
				return err
			}
			diffs = append(diffs, d...)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("compare %s: %w", name, err)
	}
	if len(diffs) > maxDiffs {
		diffs = append(diffs[:maxDiffs], fmt.Sprintf("... and %d more differences", len(diffs)-maxDiffs))
	}
	return diffs, nil
}

// diffTable compares every row of the live table with its replayed copy under suffix.
func diffTable(ctx context.Context, w *Wtx, t *Table, suffix string) ([]string, error) {
	cols := t.colNames()
	keyIdx := make([]int, len(t.Key))
	for i, k := range t.Key {
		for j, c := range cols {
			if c == k {
				keyIdx[i] = j
			}
		}
	}
	keyOf := func(row []string) string {
		parts := make([]string, len(keyIdx))
		for i, j := range keyIdx {
			parts[i] = cols[j] + "=" + row[j]
		}
		return strings.Join(parts, " ")
	}
	load := func(name string, each func(row []string)) error {
		if err := w.Query(ctx, "SELECT "+strings.Join(cols, ", ")+" FROM "+name, nil, textRow(len(cols), each)); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		return nil
	}
	replay := map[string][]string{}
	if err := load(t.Name+suffix, func(row []string) { replay[keyOf(row)] = row }); err != nil {
		return nil, err
	}
	var diffs []string
	err := load(t.Name, func(row []string) {
		key := keyOf(row)
		want, ok := replay[key]
		if !ok {
			diffs = append(diffs, fmt.Sprintf("%s [%s]: in the read model, not in the replay", t.Name, key))
			return
		}
		delete(replay, key)
		var cells []string
		for i := range cols {
			if row[i] != want[i] {
				cells = append(cells, fmt.Sprintf("%s read model %q, replay %q", cols[i], row[i], want[i]))
			}
		}
		if len(cells) > 0 {
			diffs = append(diffs, fmt.Sprintf("%s [%s]: %s", t.Name, key, strings.Join(cells, "; ")))
		}
	})
	if err != nil {
		return nil, err
	}
	for key := range replay {
		diffs = append(diffs, fmt.Sprintf("%s [%s]: in the replay, missing from the read model", t.Name, key))
	}
	sort.Strings(diffs)
	return diffs, nil
}

// textRow scans a row of n columns as text and hands it to each.
func textRow(n int, each func(row []string)) func(Rows) error {
	return func(rows Rows) error {
		row := make([]string, n)
		ptrs := make([]any, n)
		for i := range row {
			ptrs[i] = &row[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return fmt.Errorf("scan: %w", err)
		}
		each(row)
		return nil
	}
}
