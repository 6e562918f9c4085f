package commands

import (
	"context"
	"sync/atomic"
	"time"
)

// The follower spares View most of its reads. A view's facts (a member's flags, a channel) may
// change by another process's write, so View used to read the store whenever its cached
// aggregate had caught up more than viewFresh ago: under load that was one read of the member's
// stream per deposit. The follower instead reads the log's tail for the whole process (one read
// every followEvery, of the few events since the last) and marks each cached aggregate that an
// event of its stream passed (Entry.noticed). A view then trusts a cached aggregate that no
// event passed, as long as the follower's last complete read began less than viewFresh ago:
// every write committed before then was seen. That is the bound View kept before (a write
// committed less than viewFresh ago may go unseen), and writes of this process reach their
// aggregate directly. A backend whose reads hold back events behind a transaction still in
// flight (PostgreSQL's gap-free feed) delays them by that transaction's time, as it delays every
// reader of the feed.

const (
	followEvery = viewFresh / 4 // pause between the follower's reads while views are asked for
	followIdle  = time.Second   // after this long without a view the follower waits for one
	followPage  = 1000          // events per read; a shorter page is the whole tail
)

type follower struct {
	started atomic.Int64 // UnixNano after which a caught-up aggregate is followed; 0: not running
	vouched atomic.Int64 // UnixNano: every write committed before it has been noticed
	asked   atomic.Int64 // UnixNano of the latest view
	wake    chan struct{}
}

// Follow runs the follower until ctx ends (api.Stack runs it). Without it, views read the store
// as fresh requires.
func (s *Service) Follow(ctx context.Context) error {
	after, err := s.store.Head(ctx)
	if err != nil {
		return Unavailable(err)
	}
	// Aggregates caught up from now on have read every event up to the head; later ones are
	// the follower's to notice.
	s.follow.started.Store(time.Now().UnixNano())
	defer s.follow.started.Store(0)
	pause := time.NewTimer(0)
	defer pause.Stop()
	for {
		if time.Since(time.Unix(0, s.follow.asked.Load())) > followIdle {
			select {
			case <-ctx.Done():
				return nil
			case <-s.follow.wake:
			}
		}
		t0 := time.Now()
		page, err := s.store.ReadAll(ctx, after, followPage)
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			s.log.WarnContext(ctx, "command cache follower: read the log", "after", after, "err", err)
		}
		for _, r := range page {
			if e := s.cache.peek(r.Stream); e != nil {
				e.notice(r.Version)
			}
			after = r.Position
		}
		if err == nil && len(page) < followPage {
			s.follow.vouched.Store(t0.UnixNano())
		}
		if len(page) == followPage {
			continue
		}
		pause.Reset(followEvery)
		select {
		case <-ctx.Done():
			return nil
		case <-pause.C:
		}
	}
}

// askedFor records that a view wants the follower, waking it when idle.
func (f *follower) askedFor(now time.Time) {
	f.asked.Store(now.UnixNano())
	select {
	case f.wake <- struct{}{}:
	default:
	}
}

// vouches tells whether the follower vouches, at now and within fresh, that e misses no event:
// e caught up after the follower started, no event of its stream has passed it since, and the
// follower's last complete read began less than fresh ago.
func (f *follower) vouches(e *Entry, now time.Time, fresh time.Duration) bool {
	started := f.started.Load()
	return started != 0 && e.checked.UnixNano() > started && e.noticed.Load() <= e.version &&
		now.Sub(time.Unix(0, f.vouched.Load())) < fresh
}

// notice raises the highest version of the entry's stream the follower has seen.
func (e *Entry) notice(version int64) {
	for {
		n := e.noticed.Load()
		if version <= n || e.noticed.CompareAndSwap(n, version) {
			return
		}
	}
}
