package api

import (
	"testing"

	"github.com/lotbook/lotbook/api/wire"
	"github.com/lotbook/lotbook/events"
)

// The fund records filter accepts the journal's declared line types; each must be a type the
// API describes (and the web names), so a capability that declares a type adds it to the
// FundRecordType enum too, and the enum names no type that no capability declares.
func TestFundRecordTypesAreJournalLineTypes(t *testing.T) {
	types := events.LineTypes()
	for _, typ := range types {
		if !wire.FundRecordType(typ).Valid() {
			t.Errorf("journal line type %q is not a FundRecordType in openapi.yaml", typ)
		}
	}
	declared := map[string]bool{}
	for _, typ := range types {
		declared[typ] = true
	}
	for _, typ := range contract.doc.Components.Schemas["FundRecordType"].Enum {
		if !declared[typ] {
			t.Errorf("FundRecordType %q in openapi.yaml is no declared journal line type", typ)
		}
	}
}
