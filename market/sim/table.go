package sim

import (
	"runtime"
	"sort"
	"sync"
	"time"

	"github.com/lotbook/lotbook/market/price"
	"github.com/lotbook/lotbook/market/session"
)

// table is the immutable calendar of simulated trading days with every instrument's chain of
// references and closes. It is replaced, never changed, so history queries read it without locks.
type table struct {
	days []time.Time // trading-day starts (00:00 Asia/Taipei), ascending
	k0   int         // position of day 0 (the epoch)
	// chain[i][pos] is instrument i's reference on day pos; chain[i][pos+1] its close. int32
	// hundredths (up to NT$21 million) halve the memory of some two thousand chains.
	chain [][]int32
}

// k is the model's day number of position pos.
func (t *table) k(pos int) int { return pos - t.k0 }

func (t *table) ref(i, pos int) price.Price   { return price.Price(t.chain[i][pos]) }
func (t *table) close(i, pos int) price.Price { return price.Price(t.chain[i][pos+1]) }

// pos is the position of the trading day starting at day, or of the last trading day before it;
// -1 when day is before the table.
func (t *table) pos(day time.Time) int {
	u := day.Unix()
	return sort.Search(len(t.days), func(i int) bool { return t.days[i].Unix() > u }) - 1
}

// buildTable lists trading days from `from` to `to` and computes the chains: forward from the
// epoch's reference prices, backward for the days before it.
func buildTable(seed uint64, sched *session.Schedule, ps []params, epoch, from, to time.Time) *table {
	t := &table{}
	for d := sched.DayStart(from); !d.After(to); d = d.AddDate(0, 0, 1) {
		if sched.IsTradingDay(d) {
			t.days = append(t.days, d)
		}
	}
	e := sched.DayStart(epoch)
	t.k0 = sort.Search(len(t.days), func(i int) bool { return !t.days[i].Before(e) })
	n := len(t.days)
	mkt := make([]float64, n)
	for pos := range mkt {
		mkt[pos] = market(seed, t.k(pos))
	}
	t.chain = make([][]int32, len(ps))
	// Chains are independent: split them over the cores.
	workers := max(1, min(runtime.GOMAXPROCS(0), 8))
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < len(ps); i += workers {
				p := &ps[i]
				c := make([]int32, n+1)
				if t.k0 <= n {
					c[t.k0] = int32(p.ref0)
				}
				for pos := t.k0; pos < n; pos++ {
					c[pos+1] = int32(p.closeAfter(seed, t.k(pos), mkt[pos], price.Price(c[pos])))
				}
				for pos := min(t.k0, n) - 1; pos >= 0; pos-- {
					c[pos] = int32(p.refBefore(seed, t.k(pos), mkt[pos], price.Price(c[pos+1])))
				}
				t.chain[i] = c
			}
		}()
	}
	wg.Wait()
	return t
}
