package projections

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// A page that several units of projectors want goes into one read-model transaction with one
// commit instead of one per unit. In the live case every unit that keeps up is handed the same
// events, each by its own subscription: the first unit to apply a page leads a group, applies the
// page to every other unit that is in step with it (inStep), and takes in the units whose pages
// come while the group is still open (waiting for the write connection, or applying). A unit
// whose page another unit's group applied finds it done (Runner.done) and acks it without a
// transaction. Every projector still moves its own checkpoint in the transaction that writes its
// rows (Projector.applyPage, which also drops what a checkpoint already covers, so a page applied
// twice changes nothing). When anything in a group fails, the transaction is rolled back and each
// unit applies its page in a transaction of its own, so that a failing unit fails alone while the
// others go on; a unit whose page failed applies its pages alone, and no group takes it in, until
// one of them succeeds.
type grouper struct {
	mu   sync.Mutex
	open []*group // groups that still take units
}

// group is one transaction's units besides its leader's: those that joined it.
type group struct {
	events  int         // events of the pages in the group: at most maxPage, as one unit's page
	waiting []*groupJob // joined, to be applied by the leader
}

// groupJob is a unit's page to apply in another unit's group: done is closed once the leader has
// committed it (ok) or given up on the group (the unit then applies its page alone).
type groupJob struct {
	u    *unit
	page []*entry
	pos  []int64
	ok   bool
	done chan struct{}
}

// join adds the page of u to an open group with room for it and returns the job, or opens a new
// group that the caller leads and returns it.
func (gs *grouper) join(u *unit, page []*entry) (*group, *groupJob) {
	gs.mu.Lock()
	defer gs.mu.Unlock()
	for _, g := range gs.open {
		if g.events+len(page) <= maxPage {
			j := &groupJob{u: u, page: page, done: make(chan struct{})}
			g.waiting = append(g.waiting, j)
			g.events += len(page)
			return nil, j
		}
	}
	g := &group{events: len(page)}
	gs.open = append(gs.open, g)
	return g, nil
}

// drain takes every unit that joined g so far; when none has, g takes no more and it returns nil.
func (gs *grouper) drain(g *group) []*groupJob {
	gs.mu.Lock()
	defer gs.mu.Unlock()
	if js := g.waiting; len(js) > 0 {
		g.waiting = nil
		return js
	}
	gs.closeLocked(g)
	return nil
}

// finish closes g and answers every unit in it: applied when committed, else alone.
func (gs *grouper) finish(g *group, applied []*groupJob, committed bool) {
	gs.mu.Lock()
	gs.closeLocked(g)
	rest := g.waiting
	g.waiting = nil
	gs.mu.Unlock()
	for _, j := range applied {
		j.ok = committed
		close(j.done)
	}
	for _, j := range rest {
		close(j.done)
	}
}

func (gs *grouper) closeLocked(g *group) {
	for i, o := range gs.open {
		if o == g {
			gs.open = append(gs.open[:i], gs.open[i+1:]...)
			return
		}
	}
}

// apply applies page to every projector of u, in a group's transaction unless alone (u's last
// page failed), and returns their new checkpoints.
func (r *Runner) apply(ctx context.Context, u *unit, page []*entry, alone bool) ([]int64, error) {
	if alone {
		return r.applyAlone(ctx, u, page)
	}
	g, j := r.groups.join(u, page)
	if j != nil {
		<-j.done
		if j.ok {
			return j.pos, nil
		}
		return r.applyAlone(ctx, u, page)
	}
	var pos []int64
	var along, joined []*groupJob // units in step, units that joined
	finished := false
	defer func() {
		if !finished { // a panic of this unit's own page: the others go alone
			r.groups.finish(g, joined, false)
		}
	}()
	err := r.db.writeTx(ctx, func(w *Wtx) error {
		// The checkpoints of the units in step are locked with this unit's, and those of the
		// units that joined meanwhile together: on PostgreSQL one round trip for each set instead
		// of one per unit (most units that join only move their checkpoint over a page with
		// nothing for them).
		jobs := []*groupJob{{u: u, page: page}}
		for _, o := range r.inStep(u, page) {
			jobs = append(jobs, &groupJob{u: o, page: page})
		}
		along = jobs[1:]
		cps, err := r.lockJobs(ctx, w, jobs)
		if err != nil {
			return err
		}
		if pos, err = r.applyLocked(ctx, w, u, cps[0], page); err != nil {
			return err
		}
		for i, j := range along {
			if j.pos, err = r.applyJoined(ctx, w, j, cps[i+1]); err != nil {
				return err
			}
		}
		for js := r.groups.drain(g); js != nil; js = r.groups.drain(g) {
			joined = append(joined, js...)
			if cps, err = r.lockJobs(ctx, w, js); err != nil {
				return err
			}
			for i, j := range js {
				if j.pos, err = r.applyJoined(ctx, w, j, cps[i]); err != nil {
					return err
				}
			}
		}
		return nil
	})
	finished = true
	r.groups.finish(g, joined, err == nil)
	if err != nil && len(along)+len(joined) > 0 {
		// The failure may be another unit's: this one's page goes alone like theirs.
		return r.applyAlone(ctx, u, page)
	}
	if err == nil {
		now := time.Now()
		for _, j := range along {
			r.appliedUnit(j.u, j.pos, now)
		}
	}
	return pos, err
}

