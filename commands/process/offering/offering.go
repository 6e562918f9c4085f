// Package offering is what the primary market's offerings (commands/subscription, the lottery;
// commands/auction; commands/placement) share on the write side: an offering's id and terms, the
// member check of an entry, its stream's state (Stream), the runs of the listing, entry, result
// and step commands (List, Enter, Resolve, Step), and the process manager that runs an offering
// after its window: the result (due at a published time, or when ops trigger it), then each
// entry's settlement, then each delivery on the listing date. Each capability keeps its own
// events, state and decisions; this package only sequences them, with deterministic command ids
// (a restart or a second instance sends each command with the same id, and the commands decide on
// their streams' own state).
package offering

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/commands/rules/allot"
	"github.com/lotbook/lotbook/commands/rules/draw"
	"github.com/lotbook/lotbook/commands/rules/ipo"
	"github.com/lotbook/lotbook/commands/rules/money"
	"github.com/lotbook/lotbook/commands/rules/secret"
	"github.com/lotbook/lotbook/events"
)

// States of an offering, from its window and listing date alone (ipo.Calendar.State): not
// started, open (members may enter), closed (result and settlement under way), listed.
const (
	NotStarted = ipo.NotStarted
	Open       = ipo.ToSubscribe
	Closed     = ipo.Subscribing
	Listed     = ipo.Ended
)

// LotShares is the shares of a board lot.
const LotShares = 1000

// Currency is what offerings are priced and paid in.
const Currency = "TWD"

// Limits of the terms ops give.
const (
	MaxLots   = 10_000_000
	maxName   = 40
	maxSymbol = 12
)

// Message keys shared by the offerings' refusals.
const (
	KeyNotFound       = "not_found"
	KeyNotStarted     = "offering_not_started"          // the window has not opened
	KeyClosed         = "offering_closed"               // the window has closed
	KeyNotClosed      = "offering_not_closed"           // a result before the window closed
	KeyExists         = "offering_exists"               // the same symbol and opening day again
	KeyDatesInvalid   = "offering_dates_invalid"        // window and dates out of order
	KeyChannelNotOpen = "subscription_channel_not_open" // entries need real-name verification (as the lottery)
	KeyCapExceeded    = "offering_cap_exceeded"         // more lots than one member may enter in all
)

// ID is the id of the offering of symbol whose window opens at opensAt: the code and the opening
// day (Asia/Taipei), as the lottery's issues.
func ID(symbol string, opensAt time.Time) string {
	return symbol + "-" + opensAt.In(ipo.Taipei).Format("20060102")
}

// ValidID guards stream names built from the ids the API passes on.
func ValidID(id string) bool {
	sym, day, ok := strings.Cut(id, "-")
	if !ok || !ValidSymbol(sym) || len(day) != 8 {
		return false
	}
	_, err := time.Parse("20060102", day)
	return err == nil
}

// ValidSymbol: upper-case letters and digits, as the market's canonical codes are.
func ValidSymbol(sym string) bool {
	if sym == "" || len(sym) > maxSymbol {
		return false
	}
	for i := 0; i < len(sym); i++ {
		if c := sym[i]; !(c >= '0' && c <= '9' || c >= 'A' && c <= 'Z') {
			return false
		}
	}
	return true
}

// Calendar is an offering's window, result day (none: ops trigger the result) and listing
// date, as the lottery's calendar publishes them.
func Calendar(t events.OfferingTerms, resultDate string) ipo.Calendar {
	return ipo.Calendar{OpensAt: t.OpensAt, ClosesAt: t.ClosesAt, DrawDate: resultDate, DeductionDate: resultDate,
		RefundDate: resultDate, ListingDate: t.ListingDate}
}

// Terms is ops' form of what every offering has. Symbol is a code the caller has checked the
// market quotes.
type Terms struct {
	Symbol, Name, Market string
	OpensAt, ClosesAt    time.Time
	ListingDate          string
}

// ValidTerms turns ops' form into the terms, or the first refusal. resultDate is the day the
// result is due ("" when ops trigger it: any day after the window's last, before listing).
func ValidTerms(in Terms, resultDate string) (events.OfferingTerms, error) {
	var t events.OfferingTerms
	name, err := ValidSecurity(in.Symbol, in.Name, in.Market)
	if err != nil {
		return t, err
	}
	t = events.OfferingTerms{OfferingID: ID(in.Symbol, in.OpensAt), Symbol: in.Symbol, Name: name, Market: in.Market,
		Currency: Currency, LotShares: LotShares, OpensAt: in.OpensAt.UTC(), ClosesAt: in.ClosesAt.UTC(), ListingDate: in.ListingDate}
	day := resultDate
	if day == "" {
		// Validate wants a day between the window and the listing: the listing date itself.
		day = in.ListingDate
	}
	if err := Calendar(t, day).Validate(); err != nil {
		return t, commands.Invalid(KeyDatesInvalid)
	}
	return t, nil
}

