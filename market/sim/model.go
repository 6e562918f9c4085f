package sim

import (
	"math"
	"strings"

	"github.com/lotbook/lotbook/market/instruments"
	"github.com/lotbook/lotbook/market/price"
	"github.com/lotbook/lotbook/market/rules"
)

// The model, top down. Every level is a pure function of the seed, the symbol and the trading-day
// number (and minute), so any day can be generated alone and always comes out the same:
//
//  1. day: the close follows from the reference (a market factor times beta, an idiosyncratic
//     fat-tailed move, a weak pull back to the first day's level; now and then a limit-up or
//     limit-down day); then open, high, low and volume follow from reference and close.
//  2. minutes: a Brownian bridge from the open to the close, reshaped so that its extremes are
//     exactly the day's high and low, rounded onto the tick grid; volume spread over the minutes
//     along a U-shaped curve, with an opening and a closing auction print. Limit days lock at the
//     limit for their last stretch.
//  3. prints: within a minute, a few trades at distinct seconds stepping from the previous
//     minute's close to this one's, a tick of noise, never outside the day's high and low.
//
// So every price is on the grid and inside the band by construction, and daily bars, minute bars
// and live trades agree exactly.

// marketVol is the daily volatility of the common market factor.
const marketVol = 0.010

// reversion pulls the log price back towards the first day's level (half-life about 230 days), so
// three years of history stay near realistic levels.
const reversion = 0.003

// params are one instrument's fixed simulation parameters.
type params struct {
	code      string
	ch        uint64
	kind      rules.Kind
	ref0      price.Price // reference price of day 0
	lots      int64       // shares outstanding in board lots (1,000 shares)
	vol       float64     // daily volatility
	beta      float64
	pUp       float64 // probability of a limit-up close
	pDown     float64 // probability of a limit-down close
	dayLots   float64 // typical board lots traded per day
	maxPrints int     // most trades printed in one minute
}

func newParams(seed uint64, in *instruments.Instrument) params {
	p := params{code: in.Code, ch: codeHash(in.Code), kind: in.Kind(), ref0: in.RefPrice, lots: in.Shares / 1000}
	r := newRNG(key(seed, p.ch, pParams))
	capNT := float64(in.RefPrice) / 100 * float64(in.Shares)
	annual, turnover := 0.0, 0.0
	switch {
	case in.Type == instruments.ETFType:
		annual, p.beta, turnover = 0.16, 0.95, 0.004
		switch {
		case strings.HasSuffix(in.Code, "B"):
			annual, p.beta = 0.08, 0.05
		case strings.HasSuffix(in.Code, "L"):
			annual, p.beta = 0.32, 2
		case strings.HasSuffix(in.Code, "R"):
			annual, p.beta = 0.16, -1
		case strings.HasSuffix(in.Code, "U"):
			annual, p.beta = 0.25, 0.2
		}
	default:
		annual = 0.35 * math.Exp(0.3*r.norm())
		p.beta = 1 + 0.3*r.norm()
		turnover = 0.005 * math.Exp(0.7*r.norm())
		if capNT > 5e11 {
			// Large caps: calmer and, as a share of their float, less traded.
			annual, turnover = 0.25*math.Exp(0.15*r.norm()), 0.0012*math.Exp(0.3*r.norm())
		}
		annual = clampF(annual, 0.15, 0.9)
		p.beta = clampF(p.beta, 0.3, 1.8)
		turnover = clampF(turnover, 0.0002, 0.08)
		p.pUp = 0.002 + 0.01*(annual-0.15)/0.75
		p.pDown = 0.6 * p.pUp
	}
	p.vol = annual / math.Sqrt(245)
	p.dayLots = math.Max(10, turnover*float64(p.lots))
	p.maxPrints = int(clampF(p.dayLots/400, 1, 20))
	return p
}

func clampF(x, lo, hi float64) float64 { return math.Min(math.Max(x, lo), hi) }

// toPrice converts NT$ to the nearest hundredth.
func toPrice(x float64) price.Price { return price.Price(math.Round(x * 100)) }

// market is the common factor of day k.
func market(seed uint64, k int) float64 {
	r := newRNG(key(seed, pMarket, uint64(k)))
	return marketVol * r.fat()
}

// closeDraw are the random numbers that decide a day's close, shared by the forward and backward
// directions so that both describe the same day.
type closeDraw struct {
	u, z float64
}

