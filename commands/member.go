package commands

import (
	"context"
	"maps"
	"time"

	"github.com/lotbook/lotbook/commands/rules/identity"
	"github.com/lotbook/lotbook/events"
)

// Fund password lock: this many wrong tries within lockWindow lock it.
const (
	fundLockTries  = 5
	fundLockWindow = 24 * time.Hour
)

// Member is the member aggregate (stream member-<id>): registration, credentials, sessions,
// the fund password and its lock, flags and uploads, which every capability's checks need, and
// the parts capabilities register (RegisterMemberPart), each evolved from the same events.
type Member struct {
	registered     bool
	memberID       string
	account        string
	role           string
	passwordHash   string
	ownInviteCode  string
	sessions       map[string]time.Time // token hash -> expiry
	fundHash       string
	fundRejections []time.Time // server times of wrong fund passwords within the last lockWindow
	flags          map[string]bool
	files          map[string]bool
	storedBytes    int64 // sum of the sizes of files, counted once per file
	parts          []State
}

func init() {
	RegisterStreams(events.MemberStream(""), func(id string) State { return NewMember(id) })
}

// NewMember is an empty member aggregate, with the registered parts.
func NewMember(memberID string) *Member { return &Member{parts: memberParts.build(memberID)} }

func (m *Member) partList() []State { return m.parts }

// Registered tells whether the member (or staff user) exists.
func (m *Member) Registered() bool { return m.registered }

// IsMember tells whether a member (not a staff user) is registered under this id.
func (m *Member) IsMember() bool { return m.registered && m.role == events.RoleMember }

// MemberOnly refuses what only a registered, active member may do: unknown accounts and staff
// users (not found), disabled and frozen accounts.
func (m *Member) MemberOnly() *Error {
	return Standing{Member: m.IsMember(), Flags: m.flags}.Refuse(events.FlagDisabled, events.FlagFrozen)
}

// Standing is a member's registration and flags as a decision on another stream (an account's)
// sees them; Service.Standing reads it from the member stream.
type Standing struct {
	Member bool            // a member, not a staff user, is registered under the id
	Flags  map[string]bool // the flags set (events.Flag*)
}

// Refuse refuses an unknown account (not found), then answers for the first of flags that is set,
// in the order given.
func (st Standing) Refuse(flags ...string) *Error {
	if !st.Member {
		return NotFound(KeyAccountNotExist)
	}
	return refuseFlags(st.Flags, flags)
}

// Standing reads a member's standing from the member stream.
func (s *Service) Standing(ctx context.Context, memberID string) (Standing, error) {
	return View(ctx, s, events.MemberStream(memberID), func(m *Member, _ *Entry) Standing {
		return Standing{Member: m.IsMember(), Flags: maps.Clone(m.flags)}
	})
}

// Flag tells whether flag (events.Flag*) is set on the account.
func (m *Member) Flag(flag string) bool { return m.flags[flag] }

// FundPasswordSet tells whether the member has set a fund password.
func (m *Member) FundPasswordSet() bool { return m.fundHash != "" }

// OwnsFile tells whether the member uploaded the file (RecordUpload).
func (m *Member) OwnsFile(fileID string) bool { return m.files[fileID] }

func (m *Member) Apply(r events.RecordedEvent, p events.Payload) {
	at := r.Metadata.ServerTime
	switch e := p.(type) {
	case events.MemberRegistered:
		m.registered = true
		m.memberID, m.account, m.role = e.MemberID, e.Account, e.Role
		m.passwordHash, m.ownInviteCode = e.PasswordHash, e.OwnInviteCode
	case events.SessionOpened:
		if m.sessions == nil {
			m.sessions = map[string]time.Time{}
		}
		// Forget expired sessions as time goes by, so the map stays small.
		for h, exp := range m.sessions {
			if !exp.After(at) {
				delete(m.sessions, h)
			}
		}
		m.sessions[e.TokenHash] = e.ExpiresAt
	case events.SessionClosed:
		delete(m.sessions, e.TokenHash)
	case events.LoginPasswordChanged:
		m.passwordHash = e.PasswordHash
		m.sessions = nil
	case events.FundPasswordSet:
		m.fundHash = e.Hash
		m.fundRejections = nil
	case events.FundPasswordRejected:
		m.fundRejections = append(recentRejections(m.fundRejections, at), at)
	case events.AccountFlagChanged:
		if m.flags == nil {
			m.flags = map[string]bool{}
		}
		if e.On {
			m.flags[e.Flag] = true
		} else {
			delete(m.flags, e.Flag)
		}
	case events.FileUploaded:
		if m.files == nil {
			m.files = map[string]bool{}
		}
		if !m.files[e.FileID] {
			m.storedBytes += e.Size
		}
		m.files[e.FileID] = true
	}
	for _, part := range m.parts {
		part.Apply(r, p)
	}
}

