// Package commands is the kernel of lotbook's write side: a command loads an aggregate's stream,
// decides with pure functions, and appends with the expected version, retrying on conflicts
// (Execute; View reads another stream's facts for a decision). Capabilities are packages under
// commands/: funds (deposits, withdrawals, exchange, their channels), trading (orders,
// positions, margin; its matching engine beneath it), identity (real name, bank cards),
// favorites and siteconfig. Each is a type over the kernel's Service (funds.New(k)) whose
// methods are its commands; capabilities import the kernel, events and rules, never each other,
// and meet through events only (ops/archtest).
//
// Streams and aggregates: member-<id> (registration, credentials, sessions, fund password, flags,
// uploads, and the parts capabilities add), account-<id> (the member's cash balances from the
// postings, and the parts capabilities add), config (the parts capabilities add),
// invite-<CODE> (who handed out a code), and the stream families capabilities register
// themselves (identity's guards). Each family registers its aggregate (RegisterStreams,
// RegisterStream).
//
// Members stay in the kernel: registration, login, sessions, the fund password and its lock and
// the account's flags are what every money capability checks, on the one member stream they all
// read. A package of their own would be imported by every capability, which the rule above
// forbids, so a capability asks the kernel's Member (MemberOnly, Flag, RefuseFlags) and
// Service.CheckFundPassword instead.
//
// The account, member and config aggregates are composed: a capability adds its part with
// RegisterAccountPart, RegisterMemberPart or RegisterConfigPart from its own init (an account
// part may also be an OrderHolder, for the order numbers it issues under its own prefix, and a
// WithdrawalHold, for cash it keeps from withdrawal: the shell's questions to its parts), and
// its decide functions reach the part through the PartKey that registration returns
// (fundsPart.Of(a)). The shells keep only the member's ledger accounts and cash balances, and
// the member's credentials and flags. A capability that needs another's facts folds the events
// itself (funds keeps the payout details of identity's cards). Public commands take one typed
// struct (CancelOrder, ReviewOrder, ...) or a member id and an input struct. Each command is
// idempotent on its Meta.CommandID: when a stream already holds events of that command, the
// earlier result is returned and nothing is decided again. A command id belongs to one command:
// events of the id that another command wrote (another command name or request fingerprint,
// stored in their metadata) answer idempotency_key_reused and are never read as this command's.
//
// Refusals are *Error values with a message key. Field rules answer KindInvalid (400); an account's
// flags and the fund password lock KindForbidden (403); unknown channels, orders, files and
// members KindNotFound (404); business rules, including login failures (account_not_exist,
// account_or_password_wrong: 422, not 401, because 401 sends the app to its login page),
// KindRule (422); store trouble and exhausted retries KindUnavailable (503, system_busy).
package commands

import (
	"log/slog"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/commands/fx"
	"github.com/lotbook/lotbook/commands/rules/secret"
	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/market/calendar"
)

// Meta identifies a command and its caller. CommandID is the client's Idempotency-Key; Actor is
// "member:<account>", "ops:<account>", "auditor:<account>" or "system". Request fingerprints
// what the caller asked (the API: a keyed hash of the caller, route and body); callers that make
// deterministic ids of their own (seeds, the trade engine) may leave it empty.
type Meta struct {
	CommandID, Actor, CorrelationID, Request string
}

// Calendar tells exchange holidays; market/calendar.Taiwan() implements it.
type Calendar interface {
	IsHoliday(day time.Time) bool
}

// PasswordCost is the argon2id work factor for new login and fund password hashes.
type PasswordCost = secret.Cost

// Options configure a Service. Zero values take the defaults noted.
type Options struct {
	Clock        func() time.Time // time.Now
	Calendar     Calendar         // market/calendar.Taiwan()
	SessionTTL   time.Duration    // 7 days
	PasswordCost PasswordCost     // secret.DefaultCost; tests use secret.TestCost
	Logger       *slog.Logger     // slog.Default()
	CacheStreams int              // aggregates kept in memory, least recently used evicted; 250,000
	CacheEvents  int64            // events those aggregates may hold between them (their memory); 3,000,000
	MaxAttempts  int              // tries of one command under write conflicts before system_busy; 10
	// Sealer encrypts ID and card numbers and makes their keyed hashes. Without one, identity
	// verification and card binding answer system_busy (api.OpenStack always sets it).
	Sealer *secret.Sealer
	Rates  fx.Rates // exchange rates; fx.Simulated{}
	// UploadQuota is how many bytes of (re-encoded) uploads a member may store; DefaultUploadQuota.
	UploadQuota int64
}

// DefaultUploadQuota is a member's storage for uploads unless configured: room for a few
// hundred deposit proofs and ID photos, while one member cannot fill the disk.
const DefaultUploadQuota = 200 << 20

// Service handles commands against one event store. It is safe for concurrent use; several
// Services (API instances) may share one store.
type Service struct {
	store       events.Store
	clock       func() time.Time
	cal         Calendar
	ttl         time.Duration
	cost        PasswordCost
	log         *slog.Logger
	cache       *cache
	maxAttempts int
	conflicts   atomic.Int64
	sealer      *secret.Sealer
	rates       fx.Rates
	uploadQuota int64
	// decoy is an argon2id hash at the service's cost that no password matches: a login for an
	// unknown account is checked against it, so it takes as long as a wrong password.
	decoy func() (string, error)
	// kdfSlots bounds the argon2id computations running at once (Service.KDF).
	kdfSlots chan struct{}
	follow   follower // vouches for cached aggregates' freshness (Follow)
	snaps    snapshots
}

