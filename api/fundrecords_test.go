package api

import (
	"testing"

	"github.com/lotbook/lotbook/api/wire"
	"github.com/lotbook/lotbook/events"
)

// The fund records filter accepts the journal's declared line types; each must be a type the
// API describes (and the web translates), so a capability that declares a type adds it to the
// FundRecordType enum too.
func TestFundRecordTypesAreJournalLineTypes(t *testing.T) {
	types := events.LineTypes()
	for _, typ := range types {
		if !wire.FundRecordType(typ).Valid() {
			t.Errorf("journal line type %q is not a FundRecordType in openapi.yaml", typ)
		}
	}
	if len(types) != 25 {
		t.Errorf("journal line types %v, want the nine fund record types, the six of the subscription, the six of the auction and the four of the placement", types)
	}
}
