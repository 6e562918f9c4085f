package sim

import (
	"math"
	"strings"
	"sync"

	"github.com/lotbook/lotbook/market/instruments"
	"github.com/lotbook/lotbook/market/price"
	"github.com/lotbook/lotbook/market/rules"
)

// The model, top down. Every level is a pure function of the seed, the symbol and the trading-day
// number (and minute), so any day can be generated alone and always comes out the same:
//
//  0. regimes: each instrument, and the market, has a volatility multiplier and a drift that vary
//     slowly (values drawn every regimeLen trading days, interpolated between), so calm and wild
//     stretches, rallies and slides alternate.
//  1. day: the close follows from the reference (a market factor times beta, an idiosyncratic
//     fat-tailed move scaled by the regime, the regime's drift, a weak pull back to the first
//     day's level; now and then a limit-up or limit-down day); then open, high, low and volume
//     follow from reference and close.
//  2. minutes: Brownian bridges, busier at the open and the close, from the open through the
//     day's high and low (at times drawn by the arcsine law, as a random walk's extremes fall) to
//     the close, folded back inside the day's range, then snapped onto the tick grid with
//     hysteresis (the last price holds until the walk is most of a tick away), so prices run and
//     turn instead of flickering between two ticks. Volume is spread over the minutes along a
//     U-shaped curve, heavier where the price moves, with an opening and a closing auction print.
//     Limit days lock at the limit for their last stretch.
//  3. prints: within a minute, a few trades of heavy-tailed sizes (many small, few large) at
//     distinct seconds stepping from the previous minute's close to this one's, now and then a
//     tick off (the bid-ask bounce), never outside the day's high and low.
//
// So every price is on the grid and inside the band by construction, and daily bars, minute bars
// and live trades agree exactly.

// marketVol is the daily volatility of the common market factor.
const marketVol = 0.010

// reversion pulls the log price back towards the first day's level (half-life about 230 days), so
// eleven years of history stay near realistic levels.
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
		// An equity ETF is the market plus a little tracking noise.
		annual, p.beta, turnover = 0.05, 0.95, 0.004
		switch {
		case strings.HasSuffix(in.Code, "B"):
			annual, p.beta = 0.06, 0.05
		case strings.HasSuffix(in.Code, "L"):
			annual, p.beta = 0.06, 2
		case strings.HasSuffix(in.Code, "R"):
			annual, p.beta = 0.06, -1
		case strings.HasSuffix(in.Code, "U"):
			annual, p.beta = 0.25, 0.2
		}
	default:
		// Smaller companies move more: about 50 % a year at NT$1 billion of market value, 35 % at
		// NT$1 trillion, each symbol drawn around that.
		size := math.Log10(math.Max(capNT, 1e8) / 1e9)
		annual = (0.50 - 0.05*size) * math.Exp(0.25*r.norm())
		p.beta = 1 + 0.3*r.norm()
		turnover = 0.005 * math.Exp(0.7*r.norm())
		if capNT > 5e11 {
			// Large caps: calmer and, as a share of their float, less traded.
			annual, turnover = 0.16*math.Exp(0.12*r.norm()), 0.0012*math.Exp(0.3*r.norm())
		}
		annual = clampF(annual, 0.12, 0.9)
		p.beta = clampF(p.beta, 0.3, 1.8)
		turnover = clampF(turnover, 0.0002, 0.08)
		p.pUp = 0.002 + 0.01*(annual-0.15)/0.75
		p.pUp = max(p.pUp, 0.0015)
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

// market is the common factor of day k: a fat-tailed move scaled by the market's volatility
// regime, plus the market regime's drift (bull and bear stretches).
func market(seed uint64, k int) float64 {
	vm, drift := regime(seed, pMarket, k)
	r := newRNG(key(seed, pMarket, uint64(k)))
	return marketVol * (vm*r.fat() + driftShare*drift)
}

// regimeLen is the distance in trading days between a regime's knots.
const regimeLen = 40

// driftShare is a regime's drift per day in units of the day's volatility, per unit of drift
// drawn: over a knot's 40 days a one-sigma drift moves the price by 4 daily sigmas, against some
// 6 of noise, enough for visible runs.
const driftShare = 0.1

// regime is stream c's volatility multiplier (mean 1) and drift (standard normal) at day k: knots
// drawn every regimeLen days, linearly interpolated, so each day's values are found alone.
func regime(seed, c uint64, k int) (vol, drift float64) {
	q := k / regimeLen
	if k < 0 && k%regimeLen != 0 {
		q--
	}
	f := float64(k-q*regimeLen) / regimeLen
	v0, d0 := knot(seed, c, q)
	v1, d1 := knot(seed, c, q+1)
	return v0 + (v1-v0)*f, d0 + (d1-d0)*f
}