func (r *Runner) applyAlone(ctx context.Context, u *unit, page []*entry) ([]int64, error) {
	var pos []int64
	err := r.db.writeTx(ctx, func(w *Wtx) error {
		var err error
		pos, err = r.applyUnit(ctx, w, u, page)
		return err
	})
	return pos, err
}

// applyUnit applies page to every projector of u in w and returns their new checkpoints.
func (r *Runner) applyUnit(ctx context.Context, w *Wtx, u *unit, page []*entry) ([]int64, error) {
	cps, err := r.lockJobs(ctx, w, []*groupJob{{u: u, page: page}})
	if err != nil {
		return nil, err
	}
	return r.applyLocked(ctx, w, u, cps[0], page)
}

// lockJobs locks the checkpoints of the units of jobs, in order (on PostgreSQL in one round trip),
// and returns each job's. A checkpoint may come once: a second application of its read model in
// the same set would have read it before the first moved it, so a repeat fails the group (each
// unit then applies its page alone).
func (r *Runner) lockJobs(ctx context.Context, w *Wtx, jobs []*groupJob) ([][]int64, error) {
	var names []string
	seen := map[string]bool{}
	for _, j := range jobs {
		for _, p := range j.u.ps {
			name := r.cp(p)
			if seen[name] {
				return nil, fmt.Errorf("checkpoint %s twice in one group", name)
			}
			seen[name] = true
			names = append(names, name)
		}
	}
	cps, err := lockCheckpoints(ctx, w, names)
	if err != nil {
		return nil, err
	}
	out := make([][]int64, len(jobs))
	for i, j := range jobs {
		out[i], cps = cps[:len(j.u.ps)], cps[len(j.u.ps):]
	}
	return out, nil
}

// applyLocked applies page to every projector of u, whose checkpoints are locked at cps, and
// returns their new checkpoints.
func (r *Runner) applyLocked(ctx context.Context, w *Wtx, u *unit, cps []int64, page []*entry) ([]int64, error) {
	pos := make([]int64, len(u.ps))
	for i, p := range u.ps {
		var err error
		if pos[i], err = p.applyAbove(ctx, w, r.cp(p), cps[i], page); err != nil {
			return nil, err
		}
	}
	return pos, nil
}

// applyJoined applies another unit's page in a group, its panic failing the group (the unit then
// panics alone, under its own handler's recoverer) rather than the leader's handler.
func (r *Runner) applyJoined(ctx context.Context, w *Wtx, j *groupJob, cps []int64) (pos []int64, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("unit %s panicked: %v", j.u.Name, p)
		}
	}()
	return r.applyLocked(ctx, w, j.u, cps, j.page)
}

// inStep is the units besides u that want events of page and have seen every event before it,
// not all of it, and are not applying a page nor failed their last: the page is theirs to apply
// next (were their handler to apply it at the same time, applyPage makes that harmless).
func (r *Runner) inStep(u *unit, page []*entry) []*unit {
	first, last := page[0].Ev.Position, page[len(page)-1].Ev.Position
	var out []*unit
	for _, o := range r.units {
		if o.Name == u.Name || !r.reached(o, first-1, last) {
			continue
		}
		for _, p := range o.ps {
			if evs, err := p.selectEvents(share(r.cp(p), page)); err != nil || len(evs) > 0 {
				out = append(out, o) // an event that does not decode fails the group: o then fails alone
				break
			}
		}
	}
	return out
}

// reached reports whether every projector of o is at or past from in memory and one is before
// last, and o is not marked (applying a page, or its last page failed). A projector's position in memory is where it has applied
// the log or found nothing it wants up to, so the page's events are all it lacks.
func (r *Runner) reached(o *unit, from, last int64) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.marked[o.Name] {
		return false
	}
	low := int64(-1)
	for _, p := range o.ps {
		if pos := r.pos[r.cp(p)]; low < 0 || pos < low {
			low = pos
		}
	}
	return low >= from && low < last
}

// done reports whether another unit's group has applied every event of a page ending at last
// to every projector of u.
func (r *Runner) done(u *unit, last int64) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, p := range u.ps {
		if r.saved[r.cp(p)].pos < last {
			return false
		}
	}
	return true
}

// appliedUnit records the checkpoints a committed page moved u's projectors to.
func (r *Runner) appliedUnit(u *unit, pos []int64, now time.Time) {
	for i, p := range u.ps {
		r.stalled.WithLabelValues(p.Name).Set(0)
		r.mu.Lock()
		if cp := r.cp(p); pos[i] > r.saved[cp].pos {
			r.saved[cp] = saved{pos: pos[i], at: now}
		}
		r.mu.Unlock()
		r.advance(r.cp(p), pos[i])
	}
}

// mark marks whether u's handler is applying a page or its last page failed, and returns the
// mark it had: a marked unit is no group's in step (inStep), and one that finds itself marked
// applies its page alone.
func (r *Runner) mark(u *unit, marked bool) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	was := r.marked[u.Name]
	r.marked[u.Name] = marked
	return was
}
