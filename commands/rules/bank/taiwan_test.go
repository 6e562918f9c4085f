package bank

import (
	"os"
	"regexp"
	"testing"
)

func TestTaiwanBanks(t *testing.T) {
	seen := map[string]bool{}
	for _, b := range TaiwanBanks {
		if !ValidBankCode(b.Code) || b.Zh == "" || b.En == "" || seen[b.Code] {
			t.Errorf("bad or repeated entry %+v", b)
		}
		seen[b.Code] = true
	}
	for code, want := range map[string]string{"004": "臺灣銀行", "700": "中華郵政", "822": "中國信託商業銀行", "808": "玉山商業銀行"} {
		if b, ok := LookupTaiwanBank(code); !ok || b.Zh != want {
			t.Errorf("LookupTaiwanBank(%q) = %+v, %v", code, b, ok)
		}
	}
	for _, code := range []string{"000", "999", "04", ""} {
		if _, ok := LookupTaiwanBank(code); ok {
			t.Errorf("LookupTaiwanBank(%q) found", code)
		}
	}
}

// The web's bank list is this one: same codes, same names.
func TestWebBankListMatches(t *testing.T) {
	src, err := os.ReadFile("../../../web/src/domain/wallet/banks.ts")
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`\['(\d{3})', '([^']+)', (?:'([^']*)'|"([^"]*)")\]`)
	rows := re.FindAllStringSubmatch(string(src), -1)
	if len(rows) != len(TaiwanBanks) {
		t.Fatalf("web lists %d banks, Go %d", len(rows), len(TaiwanBanks))
	}
	for i, r := range rows {
		b := TaiwanBanks[i]
		if en := r[3] + r[4]; r[1] != b.Code || r[2] != b.Zh || en != b.En {
			t.Errorf("row %d: web %v, Go %+v", i, r[1:], b)
		}
	}
}

func TestBranchCodes(t *testing.T) {
	for in, want := range map[string]bool{"0037": true, "1234": true, "037": false, "00370": false, "00a7": false, "": false} {
		if got := ValidBranchCode(in); got != want {
			t.Errorf("ValidBranchCode(%q) = %v", in, got)
		}
	}
}

func TestCardFields(t *testing.T) {
	if CardFieldsConfigName("bank") != "withdrawal.bank.cardFields" {
		t.Error(CardFieldsConfigName("bank"))
	}
	for in, want := range map[string][2]bool{"": {}, "ifsc": {true, false}, " upi , IFSC ": {true, true}, "iban,swift": {}} {
		got := ParseCardFields(in)
		if got[FieldIFSC] != want[0] || got[FieldUPI] != want[1] || len(got) > 2 {
			t.Errorf("ParseCardFields(%q) = %v", in, got)
		}
	}
}
