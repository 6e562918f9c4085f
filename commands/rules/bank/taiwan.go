package bank

import "strings"

// TaiwanBank is a financial institution of Taiwan's interbank system: its three-digit code
// (財金資訊公司's institution code, the first part of a transfer's account) and its names.
type TaiwanBank struct {
	Code, Zh, En string
}

// TaiwanBanks are the banks a member can bind a card of: the domestic commercial banks, the
// main foreign banks' Taiwan subsidiaries, the internet-only banks and Chunghwa Post, by code.
// The web's list (web/src/domain/wallet/banks.ts) is the same; a test compares them.
var TaiwanBanks = []TaiwanBank{
	{"004", "臺灣銀行", "Bank of Taiwan"},
	{"005", "臺灣土地銀行", "Land Bank of Taiwan"},
	{"006", "合作金庫商業銀行", "Taiwan Cooperative Bank"},
	{"007", "第一商業銀行", "First Commercial Bank"},
	{"008", "華南商業銀行", "Hua Nan Commercial Bank"},
	{"009", "彰化商業銀行", "Chang Hwa Commercial Bank"},
	{"011", "上海商業儲蓄銀行", "Shanghai Commercial and Savings Bank"},
	{"012", "台北富邦商業銀行", "Taipei Fubon Commercial Bank"},
	{"013", "國泰世華商業銀行", "Cathay United Bank"},
	{"016", "高雄銀行", "Bank of Kaohsiung"},
	{"017", "兆豐國際商業銀行", "Mega International Commercial Bank"},
	{"021", "花旗(台灣)商業銀行", "Citibank Taiwan"},
	{"048", "王道商業銀行", "O-Bank"},
	{"050", "臺灣中小企業銀行", "Taiwan Business Bank"},
	{"052", "渣打國際商業銀行", "Standard Chartered Bank (Taiwan)"},
	{"053", "台中商業銀行", "Taichung Commercial Bank"},
	{"054", "京城商業銀行", "King's Town Bank"},
	{"081", "滙豐(台灣)商業銀行", "HSBC Bank (Taiwan)"},
	{"101", "瑞興商業銀行", "Taipei Star Bank"},
	{"102", "華泰商業銀行", "Hwatai Bank"},
	{"103", "臺灣新光商業銀行", "Shin Kong Commercial Bank"},
	{"108", "陽信商業銀行", "Sunny Bank"},
	{"118", "板信商業銀行", "Bank of Panhsin"},
	{"147", "三信商業銀行", "Cota Commercial Bank"},
	{"700", "中華郵政", "Chunghwa Post"},
	{"803", "聯邦商業銀行", "Union Bank of Taiwan"},
	{"805", "遠東國際商業銀行", "Far Eastern International Bank"},
	{"806", "元大商業銀行", "Yuanta Commercial Bank"},
	{"807", "永豐商業銀行", "Bank SinoPac"},
	{"808", "玉山商業銀行", "E.SUN Commercial Bank"},
	{"809", "凱基商業銀行", "KGI Bank"},
	{"810", "星展(台灣)商業銀行", "DBS Bank (Taiwan)"},
	{"812", "台新國際商業銀行", "Taishin International Bank"},
	{"816", "安泰商業銀行", "EnTie Commercial Bank"},
	{"822", "中國信託商業銀行", "CTBC Bank"},
	{"823", "將來商業銀行", "Next Commercial Bank"},
	{"824", "連線商業銀行", "LINE Bank Taiwan"},
	{"826", "樂天國際商業銀行", "Rakuten International Commercial Bank"},
}

// LookupTaiwanBank is the bank with this code, if it is on the list.
func LookupTaiwanBank(code string) (TaiwanBank, bool) {
	for _, b := range TaiwanBanks {
		if b.Code == code {
			return b, true
		}
	}
	return TaiwanBank{}, false
}

// ValidBranchCode reports whether s is a branch code as Taiwan banks number them: four digits
// (with the bank code, the seven-digit 總分支機構代號 of a transfer).
func ValidBranchCode(s string) bool { return len(s) == 4 && digits(s) }

// Card fields beyond Taiwan's that ops may enable per withdrawal channel: the site config entry
// CardFieldsConfigName(channel) lists them, comma-separated ("ifsc,upi"); absent, none.
const (
	FieldIFSC = "ifsc"
	FieldUPI  = "upi"
)

// CardFieldsConfigPrefix and CardFieldsConfigSuffix frame the site config entry's name.
const (
	CardFieldsConfigPrefix = "withdrawal."
	CardFieldsConfigSuffix = ".cardFields"
)

// CardFieldsConfigName is the site config entry enabling extra card fields for a channel.
func CardFieldsConfigName(channelID string) string {
	return CardFieldsConfigPrefix + channelID + CardFieldsConfigSuffix
}

// ParseCardFields is the set of known extra fields a config value enables.
func ParseCardFields(value string) map[string]bool {
	out := map[string]bool{}
	for _, f := range strings.Split(value, ",") {
		if f = strings.ToLower(strings.TrimSpace(f)); f == FieldIFSC || f == FieldUPI {
			out[f] = true
		}
	}
	return out
}
