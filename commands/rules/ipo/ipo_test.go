package ipo

import (
	"testing"
	"time"
)

func at(s string) time.Time {
	t, err := time.ParseInLocation("2006-01-02 15:04", s, Taipei)
	if err != nil {
		panic(err)
	}
	return t
}

var cal = Calendar{OpensAt: at("2026-11-24 09:00"), ClosesAt: at("2026-11-26 14:00"),
	DrawDate: "2026-11-30", DeductionDate: "2026-12-01", RefundDate: "2026-12-02", ListingDate: "2026-12-04"}

func TestState(t *testing.T) {
	cases := []struct {
		now  string
		want string
	}{
		{"2026-11-20 12:00", NotStarted},
		{"2026-11-24 08:59", NotStarted},
		{"2026-11-24 09:00", ToSubscribe},
		{"2026-11-26 13:59", ToSubscribe},
		{"2026-11-26 14:00", Subscribing},
		{"2026-12-03 23:59", Subscribing},
		{"2026-12-04 00:00", Ended},
		{"2027-01-01 00:00", Ended},
	}
	for _, c := range cases {
		if got := cal.State(at(c.now)); got != c.want {
			t.Errorf("State(%s) = %s, want %s", c.now, got, c.want)
		}
	}
}

func TestAt(t *testing.T) {
	cases := map[string]string{StepDraw: "2026-11-30 08:00", StepDeduct: "2026-12-01 08:00", StepRefund: "2026-12-02 08:00", StepAllot: "2026-12-04 08:00"}
	for step, want := range cases {
		if got := cal.At(step); !got.Equal(at(want)) {
			t.Errorf("At(%s) = %s, want %s", step, got, want)
		}
	}
}

// TestNoStepBeforeTheClose: steps dated the window's last day run at its close, not at 08:00.
func TestNoStepBeforeTheClose(t *testing.T) {
	c := cal
	c.DrawDate, c.DeductionDate, c.RefundDate, c.ListingDate = "2026-11-26", "2026-11-26", "2026-11-26", "2026-11-27"
	for _, step := range []string{StepDraw, StepDeduct, StepRefund} {
		if got := c.At(step); !got.Equal(c.ClosesAt) {
			t.Errorf("At(%s) = %s, want the close %s", step, got, c.ClosesAt)
		}
	}
	if got := c.At(StepAllot); !got.Equal(at("2026-11-27 08:00")) {
		t.Errorf("At(allot) = %s", got)
	}
}

func TestValidate(t *testing.T) {
	mod := func(f func(c *Calendar)) Calendar { c := cal; f(&c); return c }
	cases := []struct {
		name string
		c    Calendar
		err  error
	}{
		{"published order", cal, nil},
		{"same-day steps after the draw", mod(func(c *Calendar) { c.DeductionDate, c.RefundDate, c.ListingDate = c.DrawDate, c.DrawDate, c.DrawDate }), nil},
		{"window closes before it opens", mod(func(c *Calendar) { c.ClosesAt = c.OpensAt.Add(-time.Hour) }), ErrWindow},
		{"empty window", mod(func(c *Calendar) { c.ClosesAt = c.OpensAt }), ErrWindow},
		{"no window", Calendar{DrawDate: "2026-11-30"}, ErrWindow},
		{"draw on the window's last day", mod(func(c *Calendar) { c.DrawDate = "2026-11-26" }), nil},
		{"draw before the window's last day", mod(func(c *Calendar) { c.DrawDate = "2026-11-25" }), ErrDates},
		{"deduction before the draw", mod(func(c *Calendar) { c.DeductionDate = "2026-11-29" }), ErrDates},
		{"listing before the refund", mod(func(c *Calendar) { c.ListingDate = "2026-12-01" }), ErrDates},
		{"bad date", mod(func(c *Calendar) { c.RefundDate = "2026-12-2" }), ErrDates},
		{"bad month", mod(func(c *Calendar) { c.ListingDate = "2026-13-04" }), ErrDates},
	}
	for _, c := range cases {
		if err := c.c.Validate(); err != c.err {
			t.Errorf("%s: Validate = %v, want %v", c.name, err, c.err)
		}
	}
}
