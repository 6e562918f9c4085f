package commands

import (
	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/commands/rules/fees"
)

// ListingQuote is what the market feed says of a security when ops list something of it (a block
// trade, a chip grab offering): its name and tax kind, the day's reference price and price band.
// An empty Symbol: the feed does not quote it.
type ListingQuote struct {
	Symbol, Name                  string
	Kind                          fees.Kind
	Reference, LimitUp, LimitDown decimal.Decimal
}
