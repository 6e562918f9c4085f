// Package dividends is the simulated market's dividend schedule: for every instrument, a pure
// function of (seed, symbol, year) giving its cash and stock dividends with the dates Taiwan uses
// (ex-dividend/ex-rights date, record date, payment date). The same seed always gives the same
// schedule, on every instance and after every restart, like the simulator's prices.
//
// Taiwan practice, simplified: a company pays once a year (most), twice or four times (large
// caps, many ETFs); the cash dividend is quoted in NT$ per share, the stock dividend (配股) in NT$
// of par value (NT$10) per share, so 1 NT$ of stock dividend is 100 new shares per board lot of
// 1,000. The ex-date is 5 trading days before the record date (the last day to buy with the right
// is the trading day before the ex-date); cash is paid three to five weeks after the record
// date, new shares are distributed on the same day.
//
// The simulator's prices are not adjusted on ex-dates (the walk of package sim is a pure
// function of its own draws); Reference gives the ex-rights reference price the exchange would
// publish, for the screens.
package dividends

import (
	"fmt"
	"hash/fnv"
	"math"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/market/calendar"
)

// Frequencies of payment.
const (
	Annual     = "annual"
	SemiAnnual = "semiannual"
	Quarterly  = "quarterly"
)

// Par is the par value of a Taiwan share: a stock dividend of NT$1 is 0.1 share per share.
var Par = decimal.NewFromInt(10)

// Dividend is one distribution of one instrument.
type Dividend struct {
	ID        string // "<symbol>-<period>", as 2330-2026Q1: unique and stable
	Symbol    string
	Period    string // the earnings it pays: "2025", "2025H2", "2026Q1"
	Frequency string
	// Cash is NT$ per share (two decimals); Stock is the stock dividend in NT$ of par per share
	// (two decimals): Stock/Par new shares per share held. Either may be zero, not both.
	Cash, Stock decimal.Decimal
	// Dates at 00:00 Asia/Taipei. ExDate is both the ex-dividend and the ex-rights date.
	Announced, ExDate, RecordDate, PayDate time.Time
}

// HasStock tells whether the distribution gives new shares (ex-rights).
func (d Dividend) HasStock() bool { return d.Stock.IsPositive() }

// SharesPerLot is the new shares a board lot of 1,000 shares receives.
func (d Dividend) SharesPerLot() decimal.Decimal {
	return d.Stock.Div(Par).Mul(decimal.NewFromInt(1000))
}

// Reference is the ex-rights/ex-dividend reference price from the previous close: (close − cash)
// ÷ (1 + stock/par), rounded to two decimals (the exchange then rounds to the tick).
func (d Dividend) Reference(prevClose decimal.Decimal) decimal.Decimal {
	return prevClose.Sub(d.Cash).Div(decimal.NewFromInt(1).Add(d.Stock.Div(Par))).Round(2)
}

// Instrument is what the schedule needs of an instrument.
type Instrument struct {
	Symbol   string
	ETF      bool
	RefPrice decimal.Decimal // a typical price level (the simulator reverts towards it)
	// Large marks a large cap (pays more often).
	Large bool
}

// Profile is an instrument's dividend policy: how often it pays, its yield, whether it also pays
// stock dividends. Pays is false for instruments that pay nothing (leveraged and inverse ETFs,
// loss-making companies).
type Profile struct {
	Pays       bool
	Frequency  string
	Yield      float64 // cash yield a year at RefPrice, 0..0.08
	StockYield float64 // stock dividend a year in par per share ÷ par (0 for most)
	offset     int     // month offset of the first payment of the year
	day        int     // day of the month the ex-date is aimed at
}

func hash(parts ...string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(strings.Join(parts, "\x00")))
	x := h.Sum64()
	x ^= x >> 33
	x *= 0xff51afd7ed558ccd
	x ^= x >> 33
	return x
}

// unit is a uniform number in [0, 1) from the seed and parts.
func unit(seed uint64, parts ...string) float64 {
	return float64(hash(append([]string{fmt.Sprint(seed)}, parts...)...)>>11) / (1 << 53)
}

