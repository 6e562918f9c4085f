package sim

import (
	"testing"
	"time"

	"github.com/lotbook/lotbook/market/candles"
	"github.com/lotbook/lotbook/market/feed"
	"github.com/lotbook/lotbook/market/instruments"
	"github.com/lotbook/lotbook/market/price"
	"github.com/lotbook/lotbook/market/rules"
	"github.com/lotbook/lotbook/market/session"
)

var tpe = taipei

func at(s string) time.Time {
	t, err := time.ParseInLocation("2006-01-02 15:04:05", s, tpe)
	if err != nil {
		panic(err)
	}
	return t
}

func newSim(t testing.TB, seed uint64, now time.Time) *Sim {
	t.Helper()
	s, err := New(instruments.MustDefault(), Config{Seed: seed}, now)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// Same seed, same market: two simulators started apart agree once at the same instant, in quotes,
// books and history; another seed gives another market.
func TestDeterminism(t *testing.T) {
	a := newSim(t, 7, at("2026-11-20 09:00:00"))
	a.Advance(at("2026-11-20 10:30:00"))
	b := newSim(t, 7, at("2026-11-20 10:30:00"))
	c := newSim(t, 8, at("2026-11-20 10:30:00"))
	same, differ := 0, 0
	for _, sym := range []string{"2330", "2317", "0050", "00679B", "1103", "5347", "TAIEX", "TPEX"} {
		sa, _ := a.Snapshot(sym)
		sb, _ := b.Snapshot(sym)
		sc, _ := c.Snapshot(sym)
		if !equalSnap(sa, sb) {
			t.Errorf("%s: live %+v\nfresh %+v", sym, sa, sb)
		} else {
			same++
		}
		if sa.Last != sc.Last || sa.Volume != sc.Volume {
			differ++
		}
		ha := a.Bars(sym, candles.Minutes, time.Time{}, 500)
		hb := b.Bars(sym, candles.Minutes, time.Time{}, 500)
		if len(ha) != len(hb) || len(ha) == 0 {
			t.Fatalf("%s: history lengths %d %d", sym, len(ha), len(hb))
		}
		for i := range ha {
			if ha[i] != hb[i] {
				t.Fatalf("%s: minute %d differs: %+v %+v", sym, i, ha[i], hb[i])
			}
		}
	}
	if differ < 6 {
		t.Errorf("another seed changed only %d of 8 symbols", differ)
	}
	t.Logf("%d symbols identical", same)
}

func equalSnap(a, b feed.Snapshot) bool {
	if a.Quote != b.Quote || len(a.Bids) != len(b.Bids) || len(a.Asks) != len(b.Asks) {
		return false
	}
	for i := range a.Bids {
		if a.Bids[i] != b.Bids[i] {
			return false
		}
	}
	for i := range a.Asks {
		if a.Asks[i] != b.Asks[i] {
			return false
		}
	}
	return true
}

// Every generated trade of every instrument over the minute window is on the tick grid, inside the
// day's band, inside a session, and the day's trades add up to the day's bar.
func TestTradesOnTickInBandInSession(t *testing.T) {
	s := newSim(t, 3, at("2026-11-20 14:00:00"))
	tab := s.tab.Load()
	cur := tab.pos(at("2026-11-20 00:00:00"))
	for i, l := range s.insts {
		for pos := cur - 4; pos <= cur; pos++ {
			dt := s.timesOf(tab, pos)
			ref, cl := tab.refClose(i, pos)
			lu, ld := rules.LimitUp(ref, l.p.kind), rules.LimitDown(ref, l.p.kind)
			d := l.p.dayBar(s.seed, tab.k(pos), ref, cl)
			var first, last feed.Quote
			var hi, lo = rules.Down(0, l.p.kind), lu + 1
			var vol int64
			n := 0
			s.dayEvents(tab, i, pos, never, func(e event) {
				if !rules.Valid(e.price, l.p.kind) || e.price > lu || e.price < ld {
					t.Fatalf("%s day %d: trade at %s outside %s..%s or off tick", l.in.Code, pos, e.price, ld, lu)
				}
				ph := s.sched.SessionAt(time.Unix(e.at, 0)).Phase
				if e.at != dt.close && ph != session.Continuous {
					t.Fatalf("%s: trade at %s in phase %s", l.in.Code, time.Unix(e.at, 0).In(tpe), ph)
				}
				if n == 0 {
					first.Last = e.price
				}
				last.Last = e.price
				hi, lo = max(hi, e.price), min(lo, e.price)
				vol += e.lots * 1000
				n++
			})
			if first.Last != d.open || last.Last != d.close || hi != d.high || lo != d.low || vol != d.lots*1000 {
				t.Fatalf("%s day %d: trades give O %s H %s L %s C %s V %d, bar %+v", l.in.Code, pos, first.Last, hi, lo, last.Last, vol, d)
			}
		}
	}
}

// Over the whole table (about twelve years of some 2,300 instruments) every close lies in its band,
// and limit-up and limit-down closes happen at a realistic rate.
func TestChainsAndLimitDays(t *testing.T) {
	s := newSim(t, 11, at("2026-11-20 14:00:00"))
	tab := s.tab.Load()
	ups, downs, days := 0, 0, 0
	c := make([]int32, len(tab.days)+1)
	for i, l := range s.insts {
		if l.in.Type != instruments.StockType {
			continue
		}
		tab.chain(i, 0, len(tab.days), c)
		for pos := range tab.days {
			ref, cl := price.Price(c[pos]), price.Price(c[pos+1])
			if !rules.InBand(cl, ref, l.p.kind) || !rules.Valid(cl, l.p.kind) {
				t.Fatalf("%s day %d: close %s outside band of %s", l.in.Code, pos, cl, ref)
			}
			if rules.LimitUp(ref, l.p.kind) == rules.LimitDown(ref, l.p.kind) {
				continue
			}
			days++
			switch cl {
			case rules.LimitUp(ref, l.p.kind):
				ups++
			case rules.LimitDown(ref, l.p.kind):
				downs++
			}
		}
	}
	perDay := float64(ups) / float64(days) * 1949
	t.Logf("%d stock-days: %d limit-up (%.1f a day across the market), %d limit-down", days, ups, perDay, downs)
	if ups == 0 || downs == 0 || perDay < 3 || perDay > 40 {
		t.Errorf("limit days: %d up, %d down over %d stock-days", ups, downs, days)
	}
}

// History is consistent: each day's reference is the previous day's close, minute bars add up to
// the daily bars, and the last daily close is the current reference.
func TestHistoryConsistency(t *testing.T) {
	s := newSim(t, 5, at("2026-11-20 08:45:00")) // pre-open: today has no trades yet
	for _, sym := range []string{"2330", "0050", "6488", "TAIEX"} {
		days := s.Bars(sym, candles.Days, time.Time{}, 1000)
		if len(days) < 700 {
			t.Fatalf("%s: %d daily bars, want three years", sym, len(days))
		}
		snap, _ := s.Snapshot(sym)
		if last := days[len(days)-1]; last.Close != snap.Ref || !last.Time.Before(snap.Day) {
			t.Errorf("%s: last daily bar %+v, today's reference %s", sym, last, snap.Ref)
		}
		mins := s.Bars(sym, candles.Minutes, time.Time{}, 5000)
		byDay := candles.Aggregate(mins, candles.Day)
		if len(byDay) != 5 {
			t.Fatalf("%s: minute history covers %d days, want 5", sym, len(byDay))
		}
		tail := days[len(days)-5:]
		for i := range byDay {
			if byDay[i] != tail[i] {
				t.Errorf("%s: minutes fold to %+v, daily bar %+v", sym, byDay[i], tail[i])
			}
		}
		if sym != "TAIEX" {
			in, _ := instruments.MustDefault().Lookup(sym)
			for i := 1; i < len(days); i++ {
				if !rules.InBand(days[i].High, days[i-1].Close, in.Kind()) || !rules.InBand(days[i].Low, days[i-1].Close, in.Kind()) {
					t.Fatalf("%s %s: range %s..%s outside band of previous close %s", sym, days[i].Time, days[i].Low, days[i].High, days[i-1].Close)
				}
			}
		}
	}
}

// Trades happen only in sessions; after the close the last close stands until the next pre-open,
// which starts the new day with the close as reference.
func TestSessionsAndRollover(t *testing.T) {
	s := newSim(t, 9, at("2026-11-20 13:00:00")) // a Friday
	var updates []feed.Update
	s.Subscribe(func(u feed.Update) { updates = append(updates, u) })
	s.Advance(at("2026-11-23 09:00:30")) // Monday
	closeAt, preOpen, open := at("2026-11-20 13:30:00"), at("2026-11-23 08:30:00"), at("2026-11-23 09:00:00")
	var friClose *feed.Update
	rolled := 0
	for i := range updates {
		u := &updates[i]
		if u.Trade {
			ph := s.sched.SessionAt(u.Time).Phase
			if ph != session.Continuous && !u.Time.Equal(closeAt) {
				t.Fatalf("trade of %s at %s in %s", u.Symbol, u.Time.In(tpe), ph)
			}
			if u.Symbol == "2330" && u.Time.Equal(closeAt) {
				friClose = u
			}
			if u.Time.After(closeAt) && u.Time.Before(open) {
				t.Fatalf("trade between sessions: %+v", u)
			}
			continue
		}
		if u.Symbol == "2330" {
			rolled++
			if friClose == nil || u.Ref != friClose.Last || u.Last != u.Ref || u.Volume != 0 || !u.Time.Equal(preOpen) {
				t.Errorf("roll %+v after close %+v", u.Quote, friClose)
			}
		}
	}
	if friClose == nil || rolled != 1 {
		t.Fatalf("close %v, rolls %d", friClose, rolled)
	}
	snap, _ := s.Snapshot("2330")
	if !snap.Traded() || snap.Open == 0 || snap.Ref != friClose.Last {
		t.Errorf("Monday 09:00:30: %+v", snap.Quote)
	}
}

func TestDemoTradesAroundTheClock(t *testing.T) {
	s, err := New(instruments.MustDefault(), Config{Seed: 1, Schedule: session.Demo()}, at("2026-11-22 03:00:00"))
	if err != nil {
		t.Fatal(err)
	}
	trades := 0
	s.Subscribe(func(u feed.Update) {
		if u.Trade {
			trades++
		}
	})
	s.Advance(at("2026-11-22 03:01:00"))
	if trades < 100 {
		t.Errorf("demo Sunday 03:00: %d trades in a minute", trades)
	}
}

// Candles built live from the feed equal the generated history of the same minutes.
func TestLiveCandlesMatchHistory(t *testing.T) {
	s := newSim(t, 13, at("2026-11-20 09:50:00"))
	store := candles.NewStore(s, candles.DefaultLimits)
	s.Subscribe(func(u feed.Update) {
		if u.Trade {
			store.Add(candles.Trade{Symbol: u.Symbol, Time: u.Time, Price: u.Last, Size: u.LastSize, Value: u.Value})
		}
	})
	s.Advance(at("2026-11-20 10:20:00"))
	for _, sym := range []string{"2330", "1103", "00878", "TAIEX", "TPEX"} {
		for _, iv := range []candles.Interval{candles.Min1, candles.Min15, candles.Day} {
			live, err := store.Query(sym, iv, time.Time{}, 100)
			if err != nil {
				t.Fatal(err)
			}
			gen := candles.Aggregate(s.Bars(sym, iv.Base(), time.Time{}, 100*iv.PerBucket()), iv)
			gen = gen[len(gen)-len(live):]
			for i := range live {
				if live[i] != gen[i] {
					t.Fatalf("%s %s candle %d: live %+v, history %+v", sym, iv, i, live[i], gen[i])
				}
			}
		}
	}
}

// The kept chain values and the walks between them give every range of a chain exactly as one
// walk over the whole table does.
func TestChainRanges(t *testing.T) {
	s := newSim(t, 5, at("2026-11-20 10:00:00"))
	tab := s.tab.Load()
	n := len(tab.days)
	for _, i := range []int{0, 1, 700, len(s.insts) - 1} {
		p := &s.params[i]
		full := make([]int32, n+1)
		full[tab.k0] = int32(p.ref0)
		for pos := tab.k0; pos < n; pos++ {
			full[pos+1] = int32(p.closeAfter(s.seed, tab.k(pos), tab.mkt[pos], price.Price(full[pos])))
		}
		for pos := tab.k0 - 1; pos >= 0; pos-- {
			full[pos] = int32(p.refBefore(s.seed, tab.k(pos), tab.mkt[pos], price.Price(full[pos+1])))
		}
		ranges := [][2]int{{0, n}, {0, 0}, {n, n}, {tab.k0, tab.k0}, {tab.k0 - 1, tab.k0}, {tab.k0 - span, tab.k0 + span}}
		r := newRNG(uint64(i))
		for range 300 {
			lo := r.intn(n + 1)
			ranges = append(ranges, [2]int{lo, lo + r.intn(min(n+1-lo, 3*span))})
		}
		for _, rg := range ranges {
			got := make([]int32, rg[1]-rg[0]+1)
			tab.chain(i, rg[0], rg[1], got)
			for j, v := range got {
				if v != full[rg[0]+j] {
					t.Fatalf("instrument %d, range %v: value %d at %d, want %d", i, rg, v, rg[0]+j, full[rg[0]+j])
				}
			}
		}
	}
}

// Near its end the table is built again further ahead, with the same past.
func TestTableExtends(t *testing.T) {
	s := newSim(t, 5, at("2026-11-20 10:00:00"))
	tab := s.tab.Load()
	pos := len(tab.days) - 2
	want, _ := tab.refClose(0, pos)
	s.mu.Lock()
	s.rollTo(pos)
	s.mu.Unlock()
	next := s.tab.Load()
	if next == tab || next.pos(tab.days[pos])+2 >= len(next.days) {
		t.Fatalf("table not extended: %d days, then %d", len(tab.days), len(next.days))
	}
	if q := s.insts[0].q; q.Ref != want || !q.Day.Equal(tab.days[pos]) {
		t.Errorf("after the extension the day is %s with reference %s, want %s and %s", q.Day, q.Ref, tab.days[pos], want)
	}
}

// Run's steps publish each instrument's trades of a second at its offset within the second, and
// the indices once the second is over; stepping leaves the same market as advancing whole seconds.
func TestStepsSpreadSecond(t *testing.T) {
	a := newSim(t, 7, at("2026-11-20 10:00:00"))
	var got []feed.Update
	a.Subscribe(func(u feed.Update) { got = append(got, u) })
	second := at("2026-11-20 10:00:01")
	slot := time.Second / phaseSlots
	slots := map[time.Duration]int{}
	for k := range phaseSlots {
		when := second.Add(time.Duration(k) * slot)
		got = got[:0]
		a.step(when)
		for _, u := range got {
			if _, ok := a.bySym[u.Symbol]; !ok || a.bySym[u.Symbol].inst < 0 {
				t.Fatalf("index %s published within the second, at %v", u.Symbol, when)
			}
			if !u.Time.Equal(second) || !a.Due(u.Symbol, u.Time).Equal(when) {
				t.Fatalf("%s of %v (due %v) published at %v", u.Symbol, u.Time, a.Due(u.Symbol, u.Time), when)
			}
			slots[time.Duration(k)*slot]++
		}
	}
	if len(slots) < phaseSlots/2 {
		t.Errorf("a second's trades fell in %d of %d slots: %v", len(slots), phaseSlots, slots)
	}
	got = got[:0]
	end := second.Add(time.Second)
	a.step(end)
	indices := 0
	for _, u := range got {
		if a.bySym[u.Symbol].idx >= 0 {
			indices++
			if !a.Due(u.Symbol, u.Time).Equal(end) {
				t.Errorf("index %s of %v due %v, published at %v", u.Symbol, u.Time, a.Due(u.Symbol, u.Time), end)
			}
		} else if !a.Due(u.Symbol, u.Time).Equal(end) {
			t.Errorf("%s of %v due %v, published at %v", u.Symbol, u.Time, a.Due(u.Symbol, u.Time), end)
		}
	}
	if indices == 0 {
		t.Error("no index settled at the second's end")
	}
	a.Advance(end)
	b := newSim(t, 7, end)
	for _, sym := range []string{"2330", "2317", "0050", "1103", "TAIEX", "TPEX"} {
		sa, _ := a.Snapshot(sym)
		sb, _ := b.Snapshot(sym)
		if !equalSnap(sa, sb) {
			t.Errorf("%s: stepped %+v\nwhole %+v", sym, sa, sb)
		}
	}
}
