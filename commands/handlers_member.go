package commands

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/lotbook/lotbook/commands/rules/identity"
	"github.com/lotbook/lotbook/commands/rules/secret"
	"github.com/lotbook/lotbook/events"
)

// KDF runs one argon2id computation at a time per core. Each takes the cost's memory (19 MiB by
// default) for its whole run, so unbounded, a burst of logins or wrong passwords costs memory in
// proportion to the burst; bounded, it waits for a core it could not have used anyway.
func (s *Service) KDF(f func()) {
	s.kdfSlots <- struct{}{}
	defer func() { <-s.kdfSlots }()
	f()
}

// Verify checks a password against an argon2id hash; a malformed stored hash never matches.
func (s *Service) Verify(hash, password string) bool {
	var (
		ok  bool
		err error
	)
	s.KDF(func() { ok, err = secret.VerifyPassword(hash, password) })
	if err != nil && hash != "" {
		s.log.Error("stored password hash is malformed", "err", err)
	}
	return ok
}

// HashFor hashes password for command c on stream, unless stream already holds c: a retry is
// answered from rec with no hash. An argon2id hash costs tens of milliseconds of a core and 19 MiB,
// which every retried request, and the demo seed at every start, would otherwise spend for
// nothing. It only saves work: the command's own run still answers a retry it did not see here.
func (s *Service) HashFor(ctx context.Context, c Cmd, stream, password string) (hash string, rec *Record, err error) {
	if rec, err := View(ctx, s, stream, func(_ State, e *Entry) replayed {
		rec, err := e.Replay(c)
		return replayed{rec, err}
	}); err != nil || rec.err != nil || rec.rec != nil {
		return "", rec.rec, errors.Join(err, rec.err)
	}
	hash, err = s.Hash(password)
	return hash, nil, err
}

// replayed is what a look for a command's record found.
type replayed struct {
	rec *Record
	err error
}

// Hash is an argon2id hash of password at the service's cost.
func (s *Service) Hash(password string) (string, error) {
	var (
		h   string
		err error
	)
	s.KDF(func() { h, err = secret.HashPassword(password, s.cost) })
	if err != nil {
		return "", Unavailable(err)
	}
	return h, nil
}

// newSession makes a token and the event that records its hash.
func (s *Service) newSession(c Cmd) (string, events.SessionOpened, error) {
	tok, err := secret.NewToken()
	if err != nil {
		return "", events.SessionOpened{}, Unavailable(err)
	}
	return tok, events.SessionOpened{TokenHash: secret.HashToken(tok), ExpiresAt: c.Now.Add(s.ttl)}, nil
}

// sessionFrom answers a command that opened a session; token is empty on a replay.
func sessionFrom(rec *Record, token string) Session {
	out := Session{Token: token, Position: rec.Position}
	for _, p := range rec.Payloads {
		switch e := p.(type) {
		case events.MemberRegistered:
			out.MemberID, out.Account, out.Role = e.MemberID, e.Account, e.Role
		case events.SessionOpened:
			out.ExpiresAt = e.ExpiresAt
		}
	}
	return out
}

// Register checks the form and the invite code, gives the member their own invite code, opens
// the member stream (whose first append, expected version NoStream, is the account's uniqueness
// check) and a first session.
func (s *Service) Register(ctx context.Context, meta Meta, in RegisterInput) (Session, error) {
	c, err := s.Begin(meta, "member.register")
	if err != nil {
		return Session{}, err
	}
	if e := validateRegistration(in); e != nil {
		return Session{}, e
	}
	account := identity.NormalizeAccount(in.Account)
	memberID := events.MemberID(account)
	stream := events.MemberStream(memberID)

	// A replay answers before anything else is checked again.
	type pre struct {
		rec        *Record
		err        error
		registered bool
	}
	p, err := View(ctx, s, stream, func(m *Member, e *Entry) pre {
		rec, err := e.Replay(c)
		return pre{rec, err, m.registered}
	})
	if err != nil {
		return Session{}, err
	}
	if p.err != nil {
		return Session{}, p.err
	}
	if p.rec != nil {
		return registerAnswer(p.rec, "", account)
	}
	if p.registered {
		return Session{}, Rule(KeyAccountExists)
	}

	code := strings.ToUpper(in.InviteCode)
	inviter, err := s.inviter(ctx, code)
	if err != nil {
		return Session{}, err
	}
	own, err := s.claimInviteCode(ctx, c, memberID)
	if err != nil {
		return Session{}, err
	}
	pwHash, err := s.Hash(in.Password)
	if err != nil {
		return Session{}, err
	}
	token, session, err := s.newSession(c)
	if err != nil {
		return Session{}, err
	}
	reg := events.MemberRegistered{
		MemberID: memberID, Account: account, Role: events.RoleMember, PasswordHash: pwHash,
		InviteCode: code, InviterID: inviter, OwnInviteCode: own,
	}
	rec, err := Execute(ctx, s, c, stream, func(m *Member) ([]events.Payload, error) {
		return decideRegister(m, reg, session)
	})
	if err != nil {
		return Session{}, err
	}
	return registerAnswer(rec, token, account)
}