// ValidSecurity checks the security ops list an offering of (the lottery's issues too): a
// canonical symbol, a market, a name (trimmed, at most maxName characters), which it returns.
func ValidSecurity(symbol, name, market string) (string, error) {
	if !ValidSymbol(symbol) || market == "" {
		return "", commands.Invalid(commands.KeySymbolNotFound)
	}
	name = strings.TrimSpace(name)
	if name == "" || len([]rune(name)) > maxName {
		return "", commands.Invalid(commands.KeyInvalidRequest)
	}
	return name, nil
}

// Price parses a price ops or a member typed: positive, at most two decimals.
func Price(s string) (decimal.Decimal, error) {
	d, err := money.ParseDecimal(s, 2)
	if err != nil || !d.IsPositive() {
		return decimal.Decimal{}, commands.Invalid(commands.KeyPriceInvalid)
	}
	return d, nil
}

// Lots checks a count of lots: at least one, at most MaxLots.
func Lots(n int64) error {
	switch {
	case n == 0:
		return commands.Invalid(commands.KeyQuantityRequired)
	case n < 0 || n > MaxLots:
		return commands.Invalid(commands.KeyQuantityInvalid)
	}
	return nil
}

// Entrant checks the member and the offering an entry names (ids the API passes on, which build
// stream names).
func Entrant(memberID, offeringID string) error {
	if !commands.ValidMemberID(memberID) {
		return commands.NotFound(commands.KeyAccountNotExist)
	}
	if !ValidID(offeringID) {
		return commands.NotFound(KeyNotFound)
	}
	return nil
}

// Member is what an entry checks of the member: a registered, verified member whose account
// may trade. Each capability registers it as its own member part (commands.RegisterMemberPart).
type Member struct {
	registered, member, verified bool
	flags                        map[string]bool
}

// NewMember is a member part's constructor.
func NewMember(string) *Member { return &Member{flags: map[string]bool{}} }

// Apply evolves the facts.
func (m *Member) Apply(_ events.RecordedEvent, p events.Payload) {
	switch e := p.(type) {
	case events.MemberRegistered:
		m.registered, m.member = true, e.Role == events.RoleMember
	case events.AccountFlagChanged:
		m.flags[e.Flag] = e.On
	case events.RealNameApproved:
		m.verified = true
	}
}

// Refusal is why the member may not enter an offering, or nil. A copy of the facts taken under
// the member stream's lock (Copy) is what decisions read.
func (m Member) Refusal() error {
	if err := m.AccountRefusal(); err != nil {
		return err
	}
	if !m.verified {
		return commands.Rule(KeyChannelNotOpen)
	}
	return nil
}

// AccountRefusal is Refusal without the real-name check: the lottery tells a closed window
// before an unverified member.
func (m Member) AccountRefusal() error {
	switch {
	case !m.registered || !m.member:
		return commands.NotFound(commands.KeyAccountNotExist)
	case m.flags[events.FlagDisabled]:
		return commands.Forbidden(commands.KeyAccountDisabled)
	case m.flags[events.FlagFrozen]:
		return commands.Forbidden(commands.KeyAccountFrozen)
	case m.flags[events.FlagTradeBanned]:
		return commands.Forbidden(commands.KeyTradeBanned)
	}
	return nil
}

// Verified tells whether the member's real name is approved.
func (m Member) Verified() bool { return m.verified }

// Copy is a snapshot of the facts.
func (m *Member) Copy() Member {
	c := *m
	c.flags = make(map[string]bool, len(m.flags))
	for k, v := range m.flags {
		c.flags[k] = v
	}
	return c
}

// Window refuses an entry outside the window at now.
func Window(cal ipo.Calendar, now time.Time) error {
	switch cal.State(now) {
	case NotStarted:
		return commands.Rule(KeyNotStarted)
	case Open:
		return nil
	}
	return commands.Rule(KeyClosed)
}

// ErrNoOffering answers a verification of an offering that was never listed.
var ErrNoOffering = errors.New("offering: no such offering")

