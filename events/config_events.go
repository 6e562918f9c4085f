package events

import "github.com/shopspring/decimal"

// TimeWindow is when a channel accepts requests: on the listed weekdays (0 = Sunday) between
// Open and Close ("HH:MM", in TZ), closed on exchange holidays when ClosedOnHolidays is set.
// AlwaysOpen is set by the demo seed so that the journey works at any hour; the app says so.
type TimeWindow struct {
	Weekdays         []int  `json:"weekdays"`
	Open             string `json:"open"`
	Close            string `json:"close"`
	TZ               string `json:"tz"`
	ClosedOnHolidays bool   `json:"closedOnHolidays"`
	AlwaysOpen       bool   `json:"alwaysOpen,omitempty"`
}

// DepositChannelConfigured defines or redefines a deposit channel (config stream).
type DepositChannelConfigured struct {
	ID       string          `json:"id"`
	Name     string          `json:"name"`
	Currency string          `json:"currency"`
	Min      decimal.Decimal `json:"min"`
	Max      decimal.Decimal `json:"max"`
	// PasswordHash is the channel password's argon2id PHC string, never the password itself.
	// Channels configured before argon2id carry its unsalted hex SHA-256, still accepted
	// (secret.VerifyChannelPassword) until the channel's password is given again.
	PasswordHash string `json:"passwordHash"`

	Window  TimeWindow `json:"window"`
	Enabled bool       `json:"enabled"`

	// Payee is where members send the money, shown on the deposit screen; empty for channels
	// configured before it existed.
	Payee Payee `json:"payee,omitzero"`
}

// Payee is the account a deposit channel's members pay into: the bank, its branch, the account
// number and the account holder's name.
type Payee struct {
	Bank    string `json:"bank,omitempty"`
	Branch  string `json:"branch,omitempty"`
	Account string `json:"account,omitempty"`
	Name    string `json:"name,omitempty"`
}

// SiteConfigured sets one entry of the app's public config (logo, title, ...).
type SiteConfigured struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

func (DepositChannelConfigured) EventName() string { return "DepositChannelConfigured" }
func (SiteConfigured) EventName() string           { return "SiteConfigured" }

func init() {
	register(DepositChannelConfigured{}, 1, nil)
	register(SiteConfigured{}, 1, nil)
}
