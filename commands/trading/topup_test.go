package trading

import "testing"

func TestParseTopUp(t *testing.T) {
	for _, c := range []struct{ in, key, want string }{
		{"70000", "", "70000"}, {" 1 ", "", "1"}, {"+5", "", "5"}, {"1000.0", "", "1000"},
		{"", "amount_required", ""}, {"1000.5", KeyAmountNotInteger, ""}, {"0", KeyAmountNotPositive, ""},
		{"-5", KeyAmountNotPositive, ""}, {"1e5", "amount_invalid", ""}, {"abc", "amount_invalid", ""},
		{"0x10", "amount_invalid", ""}, {"1000000001", "amount_above_maximum", ""},
	} {
		got, err := parseTopUp(c.in)
		switch {
		case c.key != "" && (err == nil || err.Key != c.key):
			t.Errorf("%q: %v, want %s", c.in, err, c.key)
		case c.key == "" && (err != nil || got.String() != c.want):
			t.Errorf("%q: %s %v, want %s", c.in, got, err, c.want)
		}
	}
}