// registerAnswer is the session of a registration record. A replayed registration has no token;
// a record without a registration belongs to another kind of command under the same key.
func registerAnswer(rec *Record, token, account string) (Session, error) {
	out := sessionFrom(rec, token)
	if out.MemberID == "" || out.Account != account {
		return Session{}, KeyReused()
	}
	if out.Token != "" && !sessionIsFrom(rec, token) {
		// A concurrent duplicate of this command won the race: its token is not ours.
		out.Token = ""
	}
	return out, nil
}

// sessionIsFrom tells whether the record's session is the one token opened.
func sessionIsFrom(rec *Record, token string) bool {
	for _, p := range rec.Payloads {
		if e, ok := p.(events.SessionOpened); ok {
			return secret.Equal(e.TokenHash, secret.HashToken(token))
		}
	}
	return false
}

// inviter is the member who handed out code ("" for a root code); inviter_not_exist when no one
// did.
func (s *Service) inviter(ctx context.Context, code string) (string, error) {
	if !validInviteCode(code) {
		return "", Rule(KeyInviterNotExist)
	}
	type found struct {
		issued, disabled bool
		memberID         string
	}
	f, err := View(ctx, s, events.InviteStream(code), func(i *inviteState, _ *Entry) found {
		return found{i.issued, i.disabled, i.memberID}
	})
	if err != nil {
		return "", err
	}
	if !f.issued || f.disabled { // a disabled code answers as an unknown one
		return "", Rule(KeyInviterNotExist)
	}
	return f.memberID, nil
}

// claimInviteCode issues the member's own code on its invite stream, trying the member's
// candidates in order until one is free (or already theirs).
func (s *Service) claimInviteCode(ctx context.Context, c Cmd, memberID string) (string, error) {
	for n := 0; n < 32; n++ {
		code := inviteCandidate(memberID, n)
		_, err := Execute(ctx, s, c, events.InviteStream(code), func(i *inviteState) ([]events.Payload, error) {
			return decideIssueInvite(i, code, memberID)
		})
		if errors.Is(err, errCodeTaken) {
			continue
		}
		if err != nil {
			return "", err
		}
		return code, nil
	}
	return "", Unavailable(fmt.Errorf("no free invite code for member %s", memberID))
}

// Login is a login account and its password.
type Login struct{ Account, Password string }

// Login opens a session for a member, ops or auditor user.
func (s *Service) Login(ctx context.Context, meta Meta, in Login) (Session, error) {
	account, password := in.Account, in.Password
	c, err := s.Begin(meta, "member.login")
	if err != nil {
		return Session{}, err
	}
	switch {
	case account == "":
		return Session{}, Invalid(KeyAccountRequired)
	case password == "":
		return Session{}, Invalid(KeyPasswordRequired)
	}
	account = identity.NormalizeAccount(account)
	memberID := events.MemberID(account)
	token, session, err := s.newSession(c)
	if err != nil {
		return Session{}, err
	}
	decoy, err := s.decoy()
	if err != nil {
		return Session{}, Unavailable(fmt.Errorf("decoy password hash: %w", err))
	}
	var who Member
	rec, err := Execute(ctx, s, c, events.MemberStream(memberID), func(m *Member) ([]events.Payload, error) {
		who = Member{memberID: m.memberID, account: m.account, role: m.role}
		return decideLogin(m, password, decoy, s.Verify, session)
	})
	if err != nil {
		return Session{}, err
	}
	out := Session{MemberID: memberID, Account: account, Position: rec.Position}
	if who.role != "" {
		out.Role = who.role
	} else {
		out.Role = s.roleOf(ctx, memberID)
	}
	for _, p := range rec.Payloads {
		if e, ok := p.(events.SessionOpened); ok {
			out.ExpiresAt = e.ExpiresAt
			if secret.Equal(e.TokenHash, session.TokenHash) {
				out.Token = token
			}
		}
	}
	if out.ExpiresAt.IsZero() {
		return Session{}, KeyReused()
	}
	return out, nil
}

