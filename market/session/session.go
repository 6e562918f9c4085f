// Package session says which trading session of TWSE/TPEx is running at an instant (market-rules.md
// 1a), in Asia/Taipei, on the exchange's trading days; a demo schedule trades around the clock, its
// after-hours sessions included.
package session

import (
	"time"

	"github.com/lotbook/lotbook/market/calendar"
)

// Phase is the board-lot session.
type Phase int

const (
	Closed          Phase = iota
	PreOpen               // 08:30–09:00: orders accepted, not matched
	Continuous            // 09:00–13:25: opening call at 09:00, then continuous matching
	ClosingAuction        // 13:25–13:30: orders accepted, one call auction at 13:30
	AfterHoursFixed       // 14:00–14:30: orders at the day's close, matched at 14:30
)

var phaseNames = [...]string{"closed", "pre_open", "continuous", "closing_auction", "after_hours_fixed"}

func (p Phase) String() string { return phaseNames[p] }

// OddLot is the odd-lot (1–999 shares) session, which runs beside the board-lot sessions.
type OddLot int

const (
	OddClosed     OddLot = iota
	OddIntraday          // 09:00–13:30: call auction every 5 s
	OddAfterHours        // 13:40–14:30: one call auction at 14:30
)

var oddNames = [...]string{"closed", "intraday", "after_hours"}

func (o OddLot) String() string { return oddNames[o] }

// Session is what runs at an instant.
type Session struct {
	Phase  Phase
	OddLot OddLot
	// FixedPrice and OddAfterHours tell that the after-hours sessions (盤後定價, 盤後零股) take
	// orders. On the exchange they are the AfterHoursFixed phase and the OddAfterHours odd-lot
	// session; the demo runs them beside the day's sessions, which Phase and OddLot name.
	FixedPrice, OddAfterHours bool
	// Day is 00:00 Asia/Taipei of the trading day the instant belongs to; zero on a non-trading day.
	Day time.Time
}

// AcceptsOrders reports whether board-lot orders can be entered now.
func (s Session) AcceptsOrders() bool { return s.Phase != Closed }

// Hours are the times of one trading day's sessions. Offsets from the day's midnight keep the
// table short and the arithmetic exact (Taiwan has no daylight saving).
type Hours struct {
	PreOpen, Open, ContinuousEnd, Close   time.Duration
	AfterHoursOpen, AfterHoursClose       time.Duration
	OddIntradayOpen, OddIntradayClose     time.Duration
	OddAfterHoursOpen, OddAfterHoursClose time.Duration
	// AfterHoursEvery is the cadence of the after-hours sessions' call auctions while they take
	// orders; zero on the exchange, whose after-hours sessions hold one auction, when their order
	// entry ends (14:30).
	AfterHoursEvery time.Duration
}

// Exchange hours of market-rules.md 1a.
var Exchange = Hours{
	PreOpen: 8*time.Hour + 30*time.Minute, Open: 9 * time.Hour,
	ContinuousEnd: 13*time.Hour + 25*time.Minute, Close: 13*time.Hour + 30*time.Minute,
	AfterHoursOpen: 14 * time.Hour, AfterHoursClose: 14*time.Hour + 30*time.Minute,
	OddIntradayOpen: 9 * time.Hour, OddIntradayClose: 13*time.Hour + 30*time.Minute,
	OddAfterHoursOpen: 13*time.Hour + 40*time.Minute, OddAfterHoursClose: 14*time.Hour + 30*time.Minute,
}

// DemoAuctionEvery is the demo's cadence of the after-hours call auctions: short enough for a
// visitor to see an order matched, long enough to gather the orders of a minute.
const DemoAuctionEvery = time.Minute

// AroundTheClock are the demo hours: continuous trading from midnight to 23:50, the closing call
// auction until 23:55 and five quiet minutes in which the day rolls over. The after-hours sessions
// take orders beside them until 23:55 and hold a call auction every DemoAuctionEvery, their last
// one at 23:55, so that every session of the ticket can be tried at any hour.
var AroundTheClock = Hours{
	PreOpen: 0, Open: 0, ContinuousEnd: 23*time.Hour + 50*time.Minute, Close: 23*time.Hour + 55*time.Minute,
	OddIntradayOpen: 0, OddIntradayClose: 23*time.Hour + 55*time.Minute,
	AfterHoursOpen: 0, AfterHoursClose: 23*time.Hour + 55*time.Minute,
	OddAfterHoursOpen: 0, OddAfterHoursClose: 23*time.Hour + 55*time.Minute,
	AfterHoursEvery: DemoAuctionEvery,
}

// Schedule combines trading days and hours.
type Schedule struct {
	cal   *calendar.Calendar
	hours Hours
	every bool // every calendar day trades (demo)
}

