// Package ipo is the published calendar of a new-share subscription: the state at a
// moment (nothing flips it by hand) and when each step of the lottery runs.
//
// States, from the calendar alone:
//
//   - not_started: before the window opens;
//   - to_subscribe: the window is open: members may apply;
//   - subscribing: the window has closed and the issue is in progress (draw, deduction, refunds)
//     until it lists;
//   - ended: the listing date has begun.
//
// Steps run at StepHour:00 Asia/Taipei of their date, before the market opens, and never before
// the window closes (a draw dated the window's last day runs at its close): the draw (the seed
// revealed) on the draw date, the winners' deduction on the deduction day, the losers' refunds
// and the waiver of unpaid winners on the refund day, the allotment on the listing date.
package ipo

import (
	"errors"
	"time"
)

// States of an issue.
const (
	NotStarted  = "not_started"
	ToSubscribe = "to_subscribe"
	Subscribing = "subscribing"
	Ended       = "ended"
)

// StepHour is the hour (Asia/Taipei) at which each dated step runs.
const StepHour = 8

// Taipei is the calendar's time zone.
var Taipei = func() *time.Location {
	l, err := time.LoadLocation("Asia/Taipei")
	if err != nil {
		return time.FixedZone("Asia/Taipei", 8*3600)
	}
	return l
}()

// Calendar is an issue's window and dates (YYYY-MM-DD, Asia/Taipei).
type Calendar struct {
	OpensAt, ClosesAt                                time.Time
	DrawDate, DeductionDate, RefundDate, ListingDate string
}

// Step names.
const (
	StepDraw   = "draw"
	StepDeduct = "deduct"
	StepRefund = "refund"
	StepAllot  = "allot"
)

// Steps are the calendar's steps in the order they run.
var Steps = []string{StepDraw, StepDeduct, StepRefund, StepAllot}

// At is when step runs: StepHour on its date, or the window's close if that is later.
func (c Calendar) At(step string) time.Time {
	day := map[string]string{StepDraw: c.DrawDate, StepDeduct: c.DeductionDate, StepRefund: c.RefundDate, StepAllot: c.ListingDate}[step]
	d, err := time.ParseInLocation(time.DateOnly, day, Taipei)
	if err != nil {
		return time.Time{}
	}
	if at := d.Add(StepHour * time.Hour); at.After(c.ClosesAt) {
		return at
	}
	return c.ClosesAt
}

// State is the state at now.
func (c Calendar) State(now time.Time) string {
	switch {
	case now.Before(c.OpensAt):
		return NotStarted
	case now.Before(c.ClosesAt):
		return ToSubscribe
	case now.Before(c.ListingStart()):
		return Subscribing
	}
	return Ended
}

// ListingStart is the start of the listing date: shares allotted may be sold from then.
func (c Calendar) ListingStart() time.Time {
	d, err := time.ParseInLocation(time.DateOnly, c.ListingDate, Taipei)
	if err != nil {
		return time.Time{}
	}
	return d
}

// Errors of Validate.
var (
	ErrWindow = errors.New("ipo: the window must open before it closes")
	ErrDates  = errors.New("ipo: dates must be YYYY-MM-DD with the window's last day <= draw date <= deduction day <= refund day <= listing date")
)

// Validate holds the calendar to its order: the window opens before it closes; the draw is on
// the window's last day or later (it runs after the close); then deduction, refund and listing,
// each on or after the one before.
func (c Calendar) Validate() error {
	if c.OpensAt.IsZero() || !c.OpensAt.Before(c.ClosesAt) {
		return ErrWindow
	}
	prev := c.ClosesAt.In(Taipei).Format(time.DateOnly)
	for _, day := range []string{c.DrawDate, c.DeductionDate, c.RefundDate, c.ListingDate} {
		if _, err := time.ParseInLocation(time.DateOnly, day, Taipei); err != nil || day < prev {
			return ErrDates
		}
		prev = day
	}
	return nil
}
