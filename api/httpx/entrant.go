package httpx

import (
	"github.com/lotbook/lotbook/api/wire"
	"github.com/lotbook/lotbook/projections"
	"github.com/lotbook/lotbook/projections/funds"
)

// Entrants are the members of an ops list of an offering's entries (the lottery's, the auction's,
// the placement's), each as ops see it: the login account (the phone number) and the name.
// memberOf is the member of entry i of n; set gives entry i its member.
func Entrants(c *Call, rd *projections.Reader, n int, memberOf func(i int) string, set func(i int, who *wire.OfferingEntrant)) error {
	ids := make([]string, n)
	for i := range n {
		ids[i] = memberOf(i)
	}
	who, err := funds.Identities(c.Ctx(), rd, ids)
	if err != nil {
		return err
	}
	for i, id := range ids {
		if w, ok := who[id]; ok {
			set(i, &wire.OfferingEntrant{Account: w.Account, Name: w.Name})
		}
	}
	return nil
}
