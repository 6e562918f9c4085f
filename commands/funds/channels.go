package funds

import (
	"context"
	"reflect"
	"strings"
	"unicode"

	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/commands/rules/money"
	"github.com/lotbook/lotbook/commands/rules/secret"
	"github.com/lotbook/lotbook/commands/rules/window"
	"github.com/lotbook/lotbook/events"
)

// Deposit and withdrawal channels: funds' part of the config aggregate (stream config).

// channels are the deposit channels by id and the withdrawal channels, in the order first
// defined.
type channels struct {
	deposits    map[string]events.DepositChannelConfigured
	withdrawals map[string]events.WithdrawalChannelConfigured
	wOrder      []string // withdrawal channel ids in the order first defined
}

var channelsPart = commands.RegisterConfigPart("funds.channels", func() *channels {
	return &channels{deposits: map[string]events.DepositChannelConfigured{}, withdrawals: map[string]events.WithdrawalChannelConfigured{}}
})

// Apply follows the channels' definitions.
func (c *channels) Apply(_ events.RecordedEvent, p events.Payload) {
	switch e := p.(type) {
	case events.DepositChannelConfigured:
		c.deposits[e.ID] = e
	case events.WithdrawalChannelConfigured:
		if _, ok := c.withdrawals[e.ID]; !ok {
			c.wOrder = append(c.wOrder, e.ID)
		}
		c.withdrawals[e.ID] = e
	}
}

// DepositInput is a member's deposit request.
type DepositInput struct {
	ChannelID, Amount, ProofFileID, ChannelPassword string
}

// OrderResult answers a deposit command. Balances are the member's cash per currency right after
// the command's events (authoritative, from the write side).
type OrderResult struct {
	OrderNo, Status string
	Position        int64
	Balances        map[string]commands.Balance
}

// ChannelInput defines a deposit channel. Min and Max are decimal strings in the channel's
// currency. An empty Password keeps the channel's current code (none for a new channel).
type ChannelInput struct {
	ID, Name, Currency, Min, Max, Password string
	Window                                 events.TimeWindow
	Enabled                                bool
	// Payee is the account members pay into (deposit channels only): all of bank, account and
	// name, or none of them; the branch is optional.
	Payee events.Payee
}

// decideConfigureChannel defines or redefines a channel; the same definition again changes
// nothing. password is the channel password given ("" keeps the current one) and newHash its
// fresh argon2id hash: salted, it differs every time, so the current hash stays when it already
// matches password, unless it is of the old unsalted kind, which a given password replaces.
func decideConfigureChannel(c *channels, ch events.DepositChannelConfigured, password, newHash string, verify commands.Verifier) ([]events.Payload, error) {
	old, exists := c.deposits[ch.ID]
	switch {
	case password == "" && exists:
		ch.PasswordHash = old.PasswordHash
	case password == "": // a new channel without a password
	case exists && !secret.IsLegacyChannelHash(old.PasswordHash) && verify(old.PasswordHash, password):
		ch.PasswordHash = old.PasswordHash
	default:
		ch.PasswordHash = newHash
	}
	if exists && sameChannel(old, ch) {
		return nil, nil
	}
	return []events.Payload{ch}, nil
}

func sameChannel(a, b events.DepositChannelConfigured) bool {
	return a.ID == b.ID && a.Name == b.Name && a.Currency == b.Currency &&
		a.Min.Equal(b.Min) && a.Max.Equal(b.Max) && a.PasswordHash == b.PasswordHash &&
		a.Enabled == b.Enabled && reflect.DeepEqual(a.Window, b.Window) && a.Payee == b.Payee
}

// withdrawalChannel is the channel withdrawals go through: the first defined one that is
// enabled; nil and channel_not_found or channel_closed when there is none.
func (c *channels) withdrawalChannel() (*events.WithdrawalChannelConfigured, *commands.Error) {
	for _, id := range c.wOrder {
		if ch := c.withdrawals[id]; ch.Enabled {
			return &ch, nil
		}
	}
	if len(c.wOrder) == 0 {
		return nil, commands.NotFound(commands.KeyChannelNotFound)
	}
	return nil, commands.Rule(commands.KeyChannelClosed)
}

// decideConfigureWithdrawalChannel defines or redefines a withdrawal channel; the same
// definition again changes nothing.
func decideConfigureWithdrawalChannel(c *channels, ch events.WithdrawalChannelConfigured) ([]events.Payload, error) {
	if old, ok := c.withdrawals[ch.ID]; ok && old.Name == ch.Name && old.Currency == ch.Currency && old.Min.Equal(ch.Min) &&
		old.Max.Equal(ch.Max) && old.Enabled == ch.Enabled && reflect.DeepEqual(old.Window, ch.Window) {
		return nil, nil
	}
	return []events.Payload{ch}, nil
}

