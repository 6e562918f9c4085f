package events

import (
	"strconv"
	"time"

	"github.com/shopspring/decimal"
)

// Dividends (除息, 除權): the simulated market's instruments pay cash and stock dividends on a
// schedule (package market/dividends). A process manager folds every member's shares from the
// share postings; at the ex-date it records each holder's entitlement (the shares held at the
// close of the day before) on the holder's account stream, and on the payment date it pays it:
// the cash, net of the NHI supplementary premium and the remittance fee, from the issuer's
// dividend account to the member's available cash; the new shares of a stock dividend as a
// holding at zero cost (trading's OrderPlaced By dividend and its OrderFilled.v2 carrying the
// shares from the issuer's share account), so that they are a position like any other.

// OrderByDividend marks the order of the new shares of a stock dividend.
const OrderByDividend = "dividend"

// House accounts of dividends: the issuers' cash owed to holders, the premium withheld for the
// NHI administration, and the issuers' new shares.
var (
	HouseDividendPayable = HouseAccount("dividend_payable")
	HouseNHIPayable      = HouseAccount("nhi_payable")
	HouseDividendShares  = Account{Kind: DeclareAccountKind(AccountKind{Name: "dividend_shares", Holds: HoldsShares})}.String()
)

// DividendEntitled records that a member held Shares of a security at the close before the
// ex-date (account stream) and what the distribution will pay them on PayDate. It moves nothing:
// its journal lines are pending until the payment.
type DividendEntitled struct {
	OrderNo    string          `json:"orderNo"` // "DV" + the dividend id: one per member and dividend
	DividendID string          `json:"dividendId"`
	Symbol     string          `json:"symbol"`
	Name       string          `json:"name"`
	Kind       string          `json:"kind"` // stock | etf | bond_etf: the fees of the new shares' sale
	Period     string          `json:"period"`
	ExDate     string          `json:"exDate"` // YYYY-MM-DD, Asia/Taipei
	RecordDate string          `json:"recordDate"`
	PayDate    string          `json:"payDate"`
	PayAt      time.Time       `json:"payAt"`  // when the payment is due
	Shares     int64           `json:"shares"` // held at the close before the ex-date
	Cash       decimal.Decimal `json:"cash"`   // NT$ per share
	Stock      decimal.Decimal `json:"stock"`  // NT$ of par per share
	// The payout (commands/rules/dividend): Gross + FractionCash − NHI − Fee = Net.
	Gross        decimal.Decimal `json:"gross"`
	FractionCash decimal.Decimal `json:"fractionCash"`
	NHI          decimal.Decimal `json:"nhi"`
	Fee          decimal.Decimal `json:"fee"`
	Net          decimal.Decimal `json:"net"`
	NewShares    int64           `json:"newShares"`
}

// DividendCashPaid pays an entitlement's cash: Gross + FractionCash from the issuers' dividend
// account, the NHI premium to its payable, the fee to fees revenue, Net to available cash.
type DividendCashPaid struct {
	OrderNo    string          `json:"orderNo"`
	DividendID string          `json:"dividendId"`
	Net        decimal.Decimal `json:"net"`
	Postings   []Posting       `json:"postings"`
}

// DividendSharesDistributed records that an entitlement's new shares were delivered: the
// OrderPlaced (By dividend) and OrderFilled written with it, under PositionID, carry them.
type DividendSharesDistributed struct {
	OrderNo    string `json:"orderNo"`
	DividendID string `json:"dividendId"`
	Security   string `json:"security"`
	Shares     int64  `json:"shares"`
	PositionID string `json:"positionId"`
}

func (DividendEntitled) EventName() string          { return "DividendEntitled" }
func (DividendCashPaid) EventName() string          { return "DividendCashPaid" }
func (DividendSharesDistributed) EventName() string { return "DividendSharesDistributed" }

func (e DividendCashPaid) MoneyPostings() []Posting { return e.Postings }

// Journal line types of dividends: the cash (net) and the new shares.
const (
	LineDividend      = "dividend"
	LineDividendStock = "dividend_stock"
)

// StockKey is the journal key of an entitlement's new shares.
func (e DividendEntitled) StockKey() string { return e.OrderNo + "/stock" }

// OrderLabel names the dividend's security on its lines.
func (e DividendEntitled) OrderLabel() (orderNo, instrument, label string) {
	return e.OrderNo, e.Symbol, e.Name
}

// JournalLines are the expected cash and new shares, pending until paid.
func (e DividendEntitled) JournalLines() []JournalLine {
	details := map[string]string{"dividendId": e.DividendID, "period": e.Period, "exDate": e.ExDate, "payDate": e.PayDate,
		"shares": strconv.FormatInt(e.Shares, 10), "cash": e.Cash.String(), "stock": e.Stock.String(), "gross": e.Gross.String(),
		"fractionCash": e.FractionCash.String(), "nhi": e.NHI.String(), "fee": e.Fee.String()}
	var out []JournalLine
	if e.Net.IsPositive() {
		out = append(out, JournalLine{Key: e.OrderNo, Type: LineDividend, OrderNo: e.OrderNo, Asset: "TWD", Amount: e.Net,
			Account: KindAvailable.Name, Status: ReviewPending, Details: details})
	}
	if e.NewShares > 0 {
		out = append(out, JournalLine{Key: e.StockKey(), Type: LineDividendStock, OrderNo: e.OrderNo,
			Asset: Security(MarketTW, e.Symbol), Amount: decimal.NewFromInt(e.NewShares), Account: KindShares.Name,
			Status: ReviewPending, Details: details})
	}
	return out
}

// JournalLines complete the cash line.
func (e DividendCashPaid) JournalLines() []JournalLine {
	return []JournalLine{{Key: e.OrderNo, Status: LineCompleted}}
}

// JournalLines complete the shares line.
func (e DividendSharesDistributed) JournalLines() []JournalLine {
	return []JournalLine{{Key: e.OrderNo + "/stock", Status: LineCompleted}}
}

func init() {
	DeclareLineTypes(LineDividend, LineDividendStock)
	register(DividendEntitled{}, 1, nil)
	register(DividendCashPaid{}, 1, nil)
	register(DividendSharesDistributed{}, 1, nil)
}