// ProfileOf is the instrument's dividend policy under seed.
func ProfileOf(seed uint64, in Instrument) Profile {
	u := func(p string) float64 { return unit(seed, in.Symbol, p) }
	p := Profile{Pays: true, day: 5 + int(u("day")*20)}
	switch {
	case in.ETF && (strings.HasSuffix(in.Symbol, "L") || strings.HasSuffix(in.Symbol, "R")):
		return Profile{}
	case in.ETF && strings.HasSuffix(in.Symbol, "B"):
		p.Frequency, p.Yield = Quarterly, 0.03+0.025*u("yield")
	case in.ETF:
		p.Frequency = []string{Annual, SemiAnnual, Quarterly, Quarterly}[int(u("freq")*4)]
		p.Yield = 0.02 + 0.06*u("yield")
	default:
		if u("pays") < 0.12 {
			return Profile{}
		}
		switch f := u("freq"); {
		case in.Large && f < 0.6, f < 0.08:
			p.Frequency = Quarterly
		case f < 0.25:
			p.Frequency = SemiAnnual
		default:
			p.Frequency = Annual
		}
		// Most yields 1–6 %, a tail up to 8 %.
		p.Yield = math.Min(0.08, 0.005+0.075*math.Pow(u("yield"), 1.6))
		if p.Frequency == Annual && u("stock") < 0.15 {
			p.StockYield = 0.02 + 0.1*u("stockyield")
		}
	}
	switch p.Frequency {
	case Quarterly:
		p.offset = int(u("offset") * 3)
	case SemiAnnual:
		p.offset = int(u("offset") * 6)
	default:
		p.offset = int(u("offset") * 4) // June to September
	}
	return p
}

// Schedule computes dividends on a trading calendar.
type Schedule struct {
	Seed     uint64
	Calendar *calendar.Calendar
}

// Year lists the dividends of in whose ex-date falls in year (calendar year in Asia/Taipei), in
// ex-date order.
func (s Schedule) Year(in Instrument, year int) []Dividend {
	p := ProfileOf(s.Seed, in)
	if !p.Pays || !in.RefPrice.IsPositive() {
		return nil
	}
	loc := s.Calendar.Location()
	var months []time.Month
	var periods []string
	switch p.Frequency {
	case Quarterly:
		// Each quarter's earnings go ex about two quarters later.
		for q := range 4 {
			months = append(months, time.Month(1+p.offset+3*q))
			periods = append(periods, fmt.Sprintf("%dQ%d", yearOf(year, q-2), (q+2)%4+1))
		}
	case SemiAnnual:
		months = []time.Month{time.Month(1 + p.offset), time.Month(7 + p.offset)}
		periods = []string{fmt.Sprintf("%dH1", year-1), fmt.Sprintf("%dH2", year-1)}
	default:
		months = []time.Month{time.Month(6 + p.offset)}
		periods = []string{fmt.Sprintf("%d", year-1)}
	}
	per := float64(len(months))
	out := make([]Dividend, 0, len(months))
	for i, m := range months {
		u := func(k string) float64 { return unit(s.Seed, in.Symbol, periods[i], k) }
		// The year's yield varies ±30 % around the policy.
		cashF := in.RefPrice.InexactFloat64() * p.Yield / per * (0.7 + 0.6*u("cash"))
		cash := decimal.NewFromFloat(cashF).Round(2)
		stock := decimal.Zero
		if p.StockYield > 0 && u("stockyear") < 0.7 {
			stock = decimal.NewFromFloat(p.StockYield * 10 * (0.7 + 0.6*u("stock"))).Round(2)
		}
		if !cash.IsPositive() && !stock.IsPositive() {
			continue
		}
		aim := time.Date(year, m, p.day, 0, 0, 0, 0, loc)
		ex := onOrAfter(s.Calendar, aim)
		record := addTradingDays(s.Calendar, ex, 5)
		pay := onOrAfter(s.Calendar, record.AddDate(0, 0, 21+int(u("pay")*14)))
		out = append(out, Dividend{ID: in.Symbol + "-" + periods[i], Symbol: in.Symbol, Period: periods[i], Frequency: p.Frequency,
			Cash: cash, Stock: stock, Announced: ex.AddDate(0, 0, -30-int(u("ann")*30)), ExDate: ex, RecordDate: record, PayDate: pay})
	}
	return out
}

// yearOf is the year of the quarter shifted back: year for q ≥ 0, year−1 before.
func yearOf(year, q int) int {
	if q < 0 {
		return year - 1
	}
	return year
}

// Between lists the dividends of in whose ex-date is in [from, to), in ex-date order.
func (s Schedule) Between(in Instrument, from, to time.Time) []Dividend {
	loc := s.Calendar.Location()
	var out []Dividend
	for y := from.In(loc).Year(); y <= to.In(loc).Year(); y++ {
		for _, d := range s.Year(in, y) {
			if !d.ExDate.Before(from) && d.ExDate.Before(to) {
				out = append(out, d)
			}
		}
	}
	return out
}

func day(cal *calendar.Calendar, t time.Time) time.Time {
	l := t.In(cal.Location())
	return time.Date(l.Year(), l.Month(), l.Day(), 0, 0, 0, 0, cal.Location())
}

func onOrAfter(cal *calendar.Calendar, t time.Time) time.Time {
	d := day(cal, t)
	if cal.IsTradingDay(d) {
		return d
	}
	return cal.NextTradingDay(d)
}

func addTradingDays(cal *calendar.Calendar, t time.Time, n int) time.Time {
	d := day(cal, t)
	for range n {
		d = cal.NextTradingDay(d)
	}
	return d
}
