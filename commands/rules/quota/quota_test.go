package quota

import "testing"

func TestClaim(t *testing.T) {
	for _, c := range []struct {
		name                             string
		remaining, lots, held, perMember int64
		want                             string
	}{
		{"plenty left", 100, 5, 0, 20, ""},
		{"takes the last lots exactly", 5, 5, 0, 20, ""},
		{"one lot more than is left", 4, 5, 0, 20, Insufficient},
		{"nothing left", 0, 1, 0, 20, Insufficient},
		{"up to the member cap", 100, 5, 15, 20, ""},
		{"past the member cap", 100, 6, 15, 20, OverMember},
		{"member cap checked first", 0, 30, 0, 20, OverMember},
	} {
		if got := Claim(c.remaining, c.lots, c.held, c.perMember); got != c.want {
			t.Errorf("%s: Claim = %q, want %q", c.name, got, c.want)
		}
	}
}

func TestRelease(t *testing.T) {
	for _, c := range []struct{ remaining, lots, total, want int64 }{
		{0, 5, 100, 5}, {95, 5, 100, 100}, {98, 5, 100, 100},
	} {
		if got := Release(c.remaining, c.lots, c.total); got != c.want {
			t.Errorf("Release(%d, %d, %d) = %d, want %d", c.remaining, c.lots, c.total, got, c.want)
		}
	}
}