// roleOf reads a member's role (for a replayed login, whose decide did not run).
func (s *Service) roleOf(ctx context.Context, memberID string) string {
	role, err := View(ctx, s, events.MemberStream(memberID), func(m *Member, _ *Entry) string { return m.role })
	if err != nil {
		return ""
	}
	return role
}

// MemberCommand runs a command on a member's own stream.
func (s *Service) MemberCommand(ctx context.Context, c Cmd, memberID string, decide func(m *Member) ([]events.Payload, error)) (*Record, error) {
	if !ValidMemberID(memberID) {
		return nil, NotFound(KeyAccountNotExist)
	}
	return Execute(ctx, s, c, events.MemberStream(memberID), decide)
}

// answered is the Result of a command that stored or found rec, or its error.
func answered(rec *Record, err error) (Result, error) {
	if err != nil {
		return Result{}, err
	}
	return Result{Position: rec.Position}, nil
}

// Logout ends the member's session of Token.
type Logout struct{ MemberID, Token string }

// Logout closes the session of token.
func (s *Service) Logout(ctx context.Context, meta Meta, in Logout) (Result, error) {
	memberID, token := in.MemberID, in.Token
	c, err := s.Begin(meta, "member.logout")
	if err != nil {
		return Result{}, err
	}
	h := secret.HashToken(token)
	return answered(s.MemberCommand(ctx, c, memberID, func(m *Member) ([]events.Payload, error) {
		return decideLogout(m, h, c.Now)
	}))
}

// ChangePassword replaces a member's login or fund password: the old one, the new one and its
// confirmation.
type ChangePassword struct{ MemberID, Old, New, Confirm string }

// ChangeLoginPassword replaces the login password; every session of the member ends.
func (s *Service) ChangeLoginPassword(ctx context.Context, meta Meta, in ChangePassword) (Result, error) {
	memberID, oldPw, newPw, confirm := in.MemberID, in.Old, in.New, in.Confirm
	c, err := s.Begin(meta, "password.change")
	if err != nil {
		return Result{}, err
	}
	if e := validatePasswordChange(oldPw, newPw, confirm); e != nil {
		return Result{}, e
	}
	newHash, rec, err := s.hashForMember(ctx, c, memberID, newPw)
	if rec != nil || err != nil {
		return answered(rec, err)
	}
	return answered(s.MemberCommand(ctx, c, memberID, func(m *Member) ([]events.Payload, error) {
		return decideChangeLoginPassword(m, oldPw, newHash, s.Verify)
	}))
}

// SetFundPassword is a member's first fund password, its confirmation, and the login password
// that confirms the member.
type SetFundPassword struct{ MemberID, LoginPassword, FundPassword, Confirm string }

// SetFundPassword sets the 6-digit fund password the first time; the login password confirms it.
func (s *Service) SetFundPassword(ctx context.Context, meta Meta, in SetFundPassword) (Result, error) {
	memberID, loginPassword := in.MemberID, in.LoginPassword
	c, fundHash, rec, err := s.beginFundPassword(ctx, meta, "fund-password.set", memberID, loginPassword, KeyPasswordRequired, in.FundPassword, in.Confirm)
	if rec != nil || err != nil {
		return answered(rec, err)
	}
	return answered(s.MemberCommand(ctx, c, memberID, func(m *Member) ([]events.Payload, error) {
		return decideSetFundPassword(m, loginPassword, fundHash, s.Verify)
	}))
}

