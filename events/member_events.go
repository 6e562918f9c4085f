package events

import "time"

// Roles of the people who log in.
const (
	RoleMember  = "member"
	RoleOps     = "ops"
	RoleAuditor = "auditor"
)

// Account flags ops can set; each refuses with its own message key.
const (
	FlagFrozen           = "frozen"            // nothing moves; login refused with account_frozen
	FlagLoginBanned      = "login_banned"      // login refused with login_banned
	FlagTradeBanned      = "trade_banned"      // orders refused with trade_banned
	FlagWithdrawalBanned = "withdrawal_banned" // withdrawals refused with withdrawal_banned
	FlagDisabled         = "disabled"          // everything refused with account_disabled
)

// AllFlags lists the account flags in display order.
var AllFlags = []string{FlagFrozen, FlagLoginBanned, FlagTradeBanned, FlagWithdrawalBanned, FlagDisabled}

// MemberRegistered opens a member stream. Ops and auditor users are members with another role.
type MemberRegistered struct {
	MemberID      string `json:"memberId"`
	Account       string `json:"account"`
	Role          string `json:"role"`
	PasswordHash  string `json:"passwordHash"`            // argon2id, PHC string
	InviteCode    string `json:"inviteCode,omitempty"`    // the code used to register
	InviterID     string `json:"inviterId,omitempty"`     // empty for the root code and staff
	OwnInviteCode string `json:"ownInviteCode,omitempty"` // the code this member hands out
}

// InviteCodeIssued opens an invite stream. MemberID is empty for the root code.
type InviteCodeIssued struct {
	Code     string `json:"code"`
	MemberID string `json:"memberId,omitempty"`
}

// InviteCodeDisabled closes an invite code to new registrations (ops); members who registered
// with it keep their accounts.
type InviteCodeDisabled struct {
	Code   string `json:"code"`
	Reason string `json:"reason"`
}

// LoginPasswordChanged replaces the login password; every open session ends with it.
type LoginPasswordChanged struct {
	PasswordHash string `json:"passwordHash"`
}

// SessionOpened records a login. Only the SHA-256 of the token is stored.
type SessionOpened struct {
	TokenHash string    `json:"tokenHash"`
	ExpiresAt time.Time `json:"expiresAt"`
}

// SessionClosed records a logout.
type SessionClosed struct {
	TokenHash string `json:"tokenHash"`
}

// FundPasswordSet sets or changes the 6-digit fund password.
type FundPasswordSet struct {
	Hash string `json:"hash"` // argon2id, PHC string
}

// FundPasswordRejected records a wrong fund password; five within 24 hours lock withdrawals.
type FundPasswordRejected struct {
	Attempt int `json:"attempt"` // failures in the current 24-hour window, this one included
}

// AccountFlagChanged sets or clears an account flag; the actor in metadata is the ops user.
type AccountFlagChanged struct {
	Flag   string `json:"flag"`
	On     bool   `json:"on"`
	Reason string `json:"reason"`
}

// FileUploaded records an image the member uploaded (deposit proof, ID photo), stored by hash.
type FileUploaded struct {
	FileID      string `json:"fileId"` // hex SHA-256 of the re-encoded bytes
	ContentType string `json:"contentType"`
	Size        int64  `json:"size"`
	Width       int    `json:"width"`
	Height      int    `json:"height"`
}

func (MemberRegistered) EventName() string     { return "MemberRegistered" }
func (InviteCodeIssued) EventName() string     { return "InviteCodeIssued" }
func (InviteCodeDisabled) EventName() string   { return "InviteCodeDisabled" }
func (LoginPasswordChanged) EventName() string { return "LoginPasswordChanged" }
func (SessionOpened) EventName() string        { return "SessionOpened" }
func (SessionClosed) EventName() string        { return "SessionClosed" }
func (FundPasswordSet) EventName() string      { return "FundPasswordSet" }
func (FundPasswordRejected) EventName() string { return "FundPasswordRejected" }
func (AccountFlagChanged) EventName() string   { return "AccountFlagChanged" }
func (FileUploaded) EventName() string         { return "FileUploaded" }

func init() {
	register(MemberRegistered{}, 1, nil)
	register(InviteCodeIssued{}, 1, nil)
	register(InviteCodeDisabled{}, 1, nil)
	register(LoginPasswordChanged{}, 1, nil)
	register(SessionOpened{}, 1, nil)
	register(SessionClosed{}, 1, nil)
	register(FundPasswordSet{}, 1, nil)
	register(FundPasswordRejected{}, 1, nil)
	register(AccountFlagChanged{}, 1, nil)
	register(FileUploaded{}, 1, nil)
}
