package httpx

import (
	"errors"
	"net/http"

	"github.com/lotbook/lotbook/api/wire"
	"github.com/lotbook/lotbook/commands/process/offering"
	"github.com/lotbook/lotbook/projections"
	"github.com/lotbook/lotbook/projections/funds"
)

// WithEntrants answers an ops list of an offering's entries (the lottery's applications, the
// auction's bids, the placement's applications) with each entry's member as ops see it: the
// login account (the phone number) and the name. memberOf is the member of entry i; set gives
// an entry its member.
func WithEntrants[T any](c *Call, rd *projections.Reader, out []T, memberOf func(i int) string, set func(e *T, who *wire.OfferingEntrant)) (Reply, error) {
	ids := make([]string, len(out))
	for i := range out {
		ids[i] = memberOf(i)
	}
	who, err := funds.Identities(c.Ctx(), rd, ids)
	if err != nil {
		return Reply{}, err
	}
	for i, id := range ids {
		if w, ok := who[id]; ok {
			set(&out[i], &wire.OfferingEntrant{Account: w.Account, Name: w.Name})
		}
	}
	return OK(out)
}

// Audit answers an auditor's re-run of an offering's result from the log (the auction's award,
// the placement's allotment, the lottery's draw): the check, or 404 not_found for an offering
// never listed.
func Audit[T any](check T, err error) (Reply, error) {
	if errors.Is(err, offering.ErrNoOffering) {
		return Reply{}, Refuse(http.StatusNotFound, wire.MessageKeyNotFound, err)
	}
	if err != nil {
		return Reply{}, err
	}
	return OK(check)
}