// ChangeFundPassword replaces the fund password; a wrong old one counts towards the lock.
func (s *Service) ChangeFundPassword(ctx context.Context, meta Meta, in ChangePassword) (Result, error) {
	memberID, oldFundPw := in.MemberID, in.Old
	c, newHash, rec, err := s.beginFundPassword(ctx, meta, "fund-password.change", memberID, oldFundPw, KeyFundPasswordRequired, in.New, in.Confirm)
	if rec != nil || err != nil {
		return fundAnswered(rec, err)
	}
	return fundAnswered(s.MemberCommand(ctx, c, memberID, func(m *Member) ([]events.Payload, error) {
		return decideChangeFundPassword(m, oldFundPw, newHash, c.Now, s.Verify)
	}))
}

// beginFundPassword begins command name that sets fundPw (confirmed by confirm) as the fund
// password of memberID on the word of another password, given (refused with emptyKey when
// empty), and hashes the new one, unless the command is a retry: then rec answers it.
func (s *Service) beginFundPassword(ctx context.Context, meta Meta, name, memberID, given, emptyKey, fundPw, confirm string) (Cmd, string, *Record, error) {
	c, err := s.Begin(meta, name)
	if err != nil {
		return Cmd{}, "", nil, err
	}
	if given == "" {
		return Cmd{}, "", nil, Invalid(emptyKey)
	}
	if e := validateFundPasswordPair(fundPw, confirm); e != nil {
		return Cmd{}, "", nil, e
	}
	hash, rec, err := s.hashForMember(ctx, c, memberID, fundPw)
	return c, hash, rec, err
}

// hashForMember is HashFor on memberID's stream, refused like MemberCommand for an id that
// names no member.
func (s *Service) hashForMember(ctx context.Context, c Cmd, memberID, password string) (string, *Record, error) {
	if !ValidMemberID(memberID) {
		return "", nil, NotFound(KeyAccountNotExist)
	}
	return s.HashFor(ctx, c, events.MemberStream(memberID), password)
}

// fundAnswered is answered, refused as fundRefusal says when the command recorded a wrong fund
// password.
func fundAnswered(rec *Record, err error) (Result, error) {
	res, err := answered(rec, err)
	if err != nil {
		return res, err
	}
	if e := fundRefusal(rec); e != nil {
		return res, e
	}
	return res, nil
}

// CheckFundPassword checks a member's fund password as part of command c (a withdrawal, say),
// with the lock rules of VerifyFundPassword: a wrong one is recorded on the member stream
// (FundPasswordRejected) and answered with fund_password_wrong or fund_password_locked. It is
// the kernel's check for capabilities that move money on the member's word.
func (s *Service) CheckFundPassword(ctx context.Context, c Cmd, memberID, fundPassword string) error {
	_, err := fundAnswered(s.MemberCommand(ctx, c, memberID, func(m *Member) ([]events.Payload, error) {
		return decideVerifyFundPassword(m, fundPassword, c.Now, s.Verify)
	}))
	return err
}

// VerifyFundPassword is a member's fund password given before a withdrawal.
type VerifyFundPassword struct{ MemberID, FundPassword string }

// VerifyFundPassword checks the fund password before a withdrawal. A wrong one is recorded
// (FundPasswordRejected) and refused with fund_password_wrong; the fifth within 24 hours, and
// every try while five stand, with fund_password_locked.
func (s *Service) VerifyFundPassword(ctx context.Context, meta Meta, in VerifyFundPassword) (Result, error) {
	memberID, fundPw := in.MemberID, in.FundPassword
	c, err := s.Begin(meta, "fund-password.verify")
	if err != nil {
		return Result{}, err
	}
	if fundPw == "" {
		return Result{}, Invalid(KeyFundPasswordRequired)
	}
	return fundAnswered(s.MemberCommand(ctx, c, memberID, func(m *Member) ([]events.Payload, error) {
		return decideVerifyFundPassword(m, fundPw, c.Now, s.Verify)
	}))
}

// SetFlag sets (On) or clears a flag on the account that logs in as Account, with a reason.
type SetFlag struct {
	Account, Flag string
	On            bool
	Reason        string
}

// SetAccountFlag sets or clears a flag on a member's account, by an ops user, with a reason.
// Staff accounts are refused with staff_account_protected (see SetStaffFlag).
func (s *Service) SetAccountFlag(ctx context.Context, meta Meta, in SetFlag) (Result, error) {
	return s.setFlag(ctx, meta, in, decideSetFlag)
}