// Seeds gives an offering's draw seed (32 bytes in hex). It must be secret until the result and
// the same on every instance.
type Seeds func(offeringID string) string

// SealerSeeds derives each offering's seed as the keyed hash (HMAC-SHA256 under a key derived
// from LOTBOOK_SECRET_KEY) of its id within domain (one per capability): not in the log before
// the result, not choosable after the entries are seen, the same on every instance.
func SealerSeeds(s *secret.Sealer, domain string) Seeds {
	return func(id string) string { return s.KeyedHash(domain, id) }
}

// KernelSeeds are SealerSeeds under the kernel's sealer, read when a seed is asked for; without
// a sealer a seed is "", and no offering can be listed or resulted (Commit, Reveal: unavailable).
func KernelSeeds(k *commands.Service, domain string) Seeds {
	return func(id string) string {
		if s := k.Sealer(); s != nil {
			return s.KeyedHash(domain, id)
		}
		return ""
	}
}

// errNoKey refuses listing or resulting an offering with no seeds.
var errNoKey = commands.Unavailable(errors.New("offering: no secret key to derive draw seeds from"))

// Commit is the commitment to an offering's seed published when it is listed.
func (s Seeds) Commit(id string) (events.OfferingSeed, error) {
	if s == nil || s(id) == "" {
		return events.OfferingSeed{}, errNoKey
	}
	c, err := draw.Commitment(s(id))
	if err != nil {
		return events.OfferingSeed{}, commands.Unavailable(err)
	}
	return events.OfferingSeed{OfferingID: id, Commitment: c, Algorithm: draw.Algorithm}, nil
}

// Reveal is the offering's seed, checked against the commitment published at listing: a changed
// server key stops the result rather than draw with a seed nobody can check.
func (s Seeds) Reveal(id, commitment string) (string, error) {
	if s == nil || s(id) == "" {
		return "", errNoKey
	}
	seed := s(id)
	if c, err := draw.Commitment(seed); err != nil || c != commitment {
		return "", commands.Unavailable(fmt.Errorf("offering %s: the seed does not match its commitment (was the secret key changed?)", id))
	}
	return seed, nil
}

// Settlement settles entry no of an offering: shares granted at price, paid from frozen (what
// the entry froze) first and from available cash for the rest, what is left of frozen released
// (commands/rules/allot.Settle); house is the offering's clearing account.
func Settlement(l commands.Ledger, house, currency, offeringID, no string, shares int64, price, frozen decimal.Decimal) events.OfferingSettlement {
	cost := price.Mul(decimal.NewFromInt(shares))
	s := allot.Settle(frozen, cost)
	var ps []events.Posting
	for _, t := range []struct {
		from, to string
		amount   decimal.Decimal
	}{{l.Frozen, house, s.FromFrozen}, {l.Available, house, s.FromAvailable}, {l.Frozen, l.Available, s.Released}} {
		if t.amount.IsPositive() {
			ps = append(ps, events.Transfer(t.from, t.to, currency, t.amount)...)
		}
	}
	return events.OfferingSettlement{OfferingID: offeringID, No: no, Shares: shares, Price: price, Cost: cost, FromFrozen: s.FromFrozen,
		FromAvailable: s.FromAvailable, Released: s.Released, Postings: ps}
}

// Delivery delivers entry no's shares (paid basis at price, on paidDate) from house (the
// offering's shares) to the member's shares account.
func Delivery(l commands.Ledger, house string, t events.OfferingTerms, no string, shares int64, price, basis decimal.Decimal, paidDate string) events.OfferingDelivery {
	sec := events.Security(t.Market, t.Symbol)
	return events.OfferingDelivery{OfferingID: t.OfferingID, No: no, Symbol: t.Symbol, Name: t.Name, Security: sec, Shares: shares,
		Price: price, Basis: basis, PaidDate: paidDate, ListingDate: t.ListingDate,
		Postings: events.TransferShares(house, events.MemberAccount(l.MemberID, events.KindShares), sec, shares)}
}

// EntryMade is what an entry command recorded: the entry's number, its position and payloads, the
// member's cash right after it.
type EntryMade struct {
	No       string
	Position int64
	Payloads []events.Payload
	Cash     commands.Balance
}