func drawClose(seed uint64, p *params, k int) closeDraw {
	r := newRNG(key(seed, p.ch, pClose, uint64(k)))
	return closeDraw{u: r.float(), z: r.fat()}
}

// logMove is the day's log return without its reversion term: the market factor, the
// idiosyncratic move and a drift that offsets limit-up days being likelier than limit-down days.
func (p *params) logMove(mkt float64, d closeDraw) float64 {
	drift := -(p.pUp - p.pDown) * 0.095 / (1 - p.pUp - p.pDown)
	return drift + p.beta*mkt + p.vol*d.z
}

// pull is the reversion towards the first day's level at price x: subtracted going forward,
// added going backward, so that both directions stay near realistic levels (a forward
// mean-reverting walk run backwards would drift away).
func (p *params) pull(x price.Price) float64 {
	return reversion * math.Log(x.Float()/p.ref0.Float())
}

// closeAfter is the close of day k given its reference (forward in time); mkt is market(seed, k).
func (p *params) closeAfter(seed uint64, k int, mkt float64, ref price.Price) price.Price {
	d := drawClose(seed, p, k)
	switch {
	case d.u < p.pUp:
		return rules.LimitUp(ref, p.kind)
	case d.u < p.pUp+p.pDown:
		return rules.LimitDown(ref, p.kind)
	}
	c := rules.RoundNearest(toPrice(ref.Float()*math.Exp(p.logMove(mkt, d)-p.pull(ref))), p.kind)
	return rules.Clamp(c, ref, p.kind)
}

// refBefore is the reference of day k given its close (backward in time, for history before day
// 0); mkt is market(seed, k).
func (p *params) refBefore(seed uint64, k int, mkt float64, close price.Price) price.Price {
	d := drawClose(seed, p, k)
	var ref price.Price
	switch {
	case d.u < p.pUp:
		ref = p.limitSource(close, 110, rules.LimitUp)
	case d.u < p.pUp+p.pDown:
		ref = p.limitSource(close, 90, rules.LimitDown)
	default:
		ref = rules.RoundNearest(toPrice(close.Float()/math.Exp(p.logMove(mkt, d)+p.pull(close))), p.kind)
	}
	// Make sure the close lies inside the band of the reference found.
	for i := 0; i < 1000 && close > rules.LimitUp(ref, p.kind); i++ {
		ref = rules.Up(ref, p.kind)
	}
	for i := 0; i < 1000 && close < rules.LimitDown(ref, p.kind) && ref > 1; i++ {
		ref = rules.Down(ref, p.kind)
	}
	return ref
}

// limitSource finds a reference whose limit price (by limit) is exactly close, if one exists near
// close ÷ (pct/100); otherwise the nearest candidate.
func (p *params) limitSource(close price.Price, pct int64, limit func(price.Price, rules.Kind) price.Price) price.Price {
	c := rules.RoundNearest(close*100/price.Price(pct), p.kind)
	lo := c
	for range 4 {
		lo = rules.Down(lo, p.kind)
	}
	for x, i := lo, 0; i < 9; x, i = rules.Up(x, p.kind), i+1 {
		if limit(x, p.kind) == close {
			return x
		}
	}
	return c
}

// day is one trading day of one instrument.
type day struct {
	ref, open, high, low, close price.Price
	lots                        int64   // board lots traded
	lockAt                      float64 // fraction of the session after which a limit day stays at its limit; <0 none
}

func (p *params) dayBar(seed uint64, k int, ref, close price.Price) day {
	r := newRNG(key(seed, p.ch, pBar, uint64(k)))
	lu, ld := rules.LimitUp(ref, p.kind), rules.LimitDown(ref, p.kind)
	move := math.Log(close.Float() / ref.Float())
	d := day{ref: ref, close: close, lockAt: -1}
	gap := 0.35*move + 0.3*p.vol*r.norm()
	d.open = rules.Clamp(rules.RoundNearest(toPrice(ref.Float()*math.Exp(gap)), p.kind), ref, p.kind)
	hi, lo := max(d.open, close), min(d.open, close)
	d.high = min(lu, max(hi, rules.RoundUp(toPrice(hi.Float()*math.Exp(math.Abs(r.norm())*0.55*p.vol)), p.kind)))
	d.low = max(ld, min(lo, rules.RoundDown(toPrice(lo.Float()*math.Exp(-math.Abs(r.norm())*0.55*p.vol)), p.kind)))
	lockDraw := r.float()
	if (close == lu || close == ld) && lu != ld && d.open != close {
		d.lockAt = 0.25 + 0.65*lockDraw
	}
	d.lots = max(10, int64(math.Round(p.dayLots*math.Exp(0.35*r.norm()-0.06)*(1+1.2*math.Abs(move)/p.vol))))
	return d
}

