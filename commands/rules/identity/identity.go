// Package identity holds the rules for login accounts and passwords: Taiwan mobile numbers,
// Taiwan ID numbers with their check digit, login passwords and fund passwords.
package identity

import (
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// ValidMobile reports whether s is a Taiwan mobile number: 10 digits starting with 09.
func ValidMobile(s string) bool {
	if len(s) != 10 || !strings.HasPrefix(s, "09") {
		return false
	}
	return allDigits(s)
}

// letterCodes are the two-digit values of the first letter of a Taiwan ID number (the letters
// follow the order in which the issuing areas were created, hence I, O, W, X, Y and Z out of order).
var letterCodes = map[byte]int{
	'A': 10, 'B': 11, 'C': 12, 'D': 13, 'E': 14, 'F': 15, 'G': 16, 'H': 17, 'I': 34,
	'J': 18, 'K': 19, 'L': 20, 'M': 21, 'N': 22, 'O': 35, 'P': 23, 'Q': 24, 'R': 25,
	'S': 26, 'T': 27, 'U': 28, 'V': 29, 'W': 32, 'X': 30, 'Y': 31, 'Z': 33,
}

// ValidTaiwanID reports whether s is a Taiwan national ID number (an upper-case letter, 1 or 2,
// eight more digits) or a new-format resident certificate number (second character 8 or 9, issued
// since 2021), with a correct check digit: the letter's two-digit code weighted 1 and 9, the next
// eight digits weighted 8 down to 1, the check digit weighted 1, the sum divisible by 10.
func ValidTaiwanID(s string) bool {
	if len(s) != 10 {
		return false
	}
	code, ok := letterCodes[s[0]]
	if !ok || !allDigits(s[1:]) {
		return false
	}
	switch s[1] {
	case '1', '2', '8', '9':
	default:
		return false
	}
	sum := code/10 + (code%10)*9
	for i := 1; i <= 8; i++ {
		sum += int(s[i]-'0') * (9 - i)
	}
	sum += int(s[9] - '0')
	return sum%10 == 0
}

// NormalizeAccount returns the canonical form of a login account: an ID number typed with a
// lower-case letter is upper-cased so that both spellings are one account; anything else is
// returned unchanged (no trimming: a space makes the account invalid, it is not silently fixed).
func NormalizeAccount(s string) string {
	if len(s) == 10 && s[0] >= 'a' && s[0] <= 'z' {
		if up := strings.ToUpper(s[:1]) + s[1:]; ValidTaiwanID(up) {
			return up
		}
	}
	return s
}

// ValidMemberAccount reports whether s (normalised) may register as a member: a mobile number
// or a Taiwan ID number.
func ValidMemberAccount(s string) bool { return ValidMobile(s) || ValidTaiwanID(s) }

// ValidStaffAccount reports whether s is a plain staff user name: 2 to 32 lower-case letters,
// digits, '.', '_' or '-', starting with a letter. Staff are created by ops tooling only.
func ValidStaffAccount(s string) bool {
	if len(s) < 2 || len(s) > 32 || s[0] < 'a' || s[0] > 'z' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// ValidLoginPassword reports whether s is 8 to 20 ASCII letters or digits. The spec's rule is
// "English letters or numbers, eight characters"; the issue lifts the cap to 20.
func ValidLoginPassword(s string) bool {
	if len(s) < 8 || len(s) > 20 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// ValidFundPassword reports whether s is exactly 6 ASCII digits.
func ValidFundPassword(s string) bool { return len(s) == 6 && allDigits(s) }

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// MaskID shows the first three and last three characters of an ID number with the middle
// starred (A123456789 -> A12****789); anything shorter than 7 characters is starred whole.
func MaskID(id string) string {
	if len(id) < 7 {
		return strings.Repeat("*", len(id))
	}
	return id[:3] + strings.Repeat("*", len(id)-6) + id[len(id)-3:]
}

// maxNameRunes bounds a person's name as typed (Chinese names are 2-4 characters, romanised ones
// longer).
const maxNameRunes = 50

// Combining marks a name may carry: at most maxMarkRun on one letter (Thai and Devanagari stack
// two; Vietnamese letters are single after NFC) and maxMarks in all. More is not a name but
// text piled with accents that breaks every screen and list showing it.
const (
	maxMarkRun = 2
	maxMarks   = 20
)

// NormalizeName puts a name in NFC (so a letter typed precomposed or as letter plus accent is one
// name), trims it and collapses runs of white space to one space, so that "王 小明 " and "王 小明"
// are one name.
func NormalizeName(s string) string {
	return norm.NFC.String(strings.Join(strings.Fields(s), " "))
}

// TooManyMarks reports whether s (normalised) carries more combining marks than a name does: more
// than maxMarkRun in a row or maxMarks in all.
func TooManyMarks(s string) bool {
	run, total := 0, 0
	for _, r := range s {
		if !unicode.Is(unicode.M, r) {
			run = 0
			continue
		}
		run++
		total++
		if run > maxMarkRun || total > maxMarks {
			return true
		}
	}
	return false
}

// ValidName reports whether s (normalised) is a person's name: 2 to 50 characters, letters of any
// script, with single spaces, '.', '·', '-' or '\” between them.
func ValidName(s string) bool {
	rs := []rune(s)
	if len(rs) < 2 || len(rs) > maxNameRunes {
		return false
	}
	for _, r := range rs {
		switch {
		case unicode.IsLetter(r), unicode.Is(unicode.Mn, r):
		case r == ' ' || r == '.' || r == '·' || r == '-' || r == '\'':
		default:
			return false
		}
	}
	return unicode.IsLetter(rs[0])
}

// SameName reports whether two names are the same person's as typed: equal after normalising,
// ignoring the case of Latin letters.
func SameName(a, b string) bool {
	return strings.EqualFold(NormalizeName(a), NormalizeName(b))
}
