package events

import (
	"strings"

	"github.com/shopspring/decimal"
)

// The auction's and the placement's samples for the golden files.
func init() {
	member := MemberID("0912345678")
	d := decimal.RequireFromString
	terms := OfferingTerms{OfferingID: "6805-20261124", Symbol: "6805", Name: "富世達", Market: MarketTW, Currency: "TWD", LotShares: 1000,
		OpensAt: mustTime("2026-11-24T01:00:00Z"), ClosesAt: mustTime("2026-11-26T06:00:00Z"), ListingDate: "2026-12-03"}
	seed := OfferingSeed{OfferingID: "6805-20261124", Commitment: strings.Repeat("5e", 32), Algorithm: "sha256-counter-fisher-yates/v1"}
	delivery := func(house string) OfferingDelivery {
		return OfferingDelivery{OfferingID: "6805-20261124", No: "A20261124000000000000001", Symbol: "6805", Name: "富世達", Security: "TW:6805",
			Shares: 2000, Price: d("101.5"), Basis: d("203000"), PaidDate: "2026-11-27", ListingDate: "2026-12-03",
			Postings: TransferShares(house, MemberAccount(member, KindShares), "TW:6805", 2000)}
	}
	samples = append(samples,
		AuctionListed{OfferingTerms: terms, Lots: 500, MinPrice: d("95"), MaxLotsPerBidder: 50, DepositRate: d("0.2"), AwardDate: "2026-11-27"},
		AuctionSeedCommitted{seed},
		AuctionBidPlaced{AuctionID: "6805-20261124", BidNo: "A20261124000000000000001", Symbol: "6805", Name: "富世達", Price: d("101.5"),
			Lots: 3, Shares: 3000, Amount: d("304500"), Deposit: d("60900"),
			Postings: Transfer(MemberAvailable(member), MemberFrozen(member), "TWD", d("60900"))},
		AuctionAwarded{AuctionID: "6805-20261124", Seed: strings.Repeat("a7", 32), Commitment: strings.Repeat("5e", 32),
			Algorithm: "sha256-counter-fisher-yates/v1", Lots: 500, LotShares: 1000,
			Bids:   []AuctionBid{{No: "A20261124000000000000001", Price: d("101.5"), Lots: 3}, {No: "A20261124000000000000002", Price: d("99"), Lots: 600}},
			Grants: []Grant{{No: "A20261124000000000000001", Shares: 3000, Price: d("101.5")}, {No: "A20261124000000000000002", Shares: 497000, Price: d("99")}}},
		AuctionSettled{OfferingSettlement{OfferingID: "6805-20261124", No: "A20261124000000000000001", Shares: 2000, Price: d("101.5"),
			Cost: d("203000"), FromFrozen: d("60900"), FromAvailable: d("142100"), Released: d("0"),
			Postings: append(Transfer(MemberFrozen(member), HouseAuctionClearing, "TWD", d("60900")),
				Transfer(MemberAvailable(member), HouseAuctionClearing, "TWD", d("142100"))...)}},
		AuctionForfeited{AuctionID: "6805-20261124", BidNo: "A20261124000000000000001", Cost: d("304500"), Deposit: d("60900"), Available: d("12"),
			Postings: Transfer(MemberFrozen(member), HouseAuctionClearing, "TWD", d("60900"))},
		AuctionDelivered{delivery(HouseAuctionShares)},
		PlacementOffered{OfferingTerms: terms, Price: d("88"), Lots: 200, MaxLotsPerMember: 10},
		PlacementSeedCommitted{seed},
		PlacementApplied{PlacementID: "6805-20261124", ApplicationNo: "P20261124000000000000001", Symbol: "6805", Name: "富世達", Lots: 3,
			Shares: 3000, Price: d("88"), Amount: d("264000"), Postings: Transfer(MemberAvailable(member), MemberFrozen(member), "TWD", d("264000"))},
		PlacementAllotmentRequested{PlacementID: "6805-20261124", At: mustTime("2026-11-27T02:00:00Z")},
		PlacementAllotted{PlacementID: "6805-20261124", Seed: strings.Repeat("a7", 32), Commitment: strings.Repeat("5e", 32),
			Algorithm: "sha256-counter-fisher-yates/v1", Shares: 200000,
			Requests: []Grant{{No: "P20261124000000000000001", Shares: 3000, Price: d("88")}},
			Grants:   []Grant{{No: "P20261124000000000000001", Shares: 2143, Price: d("88")}}},
		PlacementSettled{OfferingSettlement{OfferingID: "6805-20261124", No: "P20261124000000000000001", Shares: 2143, Price: d("88"),
			Cost: d("188584"), FromFrozen: d("188584"), FromAvailable: d("0"), Released: d("75416"),
			Postings: append(Transfer(MemberFrozen(member), HousePlacementClearing, "TWD", d("188584")),
				Transfer(MemberFrozen(member), MemberAvailable(member), "TWD", d("75416"))...)}},
		PlacementDelivered{delivery(HousePlacementShares)},
	)
}