// estTurnover is a day's turnover when its trades are not generated: volume at the bar's mean price.
func (d *day) estTurnover() price.Price {
	mean := (d.open + d.high + d.low + d.close) / 4
	return mean * price.Price(d.lots*1000)
}

// intraday is one day's minute-level plan.
type intraday struct {
	path      []price.Price // close of each minute of continuous trading
	lots      []int32       // board lots traded in each minute
	openLots  int64         // opening call auction
	closeLots int64         // closing call auction
	locked    int           // first minute that stays at the limit; len(path) when none
}

// planBuf is the memory plan works in, reused from day to day and symbol to symbol: a plan is
// 12 bytes a minute plus 16 of scratch, and the demo's days have 1,430 minutes.
type planBuf struct {
	it   intraday
	y, w []float64
}

func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// plan builds the minutes of day d with n minutes of continuous trading, in b's memory: the
// result is valid until b is used again.
func (p *params) plan(seed uint64, k int, d *day, n int, b *planBuf) *intraday {
	r := newRNG(key(seed, p.ch, pPath, uint64(k)))
	it := &b.it
	it.path, it.lots, it.locked = grow(it.path, n), grow(it.lots, n), n
	t := n
	if d.lockAt >= 0 {
		t = max(3, int(float64(n)*d.lockAt))
		it.locked = t
	}
	lo, lc := math.Log(d.open.Float()), math.Log(d.close.Float())
	lh, ll := math.Log(d.high.Float()), math.Log(d.low.Float())
	hiOC, loOC := math.Max(lo, lc), math.Min(lo, lc)
	// y[j] is the log price at the end of minute j-1; y[0] is the open, y[t] the close.
	b.y = grow(b.y, t+1)
	y := b.y
	y[0] = 0
	for j := 1; j <= t; j++ {
		y[j] = y[j-1] + r.norm()
	}
	s := p.vol * 0.8 / math.Sqrt(float64(t))
	wt := y[t]
	for j := 0; j <= t; j++ {
		f := float64(j) / float64(t)
		y[j] = lo + (lc-lo)*f + s*(y[j]-wt*f)
	}
	jH, jL := extremes(y)
	width := max(2, t/20)
	if lh > hiOC && y[jH] <= hiOC {
		jH = 1 + r.intn(t-1)
		bump(y, jH, lh-y[jH]+1e-3, width)
		_, jL = extremes(y)
	}
	if ll < loOC && y[jL] >= loOC {
		jL = 1 + r.intn(t-1)
		if jL == jH {
			jL = 1 + (jH % (t - 1))
		}
		bump(y, jL, ll-y[jL]-1e-3, width)
	}
	jH, jL = extremes(y)
	// Stretch the parts above max(open, close) and below min(open, close) so the extremes are
	// exactly the day's high and low; a zero stretch flattens them.
	up, down := 0.0, 0.0
	if y[jH] > hiOC {
		up = (lh - hiOC) / (y[jH] - hiOC)
	}
	if y[jL] < loOC {
		down = (ll - loOC) / (y[jL] - loOC)
	}
	for j := 1; j < t; j++ {
		v := y[j]
		switch {
		case v > hiOC:
			v = hiOC + (v-hiOC)*up
		case v < loOC:
			v = loOC + (v-loOC)*down
		}
		px := rules.RoundNearest(toPrice(math.Exp(v)), p.kind)
		it.path[j-1] = min(d.high, max(d.low, px))
	}
	if lh > hiOC {
		it.path[jH-1] = d.high
	}
	if ll < loOC {
		it.path[jL-1] = d.low
	}
	for j := t - 1; j < n; j++ {
		it.path[j] = d.close
	}

	// Volume: auctions first, the rest along a U-shaped curve (busy open, busier close).
	it.openLots = max(1, int64(float64(d.lots)*(0.02+0.03*r.float())))
	it.closeLots = max(1, int64(float64(d.lots)*(0.04+0.06*r.float())))
	cont := d.lots - it.openLots - it.closeLots
	b.w = grow(b.w, n)
	w := b.w
	total := 0.0
	edge := float64(n) / 12
	for j := range w {
		w[j] = (1 + 2.2*math.Exp(-float64(j)/edge) + 1.6*math.Exp(-float64(n-1-j)/edge)) * math.Exp(0.35*r.norm())
		if j >= t {
			w[j] *= 0.3 // a locked limit trades thinly
		}
		total += w[j]
	}
	acc, prev := 0.0, int64(0)
	for j := range w {
		acc += w[j]
		cum := int64(float64(cont) * acc / total)
		if j == n-1 {
			cum = cont
		}
		it.lots[j] = int32(cum - prev)
		prev = cum
	}
	// The minutes that set the high and the low must trade: take a lot from elsewhere.
	for _, j := range []int{jH - 1, jL - 1} {
		if j < 0 || j >= n || it.lots[j] > 0 {
			continue
		}
		big := 0
		for i := range it.lots {
			if it.lots[i] > it.lots[big] {
				big = i
			}
		}
		switch {
		case it.lots[big] > 1:
			it.lots[big]--
		case it.closeLots > 1:
			it.closeLots--
		case it.openLots > 1:
			it.openLots--
		default:
			// Every minute trades at most one lot: move one that sets no extreme.
			for i := range it.lots {
				if it.lots[i] == 1 && i != jH-1 && i != jL-1 {
					it.lots[i]--
					break
				}
			}
		}
		it.lots[j]++
	}
	return it
}