// SetStaffFlag sets or clears a flag on an ops or auditor account: `lotbook user disable` and
// `enable` on the server, never an HTTP route.
func (s *Service) SetStaffFlag(ctx context.Context, meta Meta, in SetFlag) (Result, error) {
	return s.setFlag(ctx, meta, in, decideSetStaffFlag)
}

func (s *Service) setFlag(ctx context.Context, meta Meta, in SetFlag,
	decide func(m *Member, flag string, on bool, reason string) ([]events.Payload, error)) (Result, error) {
	account, flag, on, reason := in.Account, in.Flag, in.On, in.Reason
	c, err := s.Begin(meta, "member.flag")
	if err != nil {
		return Result{}, err
	}
	if !validFlag(flag) {
		return Result{}, Invalid(KeyFlagInvalid)
	}
	reason, e := CleanRemark(reason)
	if e != nil {
		return Result{}, e
	}
	if reason == "" {
		return Result{}, Invalid(KeyRemarkRequired)
	}
	if account == "" {
		return Result{}, Invalid(KeyAccountRequired)
	}
	memberID := events.MemberID(identity.NormalizeAccount(account))
	return answered(s.MemberCommand(ctx, c, memberID, func(m *Member) ([]events.Payload, error) {
		return decide(m, flag, on, reason)
	}))
}

// StaffPassword is a new password for the ops or auditor user Account.
type StaffPassword struct{ Account, Password string }

// ResetStaffPassword sets a new password on an ops or auditor account without the old one
// (`lotbook user password` on the server); every session of the user ends.
func (s *Service) ResetStaffPassword(ctx context.Context, meta Meta, in StaffPassword) (Result, error) {
	account, password := in.Account, in.Password
	c, err := s.Begin(meta, "staff.password")
	if err != nil {
		return Result{}, err
	}
	switch {
	case account == "":
		return Result{}, Invalid(KeyAccountRequired)
	case password == "":
		return Result{}, Invalid(KeyPasswordRequired)
	case !identity.ValidLoginPassword(password):
		return Result{}, Invalid(KeyPasswordInvalid)
	}
	memberID := events.MemberID(identity.NormalizeAccount(account))
	newHash, rec, err := s.hashForMember(ctx, c, memberID, password)
	if rec != nil || err != nil {
		return answered(rec, err)
	}
	return answered(s.MemberCommand(ctx, c, memberID, func(m *Member) ([]events.Payload, error) {
		return decideResetStaffPassword(m, newHash)
	}))
}

// RecordUpload remembers that the member uploaded a file (the API stored and re-encoded it), so
// that the member may name it as a deposit proof. The member's storage quota is decided here,
// on the member's own stream, so concurrent uploads cannot both take the last bytes.
func (s *Service) RecordUpload(ctx context.Context, meta Meta, memberID string, f events.FileUploaded) (Result, error) {
	c, err := s.Begin(meta, "file.upload")
	if err != nil {
		return Result{}, err
	}
	if err := checkUpload(f); err != nil {
		return Result{}, err
	}
	return answered(s.MemberCommand(ctx, c, memberID, func(m *Member) ([]events.Payload, error) {
		return decideRecordUpload(m, f, s.uploadQuota)
	}))
}

// CheckUpload tells, without recording anything, whether RecordUpload would refuse f now. The
// API asks before moving a file into its store, so a refused upload leaves nothing on disk.
func (s *Service) CheckUpload(ctx context.Context, memberID string, f events.FileUploaded) error {
	if err := checkUpload(f); err != nil {
		return err
	}
	if !ValidMemberID(memberID) {
		return NotFound(KeyAccountNotExist)
	}
	refusal, err := View(ctx, s, events.MemberStream(memberID), func(m *Member, _ *Entry) error {
		_, err := decideRecordUpload(m, f, s.uploadQuota)
		return err
	})
	if err != nil {
		return err
	}
	return refusal
}

// checkUpload is the field rules of an upload record.
func checkUpload(f events.FileUploaded) *Error {
	if !validFileID(f.FileID) || f.Size <= 0 || f.Width <= 0 || f.Height <= 0 {
		return Invalid(KeyInvalidRequest)
	}
	switch f.ContentType {
	case "image/jpeg", "image/png", "image/webp":
		return nil
	}
	return Invalid(KeyInvalidRequest)
}

// validFileID: a lower-case hex SHA-256.
func validFileID(id string) bool {
	if len(id) != 64 {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}