// recentRejections keeps the rejections that still count at now.
func recentRejections(ts []time.Time, now time.Time) []time.Time {
	out := ts[:0:0]
	for _, t := range ts {
		if now.Sub(t) < fundLockWindow {
			out = append(out, t)
		}
	}
	return out
}

func (m *Member) fundLocked(now time.Time) bool {
	return len(recentRejections(m.fundRejections, now)) >= fundLockTries
}

// Verifier checks a password against a stored hash (argon2id in the service, a fake in tests).
type Verifier func(hash, password string) bool

// --- registration ---

// validateRegistration checks the form before anything is read: required fields first, in the
// form's order, then formats, then the confirmation.
func validateRegistration(in RegisterInput) *Error {
	switch {
	case in.Account == "":
		return Invalid(KeyAccountRequired)
	case in.Password == "":
		return Invalid(KeyPasswordRequired)
	case in.ConfirmPassword == "":
		return Invalid(KeyConfirmPasswordRequired)
	case in.InviteCode == "":
		return Invalid(KeyInviteCodeRequired)
	case !identity.ValidMemberAccount(identity.NormalizeAccount(in.Account)):
		return Invalid(KeyAccountInvalid)
	case !identity.ValidLoginPassword(in.Password):
		return Invalid(KeyPasswordInvalid)
	case in.Password != in.ConfirmPassword:
		return Invalid(KeyPasswordsInconsistent)
	}
	return nil
}

// decideRegister opens the member stream: the registration and the first session.
func decideRegister(m *Member, reg events.MemberRegistered, session events.SessionOpened) ([]events.Payload, error) {
	if m.registered {
		return nil, Rule(KeyAccountExists)
	}
	return []events.Payload{reg, session}, nil
}

// decideAddStaff registers an ops or auditor user; the same account with the same role again
// changes nothing.
func decideAddStaff(m *Member, reg events.MemberRegistered) ([]events.Payload, error) {
	if m.registered {
		if m.role == reg.Role {
			return nil, nil
		}
		return nil, Rule(KeyAccountExists)
	}
	return []events.Payload{reg}, nil
}

// --- sessions ---

// RefuseFlags answers for the first of flags that is set on the member, in the order given.
func (m *Member) RefuseFlags(flags ...string) *Error { return refuseFlags(m.flags, flags) }

func refuseFlags(set map[string]bool, flags []string) *Error {
	for _, f := range flags {
		if !set[f] {
			continue
		}
		switch f {
		case events.FlagDisabled:
			return Forbidden(KeyAccountDisabled)
		case events.FlagFrozen:
			return Forbidden(KeyAccountFrozen)
		case events.FlagLoginBanned:
			return Forbidden(KeyLoginBanned)
		case events.FlagTradeBanned:
			return Forbidden(KeyTradeBanned)
		}
	}
	return nil
}

// decideLogin checks the password, then the flags (only someone who knows the password learns
// the account's state), then opens a session. An unknown account and a wrong password get the
// same answer, account_or_password_wrong, after the same work: the unknown account's password
// is checked against decoy, a hash of the same cost, so neither the answer nor its time tells
// whether an account exists.
func decideLogin(m *Member, password, decoy string, verify Verifier, session events.SessionOpened) ([]events.Payload, error) {
	hash := m.passwordHash
	if !m.registered {
		hash = decoy
	}
	if !verify(hash, password) || !m.registered {
		return nil, Rule(KeyAccountOrPasswordWrong)
	}
	if err := m.RefuseFlags(events.FlagDisabled, events.FlagFrozen, events.FlagLoginBanned); err != nil {
		return nil, err
	}
	return []events.Payload{session}, nil
}

// decideLogout closes the session if it is open; closing an unknown or expired one changes
// nothing.
func decideLogout(m *Member, tokenHash string, now time.Time) ([]events.Payload, error) {
	if exp, ok := m.sessions[tokenHash]; !ok || !exp.After(now) {
		return nil, nil
	}
	return []events.Payload{events.SessionClosed{TokenHash: tokenHash}}, nil
}

// --- login password ---