// knot is the regime drawn at knot q: one hash step seeds it (chains evaluate two knots a day).
func knot(seed, c uint64, q int) (vol, drift float64) {
	r := newRNG(mix(seed ^ c ^ (uint64(q)+pRegime<<56)*0x9e3779b97f4a7c15))
	return r.lookup(regimeVols), r.norm()
}

// regimeVols are the volatility multipliers of regimes: log-normal, mean 1.
var regimeVols = logNormal(0.4, -0.08)

// minuteNoise is the spread of volume over minutes around the session's curve.
var minuteNoise = logNormal(0.35, 0)

// closeDraw are the random numbers that decide a day's close, shared by the forward and backward
// directions so that both describe the same day.
type closeDraw struct {
	u, z      float64
	vm, drift float64 // the instrument's regime that day
}

func drawClose(seed uint64, p *params, k int) closeDraw {
	r := newRNG(key(seed, p.ch, pClose, uint64(k)))
	d := closeDraw{u: r.float(), z: r.fat()}
	d.vm, d.drift = regime(seed, p.ch, k)
	return d
}

// logMove is the day's log return without its reversion term: the market factor, the
// idiosyncratic move in its regime, the regime's drift and a drift that offsets limit-up days being
// likelier than limit-down days.
func (p *params) logMove(mkt float64, d closeDraw) float64 {
	drift := -(p.pUp - p.pDown) * 0.095 / (1 - p.pUp - p.pDown)
	return drift + p.beta*mkt + p.vol*d.vm*(d.z+driftShare*d.drift)
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
	vol                         float64 // the day's volatility (the instrument's, in its regime)
}

