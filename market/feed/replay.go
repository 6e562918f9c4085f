package feed

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/lotbook/lotbook/market/price"
	"github.com/lotbook/lotbook/market/rules"
)

// Replay plays a CSV file of trades or daily bars through a State, in time order.
//
// Trades: header `time,symbol,price,size` (RFC 3339 time, decimal price, shares).
//
// Daily bars: header `date,symbol,open,high,low,close,volume,turnover,reference` (date as
// 2006-01-02 in Asia/Taipei; volume in shares; turnover in NT$, may be empty; reference is the
// previous close, may be empty). A bar becomes four trades that rebuild it exactly: the open at
// the opening call, the low and the high (in the order that a rising or falling day suggests)
// during the session and the close at the closing call; volume and turnover are split among them.
type Replay struct {
	*State
	events []replayEvent
	next   int
}

type replayEvent struct {
	at     time.Time
	symbol string
	price  price.Price
	size   int64
	value  price.Price
	// day start with reference (no trade) when ref > 0
	ref price.Price
}

// Session times a bar's trades are placed at (Asia/Taipei).
var barTimes = [4]time.Duration{9 * time.Hour, 10*time.Hour + 30*time.Minute, 12 * time.Hour, 13*time.Hour + 30*time.Minute}

// NewReplay reads the whole CSV; kind gives each symbol's tick table.
func NewReplay(r io.Reader, loc *time.Location, kind func(symbol string) rules.Kind) (*Replay, error) {
	cr := csv.NewReader(r)
	cr.Comment = '#'
	header, err := cr.Read()
	if err != nil {
		return nil, fmt.Errorf("replay: header: %w", err)
	}
	rp := &Replay{State: NewState(kind)}
	switch h := strings.Join(header, ","); h {
	case "time,symbol,price,size":
		err = eachRecord(cr, rp.trade)
	case "date,symbol,open,high,low,close,volume,turnover,reference":
		err = eachRecord(cr, func(rec []string) error { return rp.bar(rec, loc) })
	default:
		return nil, fmt.Errorf("replay: unknown header %q", h)
	}
	if err != nil {
		return nil, err
	}
	sort.SliceStable(rp.events, func(a, b int) bool { return rp.events[a].at.Before(rp.events[b].at) })
	return rp, nil
}

// eachRecord hands read every record after the header; an error names the record's line.
func eachRecord(cr *csv.Reader, read func(rec []string) error) error {
	for line := 2; ; line++ {
		rec, err := cr.Read()
		if err == io.EOF {
			return nil
		}
		if err == nil {
			err = read(rec)
		}
		if err != nil {
			return fmt.Errorf("replay: line %d: %w", line, err)
		}
	}
}

// trade reads a trades file's record.
func (rp *Replay) trade(rec []string) error {
	at, err := time.Parse(time.RFC3339, rec[0])
	if err != nil {
		return fmt.Errorf("time: %w", err)
	}
	px, err := price.Parse(rec[2])
	if err != nil {
		return err
	}
	size, err := strconv.ParseInt(rec[3], 10, 64)
	if err != nil || size <= 0 {
		return fmt.Errorf("bad size %q", rec[3])
	}
	rp.events = append(rp.events, replayEvent{at: at, symbol: rec[1], price: px, size: size, value: px * price.Price(size)})
	return nil
}

// bar reads a daily bars file's record as its four trades.
func (rp *Replay) bar(rec []string, loc *time.Location) error {
	day, err := time.ParseInLocation(time.DateOnly, rec[0], loc)
	if err != nil {
		return fmt.Errorf("date: %w", err)
	}
	var ohlc [4]price.Price
	for i := range ohlc {
		if ohlc[i], err = price.Parse(rec[2+i]); err != nil {
			return err
		}
	}
	o, h, l, c := ohlc[0], ohlc[1], ohlc[2], ohlc[3]
	if h < max(o, c) || l > min(o, c) {
		return errors.New("inconsistent bar")
	}
	vol, err := strconv.ParseInt(rec[6], 10, 64)
	if err != nil || vol < 4 {
		return fmt.Errorf("bad volume %q", rec[6])
	}
	turnover := price.Price(0)
	if rec[7] != "" {
		if turnover, err = price.Parse(rec[7]); err != nil {
			return fmt.Errorf("turnover: %w", err)
		}
	}
	if rec[8] != "" {
		ref, err := price.Parse(rec[8])
		if err != nil {
			return fmt.Errorf("reference: %w", err)
		}
		rp.events = append(rp.events, replayEvent{at: day, symbol: rec[1], ref: ref})
	}
	prices := [4]price.Price{o, l, h, c}
	if c < o {
		prices = [4]price.Price{o, h, l, c}
	}
	sizes := [4]int64{vol / 4, vol / 4, vol / 4, vol - 3*(vol/4)}
	var spent price.Price
	for i := range prices {
		v := prices[i] * price.Price(sizes[i])
		if turnover > 0 {
			// Split the reported amount in proportion to size; the close takes the remainder.
			v = price.Price(math.Round(float64(turnover) * float64(sizes[i]) / float64(vol)))
			if i == 3 {
				v = turnover - spent
			}
			spent += v
		}
		rp.events = append(rp.events, replayEvent{at: day.Add(barTimes[i]), symbol: rec[1], price: prices[i], size: sizes[i], value: v})
	}
	return nil
}

// Advance plays every event up to now.
func (rp *Replay) Advance(now time.Time) {
	for rp.next < len(rp.events) && !rp.events[rp.next].at.After(now) {
		e := rp.events[rp.next]
		rp.next++
		if e.ref > 0 {
			rp.StartDay(e.symbol, e.at, e.ref)
			continue
		}
		rp.Trade(e.symbol, e.at, e.price, e.size, e.value)
	}
}

// Done reports whether every event has been played.
func (rp *Replay) Done() bool { return rp.next >= len(rp.events) }

// Run plays the file against a clock: now() is mapped onto the file's time line so that it
// starts at the first event and runs speed times faster than real time.
func (rp *Replay) Run(ctx context.Context, now func() time.Time, speed float64, every time.Duration) error {
	if len(rp.events) == 0 {
		return nil
	}
	start, first := now(), rp.events[0].at
	t := time.NewTicker(every)
	defer t.Stop()
	for !rp.Done() {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
			elapsed := time.Duration(float64(now().Sub(start)) * speed)
			rp.Advance(first.Add(elapsed))
		}
	}
	return nil
}
