package market

import (
	"cmp"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/lotbook/lotbook/market/calendar"
	"github.com/lotbook/lotbook/market/dividends"
	"github.com/lotbook/lotbook/market/instruments"
)

// Dividend is one distribution of the simulated market (package dividends).
type Dividend = dividends.Dividend

// dividendBook caches the schedule of every instrument by year.
type dividendBook struct {
	cat   *instruments.Catalog
	sched dividends.Schedule
	mu    sync.Mutex
	years map[int][]Dividend // every instrument's dividends going ex in the year, by ex-date then symbol
}

func newDividendBook(cat *instruments.Catalog, seed uint64) *dividendBook {
	return &dividendBook{cat: cat, sched: dividends.Schedule{Seed: seed, Calendar: calendar.Taiwan()}, years: map[int][]Dividend{}}
}

func dividendInstrument(in *instruments.Instrument) dividends.Instrument {
	return dividends.Instrument{Symbol: in.Code, ETF: in.Type == instruments.ETFType, RefPrice: in.RefPrice.Decimal(),
		Large: float64(in.RefPrice)/100*float64(in.Shares) > 5e11}
}

func (b *dividendBook) year(y int) []Dividend {
	b.mu.Lock()
	defer b.mu.Unlock()
	if ds, ok := b.years[y]; ok {
		return ds
	}
	var ds []Dividend
	for _, in := range b.cat.All() {
		ds = append(ds, b.sched.Year(dividendInstrument(in), y)...)
	}
	slices.SortStableFunc(ds, func(a, c Dividend) int {
		return cmp.Or(a.ExDate.Compare(c.ExDate), cmp.Compare(a.Symbol, c.Symbol))
	})
	if len(b.years) > 16 {
		clear(b.years)
	}
	b.years[y] = ds
	return ds
}

// DividendsBetween lists every instrument's dividends whose ex-date is in [from, to), by ex-date
// then symbol.
func (s *Service) DividendsBetween(from, to time.Time) []Dividend {
	loc := calendar.Taiwan().Location()
	var out []Dividend
	for y := from.In(loc).Year(); y <= to.In(loc).Year(); y++ {
		for _, d := range s.divs.year(y) {
			if !d.ExDate.Before(from) && d.ExDate.Before(to) {
				out = append(out, d)
			}
		}
	}
	return out
}

// Dividends lists one symbol's dividends whose ex-date is in [from, to), in ex-date order.
func (s *Service) Dividends(symbol string, from, to time.Time) ([]Dividend, error) {
	in, ok := s.cat.Lookup(normalize(symbol))
	if !ok {
		return nil, fmt.Errorf("%w: %q", ErrUnknownSymbol, symbol)
	}
	return s.divs.sched.Between(dividendInstrument(in), from, to), nil
}

// DividendProfile is a symbol's dividend policy (how often it pays, its yield at its typical
// price).
func (s *Service) DividendProfile(symbol string) (dividends.Profile, error) {
	in, ok := s.cat.Lookup(normalize(symbol))
	if !ok {
		return dividends.Profile{}, fmt.Errorf("%w: %q", ErrUnknownSymbol, symbol)
	}
	return dividends.ProfileOf(s.divs.sched.Seed, dividendInstrument(in)), nil
}
