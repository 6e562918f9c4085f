package httpx

import (
	"errors"
	"net/http"

	"github.com/lotbook/lotbook/api/wire"
	"github.com/lotbook/lotbook/market"
)

// Listed is the instrument an ops form lists an offering of: the market feed's, named as the form
// names it when it does. A code the feed does not know answers 404 symbol_not_found.
func Listed(feed *market.Service, symbol string, name *string) (market.Instrument, error) {
	in, err := feed.Instrument(symbol)
	if errors.Is(err, market.ErrUnknownSymbol) {
		return market.Instrument{}, Refuse(http.StatusNotFound, wire.MessageKeySymbolNotFound, err)
	}
	if err != nil {
		return market.Instrument{}, err
	}
	if name != nil {
		in.Name = *name
	}
	return in, nil
}
