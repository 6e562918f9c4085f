package events

import (
	"time"

	"github.com/shopspring/decimal"
)

// Trading lives on the account stream (account-<id>) next to the member's cash: every rule that
// decides on an order reads one stream. A position is the shares one opening order bought (long)
// or sold short; its id is that order's number. Money moves in two phases: TradeCashFrozen
// reserves cash for an order (available -> frozen), OrderFilled posts what a fill costs or pays
// (frozen or house accounts -> house accounts or available), TradeCashReleased gives back what an
// order that is done no longer needs (frozen -> available).

// House accounts of trading.
var (
	HouseTradeClearing   = HouseAccount("trade_clearing")   // the market side of every trade
	HouseMarginLoans     = HouseAccount("margin_loans")     // the broker's financing of margin longs (negative while lent)
	HouseShortCollateral = HouseAccount("short_collateral") // short sale proceeds and short margin the broker holds
)

// Shares move on the ledger like money. The exchange is the other side of every traded share: a
// buy moves shares from house:exchange_shares to the member's shares account, a sale back. A
// member's shares account never goes below zero, so a short sale is not a negative holding there:
// the member sells shares the broker lent, and shares_borrowed carries them as a negative balance
// (shares owed) until the cover brings it back to zero.
var (
	HouseExchangeShares = Account{Kind: DeclareAccountKind(AccountKind{Name: "exchange_shares", Holds: HoldsShares})}.String()
	KindShares          = DeclareAccountKind(AccountKind{Member: true, Name: "shares", Holds: HoldsShares})
	KindSharesBorrowed  = DeclareAccountKind(AccountKind{Member: true, Name: "shares_borrowed", Holds: HoldsShares, Owed: true})
)

// MarketTW is the market code of securities listed in Taiwan (TWSE and TPEx).
const MarketTW = "TW"

// Order sides, position directions, order types and intents.
const (
	SideBuy        = "buy"
	SideSell       = "sell"
	DirectionLong  = "long"
	DirectionShort = "short"
	OrderLimit     = "limit"
	OrderMarket    = "market"
	IntentOpen     = "open"  // the order opens a position
	IntentClose    = "close" // the order closes (part of) a position
)

// Who or what placed an order.
const (
	OrderByMember        = "member"
	OrderByForcedClose   = "forced_close"    // the margin rule closed the position
	OrderByDayTradeClose = "day_trade_close" // a day trade still open at the end of the continuous session
)

// Why an order stopped working without filling completely.
const (
	CancelByMember        = "member"
	CancelMarketUnfilled  = "market_unfilled"  // a market order's rest that the book could not fill within its protective price
	CancelPositionClosing = "position_closing" // the rest of an opening order, cancelled when its position was closed
	CancelForcedClose     = "forced_close"     // cancelled to close the position by force
	CancelDayTradeClose   = "day_trade_close"  // cancelled to close a day trade at the end of the session
	CancelIOCUnfilled     = "ioc_unfilled"     // an IOC order's rest that the book could not fill at once
	CancelFOKUnfilled     = "fok_unfilled"     // a FOK order that the book could not fill whole at once
)

// BookLevel is one price level of the simulated book.
type BookLevel struct {
	Price decimal.Decimal `json:"price"`
	Size  int64           `json:"size"` // shares
}

// QuoteUsed is the market quote a decision used: last price, best five each side, its time.
type QuoteUsed struct {
	Time time.Time       `json:"time"`
	Last decimal.Decimal `json:"last"`
	Bids []BookLevel     `json:"bids"`
	Asks []BookLevel     `json:"asks"`
}

// Execution is the part of a fill traded at one price.
type Execution struct {
	Price  decimal.Decimal `json:"price"`
	Shares int64           `json:"shares"`
}