// extremes are the indexes of the highest and lowest interior points of y.
func extremes(y []float64) (hi, lo int) {
	hi, lo = 1, 1
	for j := 1; j < len(y)-1; j++ {
		if y[j] > y[hi] {
			hi = j
		}
		if y[j] < y[lo] {
			lo = j
		}
	}
	return hi, lo
}

// bump adds a triangle of the given height centred on interior point c.
func bump(y []float64, c int, height float64, width int) {
	for j := max(1, c-width+1); j < min(len(y)-1, c+width); j++ {
		d := c - j
		if d < 0 {
			d = -d
		}
		y[j] += height * (1 - float64(d)/float64(width))
	}
}

// print is one trade inside a minute.
type print struct {
	sec   int32 // second within the minute
	price price.Price
	lots  int32
}

// minute is what prints needs of one minute of a plan.
type minute struct {
	from, to price.Price // the previous minute's close (the open for minute 0) and this one's
	lots     int32
	quiet    bool // locked at the limit: no noise
}

// minute j of the plan of day d.
func (it *intraday) minute(j int, d *day) minute {
	m := minute{from: d.open, to: it.path[j], lots: it.lots[j], quiet: j >= it.locked}
	if j > 0 {
		m.from = it.path[j-1]
	}
	return m
}

// prints are minute j's trades: they step from the previous minute's close (the open for j=0)
// to this minute's close, one tick of noise, within the day's low and high. Minute 0's second 0 is
// the opening auction's, so its trades start at second 1.
func (p *params) prints(seed uint64, k, j int, d *day, m minute, buf []print) []print {
	buf = buf[:0]
	lots := int(m.lots)
	if lots <= 0 {
		return buf
	}
	r := newRNG(key(seed, p.ch, pMinute, uint64(k), uint64(j)))
	n := min(lots, 1+r.intn(p.maxPrints))
	first := int32(0)
	if j == 0 {
		first = 1
	}
	n = min(n, int(60-first))
	var used uint64
	for c := 0; c < n; {
		s := first + int32(r.intn(int(60-first)))
		if used&(1<<s) == 0 {
			used |= 1 << s
			c++
		}
	}
	from, to, quiet := m.from, m.to, m.quiet
	rest := lots - n
	i := 0
	for s := first; s < 60; s++ {
		if used&(1<<s) == 0 {
			continue
		}
		px := to
		if i < n-1 {
			px = rules.RoundNearest(from+(to-from)*price.Price(i+1)/price.Price(n), p.kind)
			if !quiet {
				switch u := r.float(); {
				case u < 0.2:
					px = rules.Up(px, p.kind)
				case u < 0.4:
					px = rules.Down(px, p.kind)
				}
			}
			px = min(d.high, max(d.low, px))
		}
		size := 1
		if i == n-1 {
			size += rest
		} else if rest > 0 {
			extra := int(float64(rest) * r.float() * 2 / float64(n-i))
			extra = min(extra, rest)
			size += extra
			rest -= extra
		}
		buf = append(buf, print{sec: s, price: px, lots: int32(size)})
		i++
	}
	return buf
}