func validatePasswordChange(oldPw, newPw, confirm string) *Error {
	switch {
	case oldPw == "":
		return Invalid(KeyOldPasswordRequired)
	case newPw == "":
		return Invalid(KeyPasswordRequired)
	case confirm == "":
		return Invalid(KeyConfirmPasswordRequired)
	case !identity.ValidLoginPassword(newPw):
		return Invalid(KeyPasswordInvalid)
	case newPw != confirm:
		return Invalid(KeyPasswordsInconsistent)
	}
	return nil
}

// decideChangeLoginPassword replaces the password; the event ends every session.
func decideChangeLoginPassword(m *Member, oldPw, newHash string, verify Verifier) ([]events.Payload, error) {
	if !m.registered {
		return nil, NotFound(KeyAccountNotExist)
	}
	if err := m.RefuseFlags(events.FlagDisabled); err != nil {
		return nil, err
	}
	if !verify(m.passwordHash, oldPw) {
		return nil, Rule(KeyOldPasswordWrong)
	}
	return []events.Payload{events.LoginPasswordChanged{PasswordHash: newHash}}, nil
}

// --- fund password ---

func validateFundPasswordPair(fundPw, confirm string) *Error {
	switch {
	case fundPw == "":
		return Invalid(KeyFundPasswordRequired)
	case confirm == "":
		return Invalid(KeyConfirmPasswordRequired)
	case !identity.ValidFundPassword(fundPw):
		return Invalid(KeyFundPasswordInvalid)
	case fundPw != confirm:
		return Invalid(KeyPasswordsInconsistent)
	}
	return nil
}

// decideSetFundPassword sets the fund password the first time; it needs the login password.
func decideSetFundPassword(m *Member, loginPw, fundHash string, verify Verifier) ([]events.Payload, error) {
	if !m.registered {
		return nil, NotFound(KeyAccountNotExist)
	}
	if err := m.RefuseFlags(events.FlagDisabled); err != nil {
		return nil, err
	}
	if m.fundHash != "" {
		return nil, Rule(KeyFundPasswordAlreadySet)
	}
	if !verify(m.passwordHash, loginPw) {
		return nil, Rule(KeyAccountOrPasswordWrong)
	}
	return []events.Payload{events.FundPasswordSet{Hash: fundHash}}, nil
}

// checkFundPassword is the common core of verify and change: refused when unset or locked; a
// wrong password is recorded (FundPasswordRejected) and answered by fundRefusal.
func checkFundPassword(m *Member, fundPw string, now time.Time, verify Verifier) (ok bool, evs []events.Payload, err error) {
	if !m.registered {
		return false, nil, NotFound(KeyAccountNotExist)
	}
	if e := m.RefuseFlags(events.FlagDisabled); e != nil {
		return false, nil, e
	}
	if m.fundHash == "" {
		return false, nil, Rule(KeyFundPasswordNotSet)
	}
	if m.fundLocked(now) {
		return false, nil, Forbidden(KeyFundPasswordLocked)
	}
	if !verify(m.fundHash, fundPw) {
		attempt := len(recentRejections(m.fundRejections, now)) + 1
		return false, []events.Payload{events.FundPasswordRejected{Attempt: attempt}}, nil
	}
	return true, nil, nil
}

// decideChangeFundPassword replaces the fund password when the old one is right.
func decideChangeFundPassword(m *Member, oldPw, newHash string, now time.Time, verify Verifier) ([]events.Payload, error) {
	ok, evs, err := checkFundPassword(m, oldPw, now, verify)
	if !ok {
		return evs, err
	}
	return []events.Payload{events.FundPasswordSet{Hash: newHash}}, nil
}

// decideVerifyFundPassword writes nothing when the password is right.
func decideVerifyFundPassword(m *Member, fundPw string, now time.Time, verify Verifier) ([]events.Payload, error) {
	_, evs, err := checkFundPassword(m, fundPw, now, verify)
	return evs, err
}

// fundRefusal is the answer to a command that recorded a wrong fund password: the try that
// reaches the limit is told the password is now locked.
func fundRefusal(rec *Record) *Error {
	for _, p := range rec.Payloads {
		if r, ok := p.(events.FundPasswordRejected); ok {
			if r.Attempt >= fundLockTries {
				return Forbidden(KeyFundPasswordLocked)
			}
			return Rule(KeyFundPasswordWrong)
		}
	}
	return nil
}

// --- flags and uploads ---

func validFlag(f string) bool {
	for _, known := range events.AllFlags {
		if f == known {
			return true
		}
	}
	return false
}

