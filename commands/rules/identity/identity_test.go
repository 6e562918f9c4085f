package identity

import (
	"strings"
	"testing"
)

func TestValidMobile(t *testing.T) {
	tests := []struct {
		in   string
		want bool
	}{
		{"0912345678", true},
		{"0987654321", true},
		{"0900000000", true},
		{"091234567", false},   // 9 digits
		{"09123456789", false}, // 11 digits
		{"0812345678", false},  // not 09
		{"9912345678", false},
		{"09123456a8", false},
		{"０912345678", false}, // full-width digit
		{" 912345678", false},
		{"0912345678 ", false},
		{"", false},
		{"+886912345", false},
	}
	for _, tc := range tests {
		if got := ValidMobile(tc.in); got != tc.want {
			t.Errorf("ValidMobile(%q) = %v, want %v", tc.in, got, tc.want)
		}
	}
}

func TestValidTaiwanID(t *testing.T) {
	tests := []struct {
		in   string
		want bool
	}{
		{"A123456789", true}, // the textbook example
		{"B200000004", true},
		{"Z100000002", true},
		{"I200000014", true}, // I is 34, out of alphabetical order
		{"O111111116", true}, // O is 35
		{"W123456789", true}, // W is 32
		{"F131104093", true},
		{"K222222226", true},
		{"A800000014", true},  // new resident certificate, 8
		{"H912345670", true},  // new resident certificate, 9
		{"A123456788", false}, // wrong check digit
		{"A123456780", false},
		{"B200000005", false},
		{"F131104094", false},
		{"A323456789", false}, // second digit must be 1, 2, 8 or 9
		{"A023456789", false},
		{"a123456789", false}, // lower case: NormalizeAccount fixes it first
		{"1123456789", false},
		{"A12345678", false},
		{"A1234567890", false},
		{"AB23456789", false}, // old resident certificate format is not a login account
		{"A12345678X", false},
		{"", false},
	}
	for _, tc := range tests {
		if got := ValidTaiwanID(tc.in); got != tc.want {
			t.Errorf("ValidTaiwanID(%q) = %v, want %v", tc.in, got, tc.want)
		}
	}
}