// Enter runs a member's entry to an offering (a lottery application, a bid, a placement
// application) on the member's account stream: decide sees the account, the member's facts (the
// capability's member part, copied under the member stream's lock) and the entry's free number
// under prefix; number reads the entry's number from the entry event among what it recorded.
func Enter(ctx context.Context, k *commands.Service, c commands.Cmd, memberID, prefix string, part commands.PartKey[*commands.Member, *Member],
	decide func(a *commands.Account, m Member, no string) ([]events.Payload, error), number func(events.Payload) string) (EntryMade, error) {
	rec, err := commands.Execute(ctx, k, c, events.AccountStream(memberID), func(a *commands.Account) ([]events.Payload, error) {
		m, err := commands.View(ctx, k, events.MemberStream(memberID), func(m *commands.Member, _ *commands.Entry) Member {
			return part.Of(m).Copy()
		})
		if err != nil {
			return nil, err
		}
		return decide(a, m, a.FreeOrderNo(c.OrderNumbers(prefix, memberID)))
	})
	if err != nil {
		return EntryMade{}, err
	}
	out := EntryMade{Position: rec.Position, Payloads: rec.Payloads}
	for _, p := range rec.Payloads {
		if no := number(p); no != "" {
			out.No = no
		}
	}
	if b, ok := rec.Snapshot.(map[string]commands.Balance); ok {
		out.Cash = b[Currency]
	}
	if out.No == "" {
		return EntryMade{}, commands.Unavailable(fmt.Errorf("entry of %s under %s: no entry recorded", memberID, c.CommandID))
	}
	return out, nil
}

// List runs ops' listing of offering id on its stream: the commitment to its seed (the same on
// every instance) is taken first; decide sees the stream's state and it, and refuses a second
// listing. It answers the commitment and the position.
func List[S commands.State](ctx context.Context, k *commands.Service, c commands.Cmd, seeds Seeds, id, stream string,
	decide func(st S, seed events.OfferingSeed) ([]events.Payload, error)) (events.OfferingSeed, int64, error) {
	seed, err := seeds.Commit(id)
	if err != nil {
		return events.OfferingSeed{}, 0, err
	}
	rec, err := commands.Execute(ctx, k, c, stream, func(st S) ([]events.Payload, error) { return decide(st, seed) })
	if err != nil {
		return events.OfferingSeed{}, 0, err
	}
	return seed, rec.Position, nil
}

// Resultable is an offering stream's state as Resolve reads it.
type Resultable interface {
	commands.State
	// Unresolved is the commitment to the offering's seed and whether its result is still to be
	// made (listed, not resulted): only then does a seed that cannot be revealed stop the command;
	// otherwise the decision answers (not found, or nothing to do again).
	Unresolved() (commitment string, pending bool)
}

// Resolve makes an offering's result over the entries the process folded (in number order), as
// the auction's award and the placement's allotment do: each entry is read from its member's
// account stream (entry: what the decision needs of it; ok false when the account holds no such
// entry of the offering), then decide runs on the offering's stream with the seed revealed
// against the commitment published at listing.
func Resolve[S Resultable, E any](ctx context.Context, k *commands.Service, meta commands.Meta, name string, seeds Seeds,
	id string, stream func(id string) string, entries []Entry, entry func(a *commands.Account, e Entry) (E, bool),
	decide func(st S, seed string, in []E, now time.Time) ([]events.Payload, error)) (commands.Result, error) {
	c, err := k.Begin(meta, name)
	if err != nil {
		return commands.Result{}, err
	}
	if !ValidID(id) {
		return commands.Result{}, commands.NotFound(KeyNotFound)
	}
	in := make([]E, 0, len(entries))
	for _, e := range entries {
		x, err := commands.View(ctx, k, events.AccountStream(e.MemberID), func(a *commands.Account, _ *commands.Entry) *E {
			if x, ok := entry(a, e); ok {
				return &x
			}
			return nil
		})
		if err != nil {
			return commands.Result{}, err
		}
		if x == nil {
			return commands.Result{}, commands.Unavailable(fmt.Errorf("%s of %s: entry %s not on %s's account", name, id, e.No, e.MemberID))
		}
		in = append(in, *x)
	}
	rec, err := commands.Execute(ctx, k, c, stream(id), func(st S) ([]events.Payload, error) {
		commitment, pending := st.Unresolved()
		seed, err := seeds.Reveal(id, commitment)
		if err != nil && pending {
			return nil, err
		}
		return decide(st, seed, in, c.Now)
	})
	if err != nil {
		return commands.Result{}, err
	}
	return commands.Result{Position: rec.Position}, nil
}