func (p *params) dayBar(seed uint64, k int, ref, close price.Price) day {
	r := newRNG(key(seed, p.ch, pBar, uint64(k)))
	vm, _ := regime(seed, p.ch, k)
	vol := p.vol * vm
	lu, ld := rules.LimitUp(ref, p.kind), rules.LimitDown(ref, p.kind)
	move := math.Log(close.Float() / ref.Float())
	d := day{ref: ref, close: close, lockAt: -1, vol: vol}
	gap := 0.35*move + 0.3*vol*r.norm()
	d.open = rules.Clamp(rules.RoundNearest(toPrice(ref.Float()*math.Exp(gap)), p.kind), ref, p.kind)
	hi, lo := max(d.open, close), min(d.open, close)
	d.high = min(lu, max(hi, rules.RoundUp(toPrice(hi.Float()*math.Exp(math.Abs(r.norm())*0.55*vol)), p.kind)))
	d.low = max(ld, min(lo, rules.RoundDown(toPrice(lo.Float()*math.Exp(-math.Abs(r.norm())*0.55*vol)), p.kind)))
	lockDraw := r.float()
	if (close == lu || close == ld) && lu != ld && d.open != close {
		d.lockAt = 0.25 + 0.65*lockDraw
	}
	// Busy regimes and big moves trade more.
	d.lots = max(10, int64(math.Round(p.dayLots*math.Sqrt(vm)*math.Exp(0.35*r.norm()-0.06)*(1+1.2*math.Abs(move)/vol))))
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

	// The variance of each minute: a U over the session (the open busiest), summing to the day's.
	prof := profileOf(n)
	sd := d.vol * 0.8 / math.Sqrt(prof.total)

	// Anchors: the open, the high and the low where they lie beyond open and close, the close.
	// y[j] is the log price at the end of minute j-1; y[0] is the open, y[t] the close.
	b.y = grow(b.y, t+1)
	y := b.y
	jH, jL := -1, -1
	if lh > hiOC {
		jH = extremeAt(&r, t)
	}
	if ll < loOC {
		jL = extremeAt(&r, t)
		if jL == jH {
			jL = 1 + jH%(t-1)
		}
	}
	anchors := [4]int{0, jH, jL, t}
	if anchors[1] > anchors[2] {
		anchors[1], anchors[2] = anchors[2], anchors[1]
	}
	val := func(j int) float64 {
		switch j {
		case 0:
			return lo
		case t:
			return lc
		case jH:
			return lh
		}
		return ll
	}
	prev := 0
	for _, a := range anchors[1:] {
		if a <= prev {
			continue
		}
		bridge(&r, y, prof, sd, prev, a, val(prev), val(a))
		prev = a
	}
	// Fold the walk back inside the day's range, then snap it to the grid with hysteresis: the
	// price moves once the walk is three quarters of a tick away (compared in logs, so that only
	// a move costs an exponential).
	cur := d.open
	lcur, band := lo, 0.75*float64(rules.Tick(cur, p.kind))/float64(cur)
	for j := 1; j < t; j++ {
		v := y[j]
		for i := 0; i < 8 && (v > lh || v < ll); i++ {
			if v > lh {
				v = 2*lh - v
			}
			if v < ll {
				v = 2*ll - v
			}
		}
		if math.Abs(v-lcur) >= band {
			next := min(d.high, max(d.low, rules.RoundNearest(toPrice(math.Exp(v)), p.kind)))
			if next != cur {
				cur = next
				lcur, band = math.Log(cur.Float()), 0.75*float64(rules.Tick(cur, p.kind))/float64(cur)
			}
		}
		it.path[j-1] = cur
	}
	if jH > 0 {
		it.path[jH-1] = d.high
	}
	if jL > 0 {
		it.path[jL-1] = d.low
	}
	for j := t - 1; j < n; j++ {
		it.path[j] = d.close
	}

	// Volume: auctions first, the rest along a U-shaped curve (busy open, busier close), more where
	// the price moves.
	it.openLots = max(1, int64(float64(d.lots)*(0.02+0.03*r.float())))
	it.closeLots = max(1, int64(float64(d.lots)*(0.04+0.06*r.float())))
	cont := d.lots - it.openLots - it.closeLots
	b.w = grow(b.w, n)
	w := b.w
	total := 0.0
	last := d.open
	for j := range w {
		moved := 0.0
		if px := it.path[j]; px != last {
			moved = math.Min(4, math.Abs(float64(px-last))/float64(rules.Tick(min(px, last), p.kind)))
			last = px
		}
		w[j] = prof.volume[j] * (1 + 0.5*moved) * r.lookup(minuteNoise)
		if j >= t {
			w[j] *= 0.3 // a locked limit trades thinly
		}
		total += w[j]
	}
	acc, done := 0.0, int64(0)
	for j := range w {
		acc += w[j]
		cum := int64(float64(cont) * acc / total)
		if j == n-1 {
			cum = cont
		}
		it.lots[j] = int32(cum - done)
		done = cum
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

// uShape is the U-shaped weight of minute j of n: 1 at midday, 1+open at the open, 1+close at
// the close, fading over about a fifteenth of the session.
func uShape(j, n int, open, close float64) float64 {
	edge := float64(n) / 15
	return 1 + open*math.Exp(-float64(j)/edge) + close*math.Exp(-float64(n-1-j)/edge)
}

// extremeAt is the interior point (1..t-1) where a walk of t steps peaks: the arcsine law puts
// extremes near the open and the close more often than at midday.
func extremeAt(r *rng, t int) int {
	s := math.Sin(math.Pi / 2 * r.float())
	return 1 + min(t-2, int(float64(t-1)*s*s))
}

// bridge fills y[a+1..b] with a Brownian bridge from ya at a to yb at b whose step j has variance
// sd²·prof.vari[j-1].
func bridge(r *rng, y []float64, prof *profile, sd float64, a, b int, ya, yb float64) {
	walk := 0.0
	for j := a + 1; j <= b; j++ {
		walk += prof.sd[j-1] * r.norm()
		y[j] = walk
	}
	y[a] = ya
	tau := prof.cum[b] - prof.cum[a]
	if tau == 0 {
		return
	}
	wb := walk
	for j := a + 1; j <= b; j++ {
		f := (prof.cum[j] - prof.cum[a]) / tau
		y[j] = ya + (yb-ya)*f + sd*(y[j]-wb*f)
	}
}

// profile is the shape of a session of n minutes: each minute's price variance (a U, the open
// busiest) and its cumulated sums and roots, and each minute's volume weight (a U, the close
// busier).
type profile struct {
	vari, sd, cum, volume []float64
	total                 float64
}

// profiles are computed once per session length (the exchange's and the demo's).
var profiles sync.Map // int → *profile

func profileOf(n int) *profile {
	if p, ok := profiles.Load(n); ok {
		return p.(*profile)
	}
	p := &profile{vari: make([]float64, n), sd: make([]float64, n), cum: make([]float64, n+1), volume: make([]float64, n)}
	for j := range n {
		p.vari[j] = uShape(j, n, 2.0, 0.8)
		p.sd[j] = math.Sqrt(p.vari[j])
		p.cum[j+1] = p.cum[j] + p.vari[j]
		p.volume[j] = uShape(j, n, 2.6, 1.9)
	}
	p.total = p.cum[n]
	v, _ := profiles.LoadOrStore(n, p)
	return v.(*profile)
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
	// Sizes: one lot each, the rest shared by heavy-tailed weights (many small trades, a few large
	// ones).
	var wts [60]float64
	wsum := 0.0
	for i := range n {
		wts[i] = math.Min(40, 1/r.float())
		wsum += wts[i]
	}
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
				case u < 0.1:
					px = rules.Up(px, p.kind)
				case u < 0.2:
					px = rules.Down(px, p.kind)
				}
			}
			px = min(d.high, max(d.low, px))
		}
		size := 1 + int(float64(lots-n)*wts[i]/wsum)
		rest -= size - 1
		if i == n-1 {
			size += rest
		}
		buf = append(buf, print{sec: s, price: px, lots: int32(size)})
		i++
	}
	return buf
}