// Taiwan is the exchange schedule: TWSE trading days and exchange hours.
func Taiwan() *Schedule { return &Schedule{cal: calendar.Taiwan(), hours: Exchange} }

// Demo trades every calendar day around the clock, so a visitor can try the app at any hour.
func Demo() *Schedule { return &Schedule{cal: calendar.Taiwan(), hours: AroundTheClock, every: true} }

// Location is Asia/Taipei.
func (s *Schedule) Location() *time.Location { return s.cal.Location() }

// Hours are the session times of every trading day.
func (s *Schedule) Hours() Hours { return s.hours }

// Demo reports whether this is the around-the-clock demo schedule.
func (s *Schedule) Demo() bool { return s.every }

// DayStart is 00:00 Asia/Taipei of t's calendar day.
func (s *Schedule) DayStart(t time.Time) time.Time {
	l := t.In(s.cal.Location())
	return time.Date(l.Year(), l.Month(), l.Day(), 0, 0, 0, 0, s.cal.Location())
}

// IsTradingDay reports whether t's day (in Asia/Taipei) trades.
func (s *Schedule) IsTradingDay(t time.Time) bool { return s.every || s.cal.IsTradingDay(t) }

// NextTradingDay is the start of the first trading day after t's day.
func (s *Schedule) NextTradingDay(t time.Time) time.Time {
	if s.every {
		return s.DayStart(t).AddDate(0, 0, 1)
	}
	return s.cal.NextTradingDay(t)
}

// PrevTradingDay is the start of the last trading day before t's day.
func (s *Schedule) PrevTradingDay(t time.Time) time.Time {
	d := s.DayStart(t)
	for {
		d = d.AddDate(0, 0, -1)
		if s.IsTradingDay(d) {
			return d
		}
	}
}

// At is the instant offset into day (a day start).
func (s *Schedule) At(day time.Time, offset time.Duration) time.Time {
	// Adding a duration is exact because Asia/Taipei has no daylight saving.
	return day.Add(offset)
}

// SessionAt is the session running at t.
func (s *Schedule) SessionAt(t time.Time) Session {
	day := s.DayStart(t)
	if !s.IsTradingDay(day) {
		return Session{}
	}
	off := t.Sub(day)
	h := s.hours
	in := func(from, to time.Duration) bool { return from < to && off >= from && off < to }
	out := Session{Day: day, FixedPrice: in(h.AfterHoursOpen, h.AfterHoursClose), OddAfterHours: in(h.OddAfterHoursOpen, h.OddAfterHoursClose)}
	switch {
	case in(h.Open, h.ContinuousEnd):
		out.Phase = Continuous
	case in(h.ContinuousEnd, h.Close):
		out.Phase = ClosingAuction
	case in(h.PreOpen, h.Open):
		out.Phase = PreOpen
	case in(h.AfterHoursOpen, h.AfterHoursClose):
		out.Phase = AfterHoursFixed
	}
	switch {
	case in(h.OddIntradayOpen, h.OddIntradayClose):
		out.OddLot = OddIntraday
	case in(h.OddAfterHoursOpen, h.OddAfterHoursClose):
		out.OddLot = OddAfterHours
	}
	return out
}

// NextOpen is the first opening (start of continuous trading, the opening call) at or after t.
func (s *Schedule) NextOpen(t time.Time) time.Time { return s.next(t, s.hours.Open) }

// NextClose is the first close (the closing call at 13:30) at or after t.
func (s *Schedule) NextClose(t time.Time) time.Time { return s.next(t, s.hours.Close) }

// next is the first instant at or after t that is offset into a trading day.
func (s *Schedule) next(t time.Time, offset time.Duration) time.Time {
	day := s.DayStart(t)
	if s.IsTradingDay(day) {
		if at := s.At(day, offset); !at.Before(t) {
			return at
		}
	}
	return s.At(s.NextTradingDay(day), offset)
}

// LastClose is the most recent close strictly before t (the close whose price stands outside sessions).
func (s *Schedule) LastClose(t time.Time) time.Time {
	day := s.DayStart(t)
	if s.IsTradingDay(day) {
		if c := s.At(day, s.hours.Close); c.Before(t) {
			return c
		}
	}
	return s.At(s.PrevTradingDay(day), s.hours.Close)
}

// TradingDay is the trading day whose prices apply at t: t's day from its opening call on, before
// that the previous trading day (whose close stands); started is false in the second case.
func (s *Schedule) TradingDay(t time.Time) (day time.Time, started bool) {
	d := s.DayStart(t)
	if s.IsTradingDay(d) && !t.Before(s.At(d, s.hours.Open)) {
		return d, true
	}
	return s.PrevTradingDay(d), false
}