// OrderPlaced records an order. It moves no money; a buy's reservation is the TradeCashFrozen
// written with it. A closing order names the position it closes (PositionID); an opening order's
// position is itself (PositionID = OrderNo).
type OrderPlaced struct {
	OrderNo    string          `json:"orderNo"`
	PositionID string          `json:"positionId"`
	Intent     string          `json:"intent"` // open | close
	Symbol     string          `json:"symbol"`
	Name       string          `json:"name"`
	Kind       string          `json:"kind"`      // stock | etf | bond_etf: the transaction tax
	Side       string          `json:"side"`      // buy | sell
	Direction  string          `json:"direction"` // of the position: long | short
	Type       string          `json:"type"`      // limit | market
	Shares     int64           `json:"shares"`
	OddLot     bool            `json:"oddLot"`
	Price      decimal.Decimal `json:"price"` // the limit; for a market order its protective price
	Leverage   decimal.Decimal `json:"leverage"`
	DayTrade   bool            `json:"dayTrade"`   // opened as a day trade: closed automatically at the end of the continuous session
	TradingDay string          `json:"tradingDay"` // YYYY-MM-DD (Asia/Taipei): a day order expires when it ends
	By         string          `json:"by"`         // member | forced_close | day_trade_close
	Quote      QuoteUsed       `json:"quote"`
	// The ticket in Taiwan terms (empty on orders placed without them, which match as before):
	// condition cash | margin | short | day_trade, session regular | odd_intraday |
	// odd_after_hours | fixed_price, time in force ROD | IOC | FOK.
	Condition   string `json:"condition,omitempty"`
	Session     string `json:"session,omitempty"`
	TimeInForce string `json:"timeInForce,omitempty"`
	// Origin names what placed the order on the member's behalf ("" the member's own ticket): a
	// copy-trade follow's id for an order mirrored from a mentor.
	Origin string `json:"origin,omitempty"`
	// OriginName is what the member knows the origin by: the display name of the mentor a
	// mirrored order copies.
	OriginName string `json:"originName,omitempty"`
}

// TradeCashFrozen reserves cash for an order (available -> frozen): a buy's amount at its limit
// with the estimated commission (less the financing of a margin long), a short sale's margin, or
// what covering a short may cost beyond its collateral.
type TradeCashFrozen struct {
	OrderNo  string          `json:"orderNo"`
	Amount   decimal.Decimal `json:"amount"`
	Postings []Posting       `json:"postings"`
}

// OrderFilled is one match of an order against the book, at one or more price levels. Its
// postings move the traded amount between the member (or the broker's collateral and loans) and
// trade clearing, the commission to fees revenue and a sale's transaction tax to tax payable, and
// the traded shares between house:exchange_shares and the member's shares (long) or
// shares_borrowed (short) account.
//
// v2 added Security and the share legs. A v1 fill names no symbol (only its OrderPlaced does,
// which an upcaster cannot read), so v1 decodes as it was: no security, money legs only. A
// position whose first fill was v1 keeps its shares off the share ledger to its end.
type OrderFilled struct {
	OrderNo    string          `json:"orderNo"`
	PositionID string          `json:"positionId"`
	Security   string          `json:"security,omitempty"` // "TW:2330"; empty on v1 fills
	Seq        int             `json:"seq"`                // 1 for the order's first fill
	Side       string          `json:"side"`
	Executions []Execution     `json:"executions"`
	Shares     int64           `json:"shares"`
	Amount     decimal.Decimal `json:"amount"` // Σ price × shares
	Commission decimal.Decimal `json:"commission"`
	Tax        decimal.Decimal `json:"tax"`
	DayTrade   bool            `json:"dayTrade"` // taxed at the day-trade rate
	Loan       decimal.Decimal `json:"loan"`     // financing drawn (opening long) or repaid (closing long)
	Margin     decimal.Decimal `json:"margin"`   // short margin put up (opening short) or given back (covering)
	Cash       decimal.Decimal `json:"cash"`     // the member's cash: negative paid, positive received
	Profit     decimal.Decimal `json:"profit"`   // realised by a closing fill, net of fees and taxes
	// Basis is, for an opening fill, what the shares cost with commission (long) or brought in net
	// of commission and tax (short); for a closing fill, the part of the position's basis they carried.
	Basis      decimal.Decimal `json:"basis"`
	SettleDate string          `json:"settleDate,omitempty"`
	Remaining  int64           `json:"remaining"` // shares of the order still working
	Quote      QuoteUsed       `json:"quote"`
	Postings   []Posting       `json:"postings"`
}