// Calendar tells the exchange's holidays.
func (s *Service) Calendar() Calendar { return s.cal }

// Sealer encrypts personal numbers and makes their keyed hashes; nil when none is configured.
func (s *Service) Sealer() *secret.Sealer { return s.sealer }

// Rates are the exchange rates currency exchange quotes at.
func (s *Service) Rates() fx.Rates { return s.rates }

// ValueIn is the worth in currency to of a member's cash in several currencies at the rates an
// exchange would be quoted now (fx.Value over this service's feed).
func (s *Service) ValueIn(to string, amounts map[string]decimal.Decimal) (decimal.Decimal, error) {
	v, err := fx.Value(s.rates, amounts, to, s.clock().UTC())
	if err != nil {
		return decimal.Decimal{}, Unavailable(err)
	}
	return v, nil
}

// Logger is the service's logger.
func (s *Service) Logger() *slog.Logger { return s.log }

// Conflicts counts appends refused with events.ErrWrongExpectedVersion (each was retried):
// writes from other processes to the same streams.
func (s *Service) Conflicts() int64 { return s.conflicts.Load() }

// Now is the service's clock (Options.Clock): what commands decide with.
func (s *Service) Now() time.Time { return s.clock() }

// New returns a Service over store.
func New(store events.Store, opts Options) *Service {
	s := &Service{
		store: store, clock: opts.Clock, cal: opts.Calendar, ttl: opts.SessionTTL,
		cost: opts.PasswordCost, log: opts.Logger, maxAttempts: opts.MaxAttempts,
		sealer: opts.Sealer, rates: opts.Rates, uploadQuota: opts.UploadQuota,
	}
	if s.uploadQuota <= 0 {
		s.uploadQuota = DefaultUploadQuota
	}
	if s.rates == nil {
		s.rates = fx.Simulated{}
	}
	if s.clock == nil {
		s.clock = time.Now
	}
	if s.cal == nil {
		s.cal = calendar.Taiwan()
	}
	if s.ttl <= 0 {
		s.ttl = 7 * 24 * time.Hour
	}
	if s.cost == (PasswordCost{}) {
		s.cost = secret.DefaultCost
	}
	if s.log == nil {
		s.log = slog.Default()
	}
	if s.maxAttempts <= 0 {
		s.maxAttempts = 10
	}
	// A member has two streams (its member stream and its account), so 250,000 streams keep
	// 125,000 active members; at about 1 KB of RSS per cached event the event budget bounds the
	// cache near 3 GB, room for 100,000 members of about 30 events each.
	size := opts.CacheStreams
	if size <= 0 {
		size = 250_000
	}
	budget := opts.CacheEvents
	if budget <= 0 {
		budget = 3_000_000
	}
	s.cache = newCache(size, budget)
	s.snaps = newSnapshots(store)
	s.follow.wake = make(chan struct{}, 1)
	s.kdfSlots = make(chan struct{}, runtime.GOMAXPROCS(0))
	s.decoy = sync.OnceValues(func() (string, error) {
		tok, err := secret.NewToken()
		if err != nil {
			return "", err
		}
		return s.Hash(tok)
	})
	return s
}

// Result is the global position of the command's last event (or, when it changed nothing, of
// the last event of the stream it looked at), for read-your-writes.
type Result struct {
	Position int64
}

// Session is an opened login session. Token is shown once: only its hash is stored, so a
// replayed Register or Login (same CommandID) returns the session without its token.
type Session struct {
	MemberID, Account, Role, Token string
	ExpiresAt                      time.Time
	Position                       int64
}

// RegisterInput is a member's registration form.
type RegisterInput struct {
	Account, Password, ConfirmPassword, InviteCode string
}

// Balance is one currency of a member's cash.
type Balance struct {
	Available, Frozen decimal.Decimal
}

// Cmd is one command in flight: its metadata, the one server time (UTC) its rules and its
// events use, and its binding: which command this is and what was asked (name, then
// Meta.Request), stored with its events. A command id belongs to one binding: events of the id
// with another binding were written by another command and never answer this one.
type Cmd struct {
	Meta
	Now     time.Time
	binding string
}

// Begin fills what a caller left empty: a fresh command id (login and register may come without
// an Idempotency-Key), "system" as actor, the command id as correlation. name names the command
// (its binding with Meta.Request).
func (s *Service) Begin(m Meta, name string) (Cmd, error) {
	if m.CommandID == "" {
		m.CommandID = uuid.NewString()
	}
	if len(m.CommandID) > 128 {
		return Cmd{}, Invalid(KeyInvalidRequest)
	}
	if m.Actor == "" {
		m.Actor = "system"
	}
	if m.CorrelationID == "" {
		m.CorrelationID = m.CommandID
	}
	binding := name
	if m.Request != "" {
		binding += " " + m.Request
	}
	return Cmd{Meta: m, Now: s.clock().UTC(), binding: binding}, nil
}

// ValidMemberID guards stream names built from ids the API passes on.
func ValidMemberID(id string) bool {
	u, err := uuid.Parse(id)
	return err == nil && u.String() == id
}

// Taipei is where order numbers take their date.
var Taipei = calendar.Taiwan().Location()