// ConfigureDepositChannel defines or redefines a deposit channel on the config stream.
func (s *Commands) ConfigureDepositChannel(ctx context.Context, meta commands.Meta, in ChannelInput) (commands.Result, error) {
	c, err := s.k.Begin(meta, "config.deposit-channel")
	if err != nil {
		return commands.Result{}, err
	}
	ch, e := channelFrom(in)
	if e != nil {
		return commands.Result{}, e
	}
	newHash, rec := "", (*commands.Record)(nil)
	if in.Password != "" {
		if newHash, rec, err = s.k.HashFor(ctx, c, events.ConfigStream, in.Password); err != nil {
			return commands.Result{}, err
		}
	}
	if rec == nil {
		rec, err = commands.Execute(ctx, s.k, c, events.ConfigStream, func(cfg *commands.Config) ([]events.Payload, error) {
			return decideConfigureChannel(channelsPart.Of(cfg), ch, in.Password, newHash, s.channelPasswordOK)
		})
		if err != nil {
			return commands.Result{}, err
		}
	}
	return commands.Result{Position: rec.Position}, nil
}

// channelFrom validates a channel definition: id of lower-case letters, digits, '_' or '-'
// (1-32), a name, a three-letter currency, positive min <= max within the currency's minor unit,
// a valid window. The password is not part of it: ConfigureDepositChannel hashes it.
func channelFrom(in ChannelInput) (events.DepositChannelConfigured, *commands.Error) {
	bad := commands.Invalid(commands.KeyInvalidRequest)
	if !validChannelID(in.ID) || strings.TrimSpace(in.Name) == "" || len([]rune(in.Name)) > 64 || !validCurrency(in.Currency) {
		return events.DepositChannelConfigured{}, bad
	}
	lo, err := money.ParseAmount(in.Min, in.Currency)
	if err != nil {
		return events.DepositChannelConfigured{}, bad
	}
	hi, err := money.ParseAmount(in.Max, in.Currency)
	if err != nil || hi.LessThan(lo) {
		return events.DepositChannelConfigured{}, bad
	}
	if window.Validate(in.Window) != nil {
		return events.DepositChannelConfigured{}, bad
	}
	payee, ok := cleanPayee(in.Payee)
	if !ok {
		return events.DepositChannelConfigured{}, commands.Invalid(commands.KeyPayeeInvalid)
	}
	ch := events.DepositChannelConfigured{
		ID: in.ID, Name: strings.TrimSpace(in.Name), Currency: in.Currency, Min: lo, Max: hi,
		Window: in.Window, Enabled: in.Enabled, Payee: payee,
	}
	return ch, nil
}

// cleanPayee trims the payee's fields and checks them: none given, or a bank, an account holder
// (each 1 to 64 characters, no control characters) and an account number of 4 to 32 digits
// (spaces and dashes between them allowed, kept as typed); the branch is optional (up to 64).
func cleanPayee(p events.Payee) (events.Payee, bool) {
	p = events.Payee{Bank: strings.TrimSpace(p.Bank), Branch: strings.TrimSpace(p.Branch),
		Account: strings.TrimSpace(p.Account), Name: strings.TrimSpace(p.Name)}
	if p == (events.Payee{}) {
		return p, true
	}
	text := func(s string, required bool) bool {
		if s == "" {
			return !required
		}
		if len([]rune(s)) > 64 {
			return false
		}
		for _, r := range s {
			if unicode.IsControl(r) {
				return false
			}
		}
		return true
	}
	digits := 0
	for _, r := range p.Account {
		switch {
		case r >= '0' && r <= '9':
			digits++
		case r == ' ' || r == '-':
		default:
			return events.Payee{}, false
		}
	}
	ok := text(p.Bank, true) && text(p.Name, true) && text(p.Branch, false) &&
		digits >= 4 && digits <= 32 && len(p.Account) <= 40
	return p, ok
}

func validChannelID(id string) bool {
	if len(id) == 0 || len(id) > 32 {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

func validCurrency(cur string) bool {
	if len(cur) != 3 {
		return false
	}
	for i := 0; i < 3; i++ {
		if cur[i] < 'A' || cur[i] > 'Z' {
			return false
		}
	}
	return true
}

// ConfigureWithdrawalChannel defines or redefines a withdrawal channel (limits and window as
// data) on the config stream. The channel's Password is not used: withdrawals need the fund
// password instead.
func (s *Commands) ConfigureWithdrawalChannel(ctx context.Context, meta commands.Meta, in ChannelInput) (commands.Result, error) {
	c, err := s.k.Begin(meta, "config.withdrawal-channel")
	if err != nil {
		return commands.Result{}, err
	}
	dc, e := channelFrom(in)
	if e != nil {
		return commands.Result{}, e
	}
	ch := events.WithdrawalChannelConfigured{ID: dc.ID, Name: dc.Name, Currency: dc.Currency, Min: dc.Min, Max: dc.Max,
		Window: dc.Window, Enabled: dc.Enabled}
	rec, err := commands.Execute(ctx, s.k, c, events.ConfigStream, func(cfg *commands.Config) ([]events.Payload, error) {
		return decideConfigureWithdrawalChannel(channelsPart.Of(cfg), ch)
	})
	if err != nil {
		return commands.Result{}, err
	}
	return commands.Result{Position: rec.Position}, nil
}