func TestNormalizeAccount(t *testing.T) {
	tests := []struct{ in, want string }{
		{"a123456789", "A123456789"},
		{"A123456789", "A123456789"},
		{"a123456788", "a123456788"}, // not an ID either way: unchanged, then rejected
		{"0912345678", "0912345678"},
		{"ops", "ops"},
		{" 0912345678", " 0912345678"},
	}
	for _, tc := range tests {
		if got := NormalizeAccount(tc.in); got != tc.want {
			t.Errorf("NormalizeAccount(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestValidMemberAndStaffAccount(t *testing.T) {
	member := []struct {
		in   string
		want bool
	}{
		{"0912345678", true}, {"A123456789", true}, {"ops", false}, {"0912345678x", false},
	}
	for _, tc := range member {
		if got := ValidMemberAccount(tc.in); got != tc.want {
			t.Errorf("ValidMemberAccount(%q) = %v, want %v", tc.in, got, tc.want)
		}
	}
	staff := []struct {
		in   string
		want bool
	}{
		{"ops", true}, {"audit", true}, {"ops.lee", true}, {"ops_2", true}, {"a-b", true},
		{"o", false}, {"Ops", false}, {"2ops", false}, {"ops lee", false}, {"", false},
		{"abcdefghijabcdefghijabcdefghijab", true}, {"abcdefghijabcdefghijabcdefghijabc", false},
		{"ops@x", false},
	}
	for _, tc := range staff {
		if got := ValidStaffAccount(tc.in); got != tc.want {
			t.Errorf("ValidStaffAccount(%q) = %v, want %v", tc.in, got, tc.want)
		}
	}
}

func TestValidLoginPassword(t *testing.T) {
	tests := []struct {
		in   string
		want bool
	}{
		{"demo1234", true},
		{"opsdemo1", true},
		{"ABCDEFGH", true},
		{"12345678", true},
		{"abcdefghij0123456789", true},   // 20
		{"abcdefghij01234567890", false}, // 21
		{"demo123", false},               // 7
		{"demo 1234", false},
		{"demo-1234", false},
		{"démo12345", false},
		{"密碼密碼密碼密碼", false},
		{"", false},
	}
	for _, tc := range tests {
		if got := ValidLoginPassword(tc.in); got != tc.want {
			t.Errorf("ValidLoginPassword(%q) = %v, want %v", tc.in, got, tc.want)
		}
	}
}

func TestValidFundPassword(t *testing.T) {
	tests := []struct {
		in   string
		want bool
	}{
		{"123456", true}, {"000000", true},
		{"12345", false}, {"1234567", false}, {"12345a", false}, {"", false}, {"１２３４５６", false}, {" 12345", false},
	}
	for _, tc := range tests {
		if got := ValidFundPassword(tc.in); got != tc.want {
			t.Errorf("ValidFundPassword(%q) = %v, want %v", tc.in, got, tc.want)
		}
	}
}

func TestMaskID(t *testing.T) {
	for in, want := range map[string]string{
		"A123456789": "A12****789",
		"AB12345":    "AB1*345",
		"A12345":     "******",
		"":           "",
	} {
		if got := MaskID(in); got != want {
			t.Errorf("MaskID(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestNames(t *testing.T) {
	for s, ok := range map[string]bool{
		"王小明":                   true,
		"Wang Xiao-Ming":        true,
		"Mary O'Neil":           true,
		"Abdul K. Rahman":       true,
		"阿美·族":                  true,
		"王":                     false,
		"":                      false,
		"Bob1":                  false,
		"-Bob":                  false,
		"Robert'); DROP --":     false,
		strings.Repeat("名", 51): false,
	} {
		if got := ValidName(NormalizeName(s)); got != ok {
			t.Errorf("ValidName(%q) = %v, want %v", s, got, ok)
		}
	}
	if NormalizeName("  王 \t小明  ") != "王 小明" {
		t.Errorf("NormalizeName = %q", NormalizeName("  王 \t小明  "))
	}
	same := [][2]string{{"王小明", " 王小明 "}, {"wang xiaoming", "WANG  XIAOMING"}, {"Nguy\u1ec5n", "Nguye\u0302\u0303n"}}
	for _, p := range same {
		if !SameName(p[0], p[1]) {
			t.Errorf("SameName(%q, %q) = false", p[0], p[1])
		}
	}
	if SameName("王小明", "王小名") || SameName("Wang", "Wong") {
		t.Error("different names compare equal")
	}
}

func TestNormalizeNameIsNFC(t *testing.T) {
	for in, want := range map[string]string{
		"Jose\u0301":                    "Jos\u00e9",            // e + combining acute is é
		"Nguye\u0302\u0303n  Va\u0306n": "Nguy\u1ec5n V\u0103n", // two marks on one letter compose to one
		"\u1100\u1161":                  "\uac00",               // Hangul jamo compose to a syllable
		"王 小明":                          "王 小明",
	} {
		if got := NormalizeName(in); got != want {
			t.Errorf("NormalizeName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestTooManyMarks(t *testing.T) {
	zalgo := "Bo" + strings.Repeat("\u0336\u0337\u0338", 10) + "b"
	for _, tc := range []struct {
		name string
		want bool
	}{
		{"王小明", false},
		{"Nguy\u1ec5n", false},
		{"Jose\u0301", false},
		{"\u0e2a\u0e21\u0e28\u0e31\u0e01\u0e14\u0e34\u0e4c", false}, // Thai: two marks stacked on one letter
		{"a\u0300\u0301", false},                                    // two in a row, no precomposed form
		{"a\u0300\u0301\u0302", true},                               // three in a row
		{strings.Repeat("a\u0300", 20), false},                      // 20 in all
		{strings.Repeat("a\u0300", 21), true},                       // 21 in all
		{NormalizeName(zalgo), true},
		{"a\u20dd", false}, // one enclosing mark: ValidName refuses it, not this bound
	} {
		if got := TooManyMarks(tc.name); got != tc.want {
			t.Errorf("TooManyMarks(%q) = %v, want %v", tc.name, got, tc.want)
		}
	}
}
