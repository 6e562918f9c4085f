package sim

import (
	"runtime"
	"sort"
	"sync"
	"time"

	"github.com/lotbook/lotbook/market/price"
	"github.com/lotbook/lotbook/market/session"
)

// span is the distance between the chain values a table keeps. Each chain is a recurrence (a
// day's close follows from its reference, the previous close), so any value is recomputed from
// the kept one before it in at most span-1 steps of about 60 ns, while twelve years of some 2,300
// chains shrink from 25 MB to 0.8 MB.
const span = 32

// table is the immutable calendar of simulated trading days with every instrument's chain of
// references and closes, kept every span days. It is replaced, never changed, so history queries
// read it without locks.
type table struct {
	seed uint64
	ps   []params
	days []time.Time // trading-day starts (00:00 Asia/Taipei), ascending
	k0   int         // position of day 0 (the epoch)
	mkt  []float64   // the market factor of each day

	// The chain c of instrument i has len(days)+1 values: c[pos] is the reference of day pos and
	// c[pos+1] its close. c[k0] is the instrument's reference price; days after it follow forward,
	// days before it backward. keep[i*stride+j] is c[k0+(j-below)*span] (int32 hundredths reach
	// NT$21 million).
	keep   []int32
	stride int
	below  int // kept values before k0
	// back walks instrument i's chain before k0 when first needed: only history asks for those
	// days, and walking them is most of a start-up's work while the epoch is recent.
	back []sync.Once
}

// k is the model's day number of position pos.
func (t *table) k(pos int) int { return pos - t.k0 }

// refClose are instrument i's reference and close on day pos.
func (t *table) refClose(i, pos int) (ref, close price.Price) {
	var c [2]int32
	t.chain(i, pos, pos+1, c[:])
	return price.Price(c[0]), price.Price(c[1])
}

// chain fills dst with instrument i's chain values c[lo..hi] (len(dst) == hi-lo+1), walking from
// the nearest kept values.
func (t *table) chain(i, lo, hi int, dst []int32) {
	p := &t.ps[i]
	kept := t.keep[i*t.stride : (i+1)*t.stride]
	if lo < t.k0 {
		t.back[i].Do(func() { t.walkBack(i) })
		// Backward from the kept value at or after min(hi, k0-1).
		top := min(hi, t.k0-1)
		a := (t.k0 - top) / span
		v := kept[t.below-a]
		for q := t.k0 - a*span; ; q-- {
			if q <= top {
				dst[q-lo] = v
			}
			if q == lo {
				break
			}
			v = int32(p.refBefore(t.seed, t.k(q-1), t.mkt[q-1], price.Price(v)))
		}
	}
	if hi >= t.k0 {
		// Forward from the kept value at or before max(lo, k0).
		from := max(lo, t.k0)
		b := (from - t.k0) / span
		v := kept[t.below+b]
		for q := t.k0 + b*span; ; q++ {
			if q >= from {
				dst[q-lo] = v
			}
			if q == hi {
				break
			}
			v = int32(p.closeAfter(t.seed, t.k(q), t.mkt[q], price.Price(v)))
		}
	}
}

// pos is the position of the trading day starting at day, or of the last trading day before it;
// -1 when day is before the table.
func (t *table) pos(day time.Time) int {
	u := day.Unix()
	return sort.Search(len(t.days), func(i int) bool { return t.days[i].Unix() > u }) - 1
}

// walkBack computes instrument i's kept values before k0, backward from its reference price.
func (t *table) walkBack(i int) {
	p := &t.ps[i]
	kept := t.keep[i*t.stride : (i+1)*t.stride]
	v := int32(p.ref0)
	for pos := t.k0 - 1; pos >= 0; pos-- {
		v = int32(p.refBefore(t.seed, t.k(pos), t.mkt[pos], price.Price(v)))
		if (t.k0-pos)%span == 0 {
			kept[t.below-(t.k0-pos)/span] = v
		}
	}
}

// buildTable lists trading days from `from` to `to` and computes the chains forward from the
// epoch's reference prices, keeping every span-th value; the days before the epoch wait for a
// history query (walkBack).
func buildTable(seed uint64, sched *session.Schedule, ps []params, epoch, from, to time.Time) *table {
	t := &table{seed: seed, ps: ps}
	for d := sched.DayStart(from); !d.After(to); d = d.AddDate(0, 0, 1) {
		if sched.IsTradingDay(d) {
			t.days = append(t.days, d)
		}
	}
	e := sched.DayStart(epoch)
	t.k0 = sort.Search(len(t.days), func(i int) bool { return !t.days[i].Before(e) })
	n := len(t.days)
	t.mkt = make([]float64, n)
	for pos := range t.mkt {
		t.mkt[pos] = market(seed, t.k(pos))
	}
	t.below = t.k0 / span
	t.stride = t.below + (n-t.k0)/span + 1
	t.keep = make([]int32, len(ps)*t.stride)
	t.back = make([]sync.Once, len(ps))
	// Chains are independent: split them over the cores.
	workers := max(1, min(runtime.GOMAXPROCS(0), 8))
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < len(ps); i += workers {
				p := &ps[i]
				kept := t.keep[i*t.stride : (i+1)*t.stride]
				v := int32(p.ref0)
				kept[t.below] = v
				for pos := t.k0; pos < n; pos++ {
					v = int32(p.closeAfter(seed, t.k(pos), t.mkt[pos], price.Price(v)))
					if (pos+1-t.k0)%span == 0 {
						kept[t.below+(pos+1-t.k0)/span] = v
					}
				}
			}
		}()
	}
	wg.Wait()
	return t
}
