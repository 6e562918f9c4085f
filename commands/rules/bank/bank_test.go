package bank

import "testing"

func TestNumbers(t *testing.T) {
	for in, want := range map[string]bool{
		"0123456789":        true,
		"1234567890123456":  true,
		"4111111111111112":  true, // not Luhn-valid: Taiwan account numbers are not Luhn numbers
		"123456789":         false,
		"12345678901234567": false,
		"12345678901234x":   false,
		"":                  false,
		"１２３４５６７８９０":        false, // full-width digits
	} {
		if got := ValidNumber(NormalizeNumber(in)); got != want {
			t.Errorf("ValidNumber(%q) = %v, want %v", in, got, want)
		}
	}
	if NormalizeNumber("0123-4567 8901") != "012345678901" {
		t.Errorf("NormalizeNumber = %q", NormalizeNumber("0123-4567 8901"))
	}
	if Last4("0123456789") != "6789" || Mask("6789") != "**** 6789" || Last4("12") != "12" {
		t.Error("Last4/Mask")
	}
}

func TestCodes(t *testing.T) {
	for in, want := range map[string]bool{"004": true, "700": true, "04": false, "0044": false, "0a4": false, "": false} {
		if got := ValidBankCode(in); got != want {
			t.Errorf("ValidBankCode(%q) = %v", in, got)
		}
	}
	for in, want := range map[string]bool{
		"SBIN0001234": true, "HDFC0ABC123": true, "SBIN1001234": false, "sbin0001234": false,
		"SBIN000123": false, "SBI00001234": false, "SBIN00012345": false, "": false,
	} {
		if got := ValidIFSC(in); got != want {
			t.Errorf("ValidIFSC(%q) = %v", in, got)
		}
	}
	for in, want := range map[string]bool{
		"alice@okaxis": true, "a.b-c_d@ybl": true, "9876543210@paytm": true,
		"alice": false, "@okaxis": false, "alice@": false, "al ice@okaxis": false, "alice@ok axis": false, "a@b@c": false,
	} {
		if got := ValidUPI(in); got != want {
			t.Errorf("ValidUPI(%q) = %v", in, got)
		}
	}
}