// isStaff: an ops or auditor user, managed only by `lotbook user` on the server.
func (m *Member) isStaff() bool { return m.registered && m.role != events.RoleMember }

// decideSetFlag records an ops decision on a member's flag. Staff accounts are out of ops'
// reach: one ops user must not lock out another, or the auditor who checks them.
func decideSetFlag(m *Member, flag string, on bool, reason string) ([]events.Payload, error) {
	if !m.registered {
		return nil, NotFound(KeyAccountNotExist)
	}
	if m.isStaff() {
		return nil, Forbidden(KeyStaffAccountProtected)
	}
	return changeFlag(m, flag, on, reason), nil
}

// decideSetStaffFlag is the server operator's decision on a staff account's flag.
func decideSetStaffFlag(m *Member, flag string, on bool, reason string) ([]events.Payload, error) {
	if !m.isStaff() {
		return nil, NotFound(KeyAccountNotExist)
	}
	return changeFlag(m, flag, on, reason), nil
}

// changeFlag: setting a flag to what it is changes nothing.
func changeFlag(m *Member, flag string, on bool, reason string) []events.Payload {
	if m.flags[flag] == on {
		return nil
	}
	return []events.Payload{events.AccountFlagChanged{Flag: flag, On: on, Reason: reason}}
}

// decideResetStaffPassword replaces a staff user's password without the old one (the server
// operator's reset); the event ends every session of the user.
func decideResetStaffPassword(m *Member, newHash string) ([]events.Payload, error) {
	if !m.isStaff() {
		return nil, NotFound(KeyAccountNotExist)
	}
	return []events.Payload{events.LoginPasswordChanged{PasswordHash: newHash}}, nil
}

// decideRecordUpload remembers a member's file; the same file again changes nothing. A new
// file must fit in what is left of the member's quota of stored bytes.
func decideRecordUpload(m *Member, f events.FileUploaded, quota int64) ([]events.Payload, error) {
	if !m.registered {
		return nil, NotFound(KeyAccountNotExist)
	}
	if err := m.RefuseFlags(events.FlagDisabled); err != nil {
		return nil, err
	}
	if m.files[f.FileID] {
		return nil, nil
	}
	if m.storedBytes+f.Size > quota {
		return nil, Rule(KeyUploadQuotaExceeded)
	}
	return []events.Payload{f}, nil
}

// OpenSession is a session that a request's token opens, as the member stream holds it.
type OpenSession struct {
	MemberID, Account, Role string
	ExpiresAt               time.Time
	Flags                   []string // the account's flags that are on, in events.AllFlags order
	Position                int64    // global position of the member stream's last event: the session's own writes reach the read models there
}

// SessionOf is the session that the token hashing to tokenHash opens on account now, ok false
// when there is none (unknown account, closed or expired session). It reads the member stream's
// aggregate as View does (cached, and as fresh as View's bound), so every request authenticates
// without a query; a miss is looked up once more on the store itself, since the session may
// have been opened a moment ago by another instance.
func (s *Service) SessionOf(ctx context.Context, account, tokenHash string) (sess OpenSession, ok bool, err error) {
	if account == "" || tokenHash == "" {
		return OpenSession{}, false, nil
	}
	stream := events.MemberStream(events.MemberID(account))
	s.follow.askedFor(time.Now())
	for _, fresh := range []time.Duration{viewFresh, 0} {
		e, _, err := s.loadWithin(ctx, stream, fresh)
		if err != nil {
			return OpenSession{}, false, err
		}
		m := e.st.(*Member)
		sess, ok = m.openSession(account, tokenHash, s.clock())
		sess.Position = e.position
		unknown := !m.registered
		e.mu.Unlock()
		if unknown {
			// Guessed accounts must not crowd members out of the cache.
			s.cache.drop(e)
		}
		if ok || unknown {
			return sess, ok, nil
		}
	}
	return OpenSession{}, false, nil
}

func (m *Member) openSession(account, tokenHash string, now time.Time) (OpenSession, bool) {
	exp, open := m.sessions[tokenHash]
	if !m.registered || !open || m.account != account || !now.Before(exp) {
		return OpenSession{}, false
	}
	flags := []string{}
	for _, f := range events.AllFlags {
		if m.flags[f] {
			flags = append(flags, f)
		}
	}
	return OpenSession{MemberID: m.memberID, Account: m.account, Role: m.role, ExpiresAt: exp, Flags: flags}, true
}
