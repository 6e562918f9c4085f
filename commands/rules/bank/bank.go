// Package bank holds the rules for the bank card (account) a member withdraws to: Taiwan bank
// account numbers, bank codes, and the optional Indian IFSC and UPI fields the spec lists.
package bank

import (
	"regexp"
	"strings"
)

// NormalizeNumber removes the spaces and hyphens people type inside account numbers.
func NormalizeNumber(s string) string {
	return strings.Map(func(r rune) rune {
		if r == ' ' || r == '-' {
			return -1
		}
		return r
	}, s)
}

// ValidNumber reports whether s (normalised) is a bank account number: 10 to 16 digits. Taiwan
// bank account numbers are 10 to 16 digits long and carry no Luhn check digit (each bank has its
// own, unpublished scheme), so none is checked; debit card numbers (16 digits) pass as well.
func ValidNumber(s string) bool {
	return len(s) >= 10 && len(s) <= 16 && digits(s)
}

// ValidBankCode reports whether s is a three-digit bank code (Taiwan's financial institution
// code, e.g. 004 Bank of Taiwan, 700 Chunghwa Post).
func ValidBankCode(s string) bool { return len(s) == 3 && digits(s) }

var (
	ifscRE = regexp.MustCompile(`^[A-Z]{4}0[A-Z0-9]{6}$`)
	upiRE  = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{1,255}@[A-Za-z][A-Za-z0-9]{1,63}$`)
)

// ValidIFSC reports whether s is an Indian Financial System Code: four letters of the bank, a
// zero, six letters or digits of the branch.
func ValidIFSC(s string) bool { return ifscRE.MatchString(s) }

// ValidUPI reports whether s is a UPI virtual payment address: name@handle.
func ValidUPI(s string) bool { return upiRE.MatchString(s) }

// Last4 is what answers and logs show of a number.
func Last4(number string) string {
	if len(number) <= 4 {
		return number
	}
	return number[len(number)-4:]
}

// Mask is a number as shown: its last four digits after stars.
func Mask(last4 string) string { return "**** " + last4 }

func digits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}