// TradeCashReleased gives an order's unused reservation back (frozen -> available) once the order
// is done: filled, cancelled or expired.
type TradeCashReleased struct {
	OrderNo  string          `json:"orderNo"`
	Amount   decimal.Decimal `json:"amount"`
	Postings []Posting       `json:"postings"`
}

// OrderCancelled stops an order's unfilled shares.
type OrderCancelled struct {
	OrderNo    string `json:"orderNo"`
	PositionID string `json:"positionId"`
	Shares     int64  `json:"shares"` // unfilled shares cancelled
	Reason     string `json:"reason"`
}

// OrderExpired stops a day order's unfilled shares when its trading day's session ends.
type OrderExpired struct {
	OrderNo    string `json:"orderNo"`
	PositionID string `json:"positionId"`
	Shares     int64  `json:"shares"`
	TradingDay string `json:"tradingDay"`
}

// MarginRatio is the account's maintenance ratio with what it was computed from.
type MarginRatio struct {
	Ratio           decimal.Decimal `json:"ratio"` // 1.3 is 130 %
	LongValue       decimal.Decimal `json:"longValue"`
	Loans           decimal.Decimal `json:"loans"`
	ShortCollateral decimal.Decimal `json:"shortCollateral"`
	ShortValue      decimal.Decimal `json:"shortValue"`
}

// MarginCallIssued tells the member the maintenance ratio fell below 130 %: restore it by the end
// of Deadline (YYYY-MM-DD, Asia/Taipei) or the margin positions are closed.
type MarginCallIssued struct {
	MarginRatio
	Deadline string `json:"deadline"`
}

// MarginCallMet records the ratio back at or above 130 %.
type MarginCallMet struct {
	MarginRatio
}

// ForcedCloseStarted records that the margin rule closes the member's margin positions (each by
// an OrderPlaced with By forced_close written with it).
type ForcedCloseStarted struct {
	MarginRatio
	Reason    string   `json:"reason"` // ratio_below_forced | deadline_passed
	Positions []string `json:"positions"`
}

func (OrderPlaced) EventName() string        { return "OrderPlaced" }
func (TradeCashFrozen) EventName() string    { return "TradeCashFrozen" }
func (OrderFilled) EventName() string        { return "OrderFilled" }
func (TradeCashReleased) EventName() string  { return "TradeCashReleased" }
func (OrderCancelled) EventName() string     { return "OrderCancelled" }
func (OrderExpired) EventName() string       { return "OrderExpired" }
func (MarginCallIssued) EventName() string   { return "MarginCallIssued" }
func (MarginCallMet) EventName() string      { return "MarginCallMet" }
func (ForcedCloseStarted) EventName() string { return "ForcedCloseStarted" }

func (e TradeCashFrozen) MoneyPostings() []Posting   { return e.Postings }
func (e OrderFilled) MoneyPostings() []Posting       { return e.Postings }
func (e TradeCashReleased) MoneyPostings() []Posting { return e.Postings }

func init() {
	register(OrderPlaced{}, 1, nil)
	register(TradeCashFrozen{}, 1, nil)
	register(OrderFilled{}, 2, map[int]Upcaster{1: sameJSON})
	register(TradeCashReleased{}, 1, nil)
	register(OrderCancelled{}, 1, nil)
	register(OrderExpired{}, 1, nil)
	register(MarginCallIssued{}, 1, nil)
	register(MarginCallMet{}, 1, nil)
	register(ForcedCloseStarted{}, 1, nil)
}
