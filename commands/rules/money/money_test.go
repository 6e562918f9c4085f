package money

import (
	"errors"
	"strings"
	"testing"

	"github.com/shopspring/decimal"
)

func TestParseAmount(t *testing.T) {
	tests := []struct {
		in, cur string
		want    string // decimal value when accepted
		err     error
	}{
		{"1000", "TWD", "1000", nil},
		{"1000.5", "TWD", "1000.5", nil},
		{"1000.55", "TWD", "1000.55", nil},
		{"0.01", "TWD", "0.01", nil},
		{"0100", "TWD", "100", nil}, // leading zeros are only zeros
		{"999999999999999", "TWD", "999999999999999", nil},
		{"500", "JPY", "500", nil},
		{"12.34", "USD", "12.34", nil},
		{"", "TWD", "", ErrRequired},
		{"0", "TWD", "", ErrInvalid},
		{"0.00", "TWD", "", ErrInvalid},
		{"-5", "TWD", "", ErrInvalid},
		{"+5", "TWD", "", ErrInvalid},
		{"-0", "TWD", "", ErrInvalid},
		{"1000.555", "TWD", "", ErrInvalid}, // more decimals than TWD allows
		{"1000.000", "TWD", "", ErrInvalid}, // counted as typed
		{"500.5", "JPY", "", ErrInvalid},
		{"500.0", "KRW", "", ErrInvalid},
		{"500.", "TWD", "", ErrInvalid},
		{".5", "TWD", "", ErrInvalid},
		{"1e3", "TWD", "", ErrInvalid},
		{"1E3", "TWD", "", ErrInvalid},
		{"1.0e2", "TWD", "", ErrInvalid},
		{"NaN", "TWD", "", ErrInvalid},
		{"nan", "TWD", "", ErrInvalid},
		{"Inf", "TWD", "", ErrInvalid},
		{"+Inf", "TWD", "", ErrInvalid},
		{"Infinity", "TWD", "", ErrInvalid},
		{" 100", "TWD", "", ErrInvalid},
		{"100 ", "TWD", "", ErrInvalid},
		{"1 000", "TWD", "", ErrInvalid},
		{"1,000", "TWD", "", ErrInvalid},
		{"1_000", "TWD", "", ErrInvalid},
		{"0x10", "TWD", "", ErrInvalid},
		{"1.2.3", "TWD", "", ErrInvalid},
		{"１００", "TWD", "", ErrInvalid}, // full-width digits
		{"100\n", "TWD", "", ErrInvalid},
		{"abc", "TWD", "", ErrInvalid},
		{"1000000000000000", "TWD", "", ErrInvalid}, // 16 integer digits
		{strings.Repeat("1", 40), "TWD", "", ErrInvalid},
		{"0." + strings.Repeat("0", 40) + "1", "TWD", "", ErrInvalid},
	}
	for _, tc := range tests {
		got, err := ParseAmount(tc.in, tc.cur)
		if !errors.Is(err, tc.err) {
			t.Errorf("ParseAmount(%q, %s) error = %v, want %v", tc.in, tc.cur, err, tc.err)
			continue
		}
		if err == nil && !got.Equal(decimal.RequireFromString(tc.want)) {
			t.Errorf("ParseAmount(%q, %s) = %s, want %s", tc.in, tc.cur, got, tc.want)
		}
	}
}

// ParseDecimal is ParseAmount's grammar with the decimals given: what prices (2) and leverage
// (2) are parsed with.
func TestParseDecimal(t *testing.T) {
	tests := []struct {
		in     string
		places int32
		want   string
		err    error
	}{
		{"100", 2, "100", nil},
		{"99.55", 2, "99.55", nil},
		{"1.11", 2, "1.11", nil},
		{"7", 0, "7", nil},
		{"", 2, "", ErrRequired},
		{"1e2", 2, "", ErrInvalid},
		{"15e-1", 2, "", ErrInvalid},
		{"+2", 2, "", ErrInvalid},
		{"-2", 2, "", ErrInvalid},
		{" 2", 2, "", ErrInvalid},
		{"2\t", 2, "", ErrInvalid},
		{"1.500", 2, "", ErrInvalid},
		{"1.5", 0, "", ErrInvalid},
		{"2.", 2, "", ErrInvalid},
		{".5", 2, "", ErrInvalid},
		{"0", 2, "", ErrInvalid},
		{"Inf", 2, "", ErrInvalid},
		{"٣", 2, "", ErrInvalid}, // Arabic-Indic digit
	}
	for _, tc := range tests {
		got, err := ParseDecimal(tc.in, tc.places)
		if !errors.Is(err, tc.err) {
			t.Errorf("ParseDecimal(%q, %d) error = %v, want %v", tc.in, tc.places, err, tc.err)
			continue
		}
		if err == nil && !got.Equal(decimal.RequireFromString(tc.want)) {
			t.Errorf("ParseDecimal(%q, %d) = %s, want %s", tc.in, tc.places, got, tc.want)
		}
	}
}

