package auction

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/lotbook/lotbook/commands/rules/draw"
	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/events/sqlite/sqlitetest"
)

// wholeLogRefused is a store whose reads of the whole log fail.
type wholeLogRefused struct{ events.Store }

func (wholeLogRefused) ReadAll(context.Context, int64, int) ([]events.RecordedEvent, error) {
	return nil, errors.New("the whole log was read")
}

// TestVerifyReadsTheEntrantsStreams: an award that records its entrants is checked from the
// auction's stream and those members' accounts; one recorded before awards named their entrants
// (already in logs) is still checked, from the whole log.
func TestVerifyReadsTheEntrantsStreams(t *testing.T) {
	ctx := context.Background()
	commit, _ := draw.Commitment(seed)
	bids := []events.AuctionBidPlaced{
		{AuctionID: listing.OfferingID, BidNo: "B1", Price: d("99"), Lots: 4, Shares: 4000},
		{AuctionID: listing.OfferingID, BidNo: "B2", Price: d("97"), Lots: 4, Shares: 4000},
		{AuctionID: listing.OfferingID, BidNo: "B3", Price: d("97"), Lots: 4, Shares: 4000},
	}
	in := make([]events.AuctionBid, len(bids))
	for i, b := range bids {
		in[i] = events.AuctionBid{No: b.BidNo, Price: b.Price, Lots: b.Lots}
	}
	grants, err := award(seed, in, listing.Lots, listing.LotShares)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name     string
		entrants []string
		refused  bool
	}{{"entrants recorded", []string{"m1", "m2"}, false}, {"entrants not recorded", nil, true}} {
		t.Run(c.name, func(t *testing.T) {
			st := sqlitetest.Open(t)
			put := func(stream string, p events.Payload) {
				typ, data, err := events.Encode(p)
				if err != nil {
					t.Fatal(err)
				}
				ev := events.EventData{ID: events.EventID(typ+string(data), stream, 0), Type: typ, Data: data,
					Metadata: events.Metadata{CommandID: "test", Actor: "system", ServerTime: time.Now()}}
				if _, err := st.Append(ctx, stream, events.AnyVersion, []events.EventData{ev}); err != nil {
					t.Fatal(err)
				}
			}
			put(events.AuctionStream(listing.OfferingID), listing)
			put(events.AuctionStream(listing.OfferingID), events.AuctionSeedCommitted{OfferingSeed: events.OfferingSeed{
				OfferingID: listing.OfferingID, Commitment: commit, Algorithm: draw.Algorithm}})
			for i, b := range bids {
				put(events.AccountStream([]string{"m1", "m2", "m2"}[i]), b)
			}
			put(events.AuctionStream(listing.OfferingID), events.AuctionAwarded{AuctionID: listing.OfferingID, Seed: seed, Commitment: commit,
				Algorithm: verifier.Algorithm, Lots: listing.Lots, LotShares: listing.LotShares, Bids: in, Grants: grants, Entrants: c.entrants})
			check, err := Verify(ctx, wholeLogRefused{st}, listing.OfferingID)
			if c.refused {
				if err == nil {
					t.Fatalf("checked an award without entrants from its streams alone: %+v", check)
				}
				check, err = Verify(ctx, st, listing.OfferingID)
			}
			if err != nil || !check.Verified || len(check.Entries) != 3 {
				t.Fatalf("check %+v %v", check, err)
			}
		})
	}
}
