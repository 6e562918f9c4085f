// Package allot is the published rules that decide what each entry of an auction or a placement
// gets, and how an entry is settled. The draws use commands/rules/draw with the offering's
// revealed seed, so an auditor re-runs every result from the log.
//
// Auction award ("price-desc-tie-draw/v1"): bids are taken by price, highest first. A price level
// whose lots all fit in what is left is awarded whole. At the first level that does not fit, the
// seed draws the order of that level's bids (draw.Winners over their numbers, sorted, all of
// them) and they are awarded in that order, each as many lots as it bid or as are left; the last
// one awarded may get part of its lots. Lower levels get nothing. Each bid pays its own price.
//
// Placement allotment ("pro-rata-floor-draw/v1"): when the shares asked for fit in the shares
// offered every application gets what it asked. Otherwise each gets shares offered × shares asked
// ÷ shares asked in all, rounded down to a whole share; the shares left (fewer than there are
// applications) go one each to the applications the seed draws (draw.Winners over all the
// application numbers, sorted).
package allot

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/commands/rules/draw"
)

// Algorithms name the rules above; they are recorded with every result.
const (
	AwardAlgorithm   = "price-desc-tie-draw/v1+" + draw.Algorithm
	ProRataAlgorithm = "pro-rata-floor-draw/v1+" + draw.Algorithm
)

// Bid is one bid of an auction: its number, price and lots.
type Bid struct {
	No    string
	Price decimal.Decimal
	Lots  int64
}

// Grant is what one entry gets: lots (an auction) or shares (a placement).
type Grant struct {
	No    string
	Units int64
}

// ErrEntries refuses entries with a repeated number or a quantity below one.
var ErrEntries = errors.New("allot: entries must have distinct numbers and at least one unit each")

// Award awards lots to bids (see the package comment). Grants are in award order; bids awarded
// nothing are left out.
func Award(seedHex string, bids []Bid, lots int64) ([]Grant, error) {
	if lots < 0 {
		return nil, fmt.Errorf("allot: %d lots", lots)
	}
	nos := make([]string, len(bids))
	for i, b := range bids {
		if b.Lots < 1 {
			return nil, ErrEntries
		}
		nos[i] = b.No
	}
	if err := distinct(nos); err != nil {
		return nil, err
	}
	byPrice := slices.Clone(bids)
	slices.SortFunc(byPrice, func(a, b Bid) int {
		if c := b.Price.Cmp(a.Price); c != 0 {
			return c
		}
		return strings.Compare(a.No, b.No)
	})
	var out []Grant
	left := lots
	for i := 0; i < len(byPrice) && left > 0; {
		j, level := i, int64(0)
		for j < len(byPrice) && byPrice[j].Price.Equal(byPrice[i].Price) {
			level += byPrice[j].Lots
			j++
		}
		tied := byPrice[i:j]
		if level > left {
			drawn, err := drawOrder(seedHex, tied)
			if err != nil {
				return nil, err
			}
			tied = drawn
		}
		for _, b := range tied {
			if left == 0 {
				break
			}
			n := min(b.Lots, left)
			out = append(out, Grant{No: b.No, Units: n})
			left -= n
		}
		i = j
	}
	return out, nil
}

// drawOrder is the order the seed draws a price level's bids in.
func drawOrder(seedHex string, tied []Bid) ([]Bid, error) {
	byNo := make(map[string]Bid, len(tied))
	nos := make([]string, len(tied))
	for i, b := range tied {
		byNo[b.No], nos[i] = b, b.No
	}
	slices.Sort(nos)
	order, err := draw.Winners(seedHex, nos, len(nos))
	if err != nil {
		return nil, err
	}
	out := make([]Bid, len(order))
	for i, no := range order {
		out[i] = byNo[no]
	}
	return out, nil
}

// ProRata allots shares to requests (units asked, see the package comment). Grants are in
// number order; requests allotted nothing are left out.
func ProRata(seedHex string, requests []Grant, shares int64) ([]Grant, error) {
	if shares < 0 {
		return nil, fmt.Errorf("allot: %d shares", shares)
	}
	reqs := slices.Clone(requests)
	slices.SortFunc(reqs, func(a, b Grant) int { return strings.Compare(a.No, b.No) })
	nos := make([]string, len(reqs))
	asked := decimal.Zero
	for i, r := range reqs {
		if r.Units < 1 {
			return nil, ErrEntries
		}
		nos[i] = r.No
		asked = asked.Add(decimal.NewFromInt(r.Units))
	}
	if err := distinct(nos); err != nil {
		return nil, err
	}
	got := make([]int64, len(reqs))
	if asked.LessThanOrEqual(decimal.NewFromInt(shares)) {
		for i, r := range reqs {
			got[i] = r.Units
		}
	} else {
		// Decimals keep shares × asked exact however large the offering.
		left := shares
		for i, r := range reqs {
			got[i] = decimal.NewFromInt(shares).Mul(decimal.NewFromInt(r.Units)).Div(asked).Floor().IntPart()
			left -= got[i]
		}
		winners, err := draw.Winners(seedHex, nos, int(left))
		if err != nil {
			return nil, err
		}
		at := make(map[string]int, len(nos))
		for i, no := range nos {
			at[no] = i
		}
		for _, w := range winners {
			got[at[w]]++
		}
	}
	var out []Grant
	for i, r := range reqs {
		if got[i] > 0 {
			out = append(out, Grant{No: r.No, Units: got[i]})
		}
	}
	return out, nil
}

func distinct(nos []string) error {
	s := slices.Clone(nos)
	slices.Sort(s)
	if len(slices.Compact(s)) != len(nos) {
		return ErrEntries
	}
	return nil
}

// Deposit is the deposit a bid of amount freezes at rate (a fraction), rounded up to a whole
// NT$ so that the deposit is never less than the rate says.
func Deposit(amount, rate decimal.Decimal) decimal.Decimal { return amount.Mul(rate).Ceil() }

// Settlement is how an entry's cost is paid: from its frozen cash first, the rest from
// available cash; what stays frozen is released.
type Settlement struct {
	FromFrozen, FromAvailable, Released decimal.Decimal
}

// Settle splits cost (the granted units at the entry's price) over frozen, the cash the entry
// froze.
func Settle(frozen, cost decimal.Decimal) Settlement {
	from := decimal.Min(frozen, cost)
	return Settlement{FromFrozen: from, FromAvailable: cost.Sub(from), Released: frozen.Sub(from)}
}