func TestMinorUnitsAndFormat(t *testing.T) {
	tests := []struct {
		cur   string
		units int32
		in    string
		out   string
	}{
		{"TWD", 2, "1000", "1000.00"},
		{"USD", 2, "12.5", "12.50"},
		{"JPY", 0, "500", "500"},
		{"KRW", 0, "500", "500"},
		{"VND", 0, "500", "500"},
		{"HKD", 2, "1", "1.00"},
	}
	for _, tc := range tests {
		if got := MinorUnits(tc.cur); got != tc.units {
			t.Errorf("MinorUnits(%s) = %d, want %d", tc.cur, got, tc.units)
		}
		if got := Format(decimal.RequireFromString(tc.in), tc.cur); got != tc.out {
			t.Errorf("Format(%s, %s) = %s, want %s", tc.in, tc.cur, got, tc.out)
		}
	}
}

func TestErrorIsItsKey(t *testing.T) {
	if ErrRequired.Error() != "amount_required" || ErrInvalid.Error() != "amount_invalid" {
		t.Fatal("message keys changed")
	}
}

// FuzzParseAmount: never panics; whatever is accepted is positive, within the currency's
// precision, and survives a round trip through its canonical and fixed forms.
func FuzzParseAmount(f *testing.F) {
	for _, s := range []string{"1000", "0.01", "1e3", "NaN", "-1", "+1", "1.005", "", " 1", "00.10", "999999999999999.99", "1.", ".1",
		"15e-1", "100.000", "2\t", "٣"} {
		f.Add(s, "TWD")
	}
	f.Add("500", "JPY")
	f.Add("500.5", "KRW")
	f.Fuzz(func(t *testing.T, s, cur string) {
		d, err := ParseAmount(s, cur)
		if err != nil {
			if err != ErrRequired && err != ErrInvalid {
				t.Fatalf("ParseAmount(%q) returned a foreign error %v", s, err)
			}
			if (err == ErrRequired) != (s == "") {
				t.Fatalf("ParseAmount(%q) = %v", s, err)
			}
			return
		}
		if !d.IsPositive() {
			t.Fatalf("ParseAmount(%q) accepted non-positive %s", s, d)
		}
		if -d.Exponent() > MinorUnits(cur) {
			t.Fatalf("ParseAmount(%q, %q) kept %d decimals", s, cur, -d.Exponent())
		}
		for _, form := range []string{d.String(), Format(d, cur)} {
			back, err := ParseAmount(form, cur)
			if err != nil {
				t.Fatalf("round trip of %q via %q: %v", s, form, err)
			}
			if !back.Equal(d) {
				t.Fatalf("round trip of %q via %q gave %s", s, form, back)
			}
		}
	})
}

func TestConvert(t *testing.T) {
	d := decimal.RequireFromString
	cases := []struct{ amount, rate, to, want string }{
		{"1000", "0.03125", "USD", "31.25"},
		{"1000", "0.0312499", "USD", "31.24"}, // 31.2499 rounds down
		{"31.25", "32", "TWD", "1000"},
		{"100", "4.6875", "JPY", "468"}, // JPY has no minor unit
		{"0.01", "0.0003", "USD", "0"},  // too small to convert
		{"1", "25000.5", "VND", "25000"},
	}
	for _, c := range cases {
		if got := Convert(d(c.amount), d(c.rate), c.to); !got.Equal(d(c.want)) {
			t.Errorf("Convert(%s, %s, %s) = %s, want %s", c.amount, c.rate, c.to, got, c.want)
		}
	}
}
