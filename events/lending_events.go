package events

import "github.com/shopspring/decimal"

// Stock lending (借券出借): a member lends shares it holds to the broker's lending desk at the
// published fee rate, and recalls them whenever it likes.
//
// The desk's rules are ops configuration on the config stream (LendingChannelSet,
// LendingSymbolSet): whether the channel is open, the default annual rate, and per symbol a rate
// and a total quota of shares lent. The quota is kept on one stream per symbol (LendingStream):
// a lending first takes its shares of the quota there (LendingQuotaTaken, with the expected
// version, so two members never both take the last shares), then lends on the member's account
// stream (StockLent), where selling and lending the same shares are decided one after the other;
// a lending the account refuses gives its quota back (LendingQuotaReleased), as does a recall.
//
// Lent shares stay on the member's share ledger account: they are held from being sold until
// recalled (StockRecalled), not moved. Each Taipei trading day of the lending earns a fee on that
// day's closing price (LendingFeeAccrued): the platform's lending fee account pays the member's
// available cash, so `lotbook verify` proves every fee.

// HouseLendingFees is the platform's account that pays lending fees to members (it runs negative
// by the fees paid; borrowers' payments to the desk are outside the member ledger).
var HouseLendingFees = HouseAccount("lending_fees")

// LendingStream holds one symbol's lending quota: every share of it taken and released.
func LendingStream(symbol string) string { return "lending-" + symbol }

// LendingChannelSet opens or closes the lending channel and sets the default annual fee rate
// (ops, attributed by the event's actor).
type LendingChannelSet struct {
	Open        bool            `json:"open"`
	DefaultRate decimal.Decimal `json:"defaultRate"`
}

// LendingSymbolSet sets one symbol's annual fee rate (zero: the default rate) and its total quota
// of shares lent by all members (zero: none may be lent) (ops).
type LendingSymbolSet struct {
	Symbol string          `json:"symbol"`
	Rate   decimal.Decimal `json:"rate"`
	Quota  int64           `json:"quota"`
}

// LendingQuotaTaken takes shares of a symbol's quota for one lending (stream lending-<symbol>).
type LendingQuotaTaken struct {
	LendNo   string `json:"lendNo"`
	MemberID string `json:"memberId"`
	Shares   int64  `json:"shares"`
	Quota    int64  `json:"quota"` // the quota when taken
}

// LendingQuotaReleased gives a lending's shares back to the quota: the account refused the
// lending (Reason) or the member recalled it.
type LendingQuotaReleased struct {
	LendNo string `json:"lendNo"`
	Reason string `json:"reason,omitempty"`
}

// LendingAbandoned closes lending LendNo on the member's account before it was lent: its quota
// was taken but the request never recorded the lending (a crash between the two steps), and the
// repair sweep gives the quota back. A lending abandoned is never lent afterwards, so the quota
// it gives back cannot also be lent.
type LendingAbandoned struct {
	LendNo string `json:"lendNo"`
	Symbol string `json:"symbol"`
}

// StockLent lends shares of a symbol the member holds, at an annual rate; they cannot be sold
// until recalled. Day is the Taipei date lent: the first day a fee may accrue for.
type StockLent struct {
	LendNo     string          `json:"lendNo"`
	Symbol     string          `json:"symbol"`
	Name       string          `json:"name"`
	Shares     int64           `json:"shares"`
	AnnualRate decimal.Decimal `json:"annualRate"`
	Day        string          `json:"day"`
}

// LendingFeeAccrued pays one Taipei trading day's fee on a lending: Close × Shares × AnnualRate /
// 365, rounded down to whole NT$; the platform's lending fee account pays the member's available
// cash.
type LendingFeeAccrued struct {
	LendNo     string          `json:"lendNo"`
	Symbol     string          `json:"symbol"`
	Currency   string          `json:"currency"`
	Day        string          `json:"day"`
	Close      decimal.Decimal `json:"close"`
	Shares     int64           `json:"shares"`
	AnnualRate decimal.Decimal `json:"annualRate"`
	Amount     decimal.Decimal `json:"amount"`
	Postings   []Posting       `json:"postings"`
}

// StockRecalled ends a lending: the shares may be sold again at once. Fees is what it earned in
// all; Day is the Taipei date recalled (no fee accrues for it).
type StockRecalled struct {
	LendNo string          `json:"lendNo"`
	Symbol string          `json:"symbol"`
	Shares int64           `json:"shares"`
	Fees   decimal.Decimal `json:"fees"`
	Day    string          `json:"day"`
}

func (LendingChannelSet) EventName() string    { return "LendingChannelSet" }
func (LendingSymbolSet) EventName() string     { return "LendingSymbolSet" }
func (LendingQuotaTaken) EventName() string    { return "LendingQuotaTaken" }
func (LendingQuotaReleased) EventName() string { return "LendingQuotaReleased" }
func (StockLent) EventName() string            { return "StockLent" }
func (LendingAbandoned) EventName() string     { return "LendingAbandoned" }
func (LendingFeeAccrued) EventName() string    { return "LendingFeeAccrued" }
func (StockRecalled) EventName() string        { return "StockRecalled" }

func (e LendingFeeAccrued) MoneyPostings() []Posting { return e.Postings }

// LineLendingFee is the journal line type of a lending fee paid into available cash.
const LineLendingFee = "lending_fee"

// LendingFeePostings pay amount of lending fee to memberID's available cash.
func LendingFeePostings(memberID, currency string, amount decimal.Decimal) []Posting {
	return Transfer(HouseLendingFees, MemberAvailable(memberID), currency, amount)
}

// JournalLines of a day's lending fee: paid into available cash.
func (e LendingFeeAccrued) JournalLines() []JournalLine {
	return []JournalLine{{Type: LineLendingFee, OrderNo: e.LendNo, Asset: e.Currency, Amount: e.Amount, Account: KindAvailable.Name,
		Status: LineCompleted, Details: map[string]string{"day": e.Day, "symbol": e.Symbol, "close": e.Close.String(),
			"shares": decimal.NewFromInt(e.Shares).String(), "rate": e.AnnualRate.String()}}}
}

func init() {
	DeclareLineTypes(LineLendingFee)
	register(LendingChannelSet{}, 1, nil)
	register(LendingSymbolSet{}, 1, nil)
	register(LendingQuotaTaken{}, 1, nil)
	register(LendingQuotaReleased{}, 1, nil)
	register(StockLent{}, 1, nil)
	register(LendingAbandoned{}, 1, nil)
	register(LendingFeeAccrued{}, 1, nil)
	register(StockRecalled{}, 1, nil)
}
