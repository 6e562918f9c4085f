package commands

import "errors"

// Kind classifies a refusal; the API turns it into an HTTP status.
type Kind int

// The kinds of refusal, with their HTTP status.
const (
	KindInvalid      Kind = iota + 1 // 400: the request itself is malformed or a field breaks its rule
	KindUnauthorized                 // 401: no or expired session
	KindForbidden                    // 403: forbidden, or the account's state refuses it (flags, lock)
	KindNotFound                     // 404: the thing named does not exist
	KindConflict                     // 409: conflicts with what exists (reused key, taken code)
	KindRule                         // 422: a business rule refuses it
	KindRateLimited                  // 429
	KindUnavailable                  // 503: the store is busy or failing; retry later
)

// HTTPStatus is the status the API answers with (numbers only: commands knows no HTTP).
func (k Kind) HTTPStatus() int {
	switch k {
	case KindInvalid:
		return 400
	case KindUnauthorized:
		return 401
	case KindForbidden:
		return 403
	case KindNotFound:
		return 404
	case KindConflict:
		return 409
	case KindRule:
		return 422
	case KindRateLimited:
		return 429
	default:
		return 503
	}
}

func (k Kind) String() string {
	switch k {
	case KindInvalid:
		return "invalid"
	case KindUnauthorized:
		return "unauthorized"
	case KindForbidden:
		return "forbidden"
	case KindNotFound:
		return "not_found"
	case KindConflict:
		return "conflict"
	case KindRule:
		return "rule"
	case KindRateLimited:
		return "rate_limited"
	case KindUnavailable:
		return "unavailable"
	default:
		return "unknown"
	}
}

// Error is a refusal with the message key the client translates. Err, when set, is the cause
// (for logs; never shown to members).
type Error struct {
	Kind Kind
	Key  string
	Err  error
}

func (e *Error) Error() string {
	if e.Err != nil {
		return e.Key + ": " + e.Err.Error()
	}
	return e.Key
}

func (e *Error) Unwrap() error { return e.Err }

// AsError returns the *Error in err's chain, if any.
func AsError(err error) (*Error, bool) {
	var e *Error
	ok := errors.As(err, &e)
	return e, ok
}

func refuse(k Kind, key string) *Error { return &Error{Kind: k, Key: key} }

// Invalid refuses with key (400): the request or a field breaks its rule.
func Invalid(key string) *Error { return refuse(KindInvalid, key) }

// Rule refuses with key (422), see Invalid.
func Rule(key string) *Error { return refuse(KindRule, key) }

// Forbidden refuses with key (403), see Invalid.
func Forbidden(key string) *Error { return refuse(KindForbidden, key) }

// NotFound refuses with key (404), see Invalid.
func NotFound(key string) *Error { return refuse(KindNotFound, key) }

// TooFrequent refuses with key (429), see Invalid.
func TooFrequent(key string) *Error { return refuse(KindRateLimited, key) }

// KeyReused refuses a command whose id another command already used.
func KeyReused() *Error { return refuse(KindConflict, KeyIdempotencyKeyReused) }

// Unavailable wraps a store or internal failure; the member sees system_busy.
func Unavailable(err error) *Error {
	return &Error{Kind: KindUnavailable, Key: KeySystemBusy, Err: err}
}

// Message keys used by commands (the full list lives with the API and the web app).
const (
	KeyInvalidRequest          = "invalid_request"
	KeySystemBusy              = "system_busy"
	KeyIdempotencyKeyReused    = "idempotency_key_reused"
	KeyAccountRequired         = "account_required"
	KeyPasswordRequired        = "password_required"
	KeyConfirmPasswordRequired = "confirm_password_required"
	KeyInviteCodeRequired      = "invite_code_required"
	KeyPasswordsInconsistent   = "passwords_inconsistent"
	KeyAccountInvalid          = "account_invalid"
	KeyPasswordInvalid         = "password_invalid"
	KeyAccountExists           = "account_exists"
	KeyInviterNotExist         = "inviter_not_exist"
	KeyAccountNotExist         = "account_not_exist"
	KeyAccountOrPasswordWrong  = "account_or_password_wrong"
	KeyAccountFrozen           = "account_frozen"
	KeyLoginBanned             = "login_banned"
	KeyAccountDisabled         = "account_disabled"
	KeyOldPasswordRequired     = "old_password_required"
	KeyOldPasswordWrong        = "old_password_wrong"
	KeyFundPasswordRequired    = "fund_password_required"
	KeyFundPasswordInvalid     = "fund_password_invalid"
	KeyFundPasswordWrong       = "fund_password_wrong"
	KeyFundPasswordNotSet      = "fund_password_not_set"
	KeyFundPasswordAlreadySet  = "fund_password_already_set"
	KeyFundPasswordLocked      = "fund_password_locked"
	KeyChannelNotFound         = "channel_not_found"
	KeyChannelClosed           = "channel_closed"
	KeyChannelPasswordWrong    = "channel_password_wrong"
	KeyPayeeInvalid            = "payee_invalid"
	KeyDepositProofRequired    = "deposit_proof_required"
	KeyDepositWindowClosed     = "deposit_window_closed"
	KeyAmountRequired          = "amount_required"
	KeyAmountInvalid           = "amount_invalid"
	KeyAmountBelowMinimum      = "amount_below_minimum"
	KeyAmountAboveMaximum      = "amount_above_maximum"
	KeyOrderNotFound           = "order_not_found"
	KeyOrderNotPending         = "order_not_pending"
	KeyRemarkRequired          = "remark_required"
	KeyFlagInvalid             = "flag_invalid"
	KeyStaffAccountProtected   = "staff_account_protected"
	KeyFileNotFound            = "file_not_found"
	KeyUploadQuotaExceeded     = "upload_quota_exceeded"
	KeyDepositProofUsed        = "deposit_proof_used"
	KeySubmitTooFrequent       = "submit_too_frequent"
	KeyWithdrawalBanned        = "withdrawal_banned"
	KeyInsufficientBalance     = "insufficient_balance"
	KeyFundOperationPending    = "fund_operation_pending"
	// Identity verification.
	KeyNameRequired        = "name_required"
	KeyNameInvalid         = "name_invalid"
	KeyNameTooManyMarks    = "name_too_many_marks"
	KeyIDNumberRequired    = "id_number_required"
	KeyIDNumberInvalid     = "id_number_invalid"
	KeyIDPhotosRequired    = "id_photos_required"
	KeyIDNumberExists      = "id_number_exists"
	KeyRealNamePending     = "realname_pending"
	KeyRealNameVerified    = "realname_verified"
	KeyRealNameNotPending  = "realname_not_pending"
	KeyRealNameNotVerified = "realname_not_verified"
	// Bank cards.
	KeyCardFieldsRequired = "card_fields_required"
	KeyCardNumberInvalid  = "card_number_invalid"
	KeyBankCodeInvalid    = "bank_code_invalid"
	KeyBranchCodeInvalid  = "branch_code_invalid"
	KeyCardFieldOff       = "card_field_not_enabled"
	KeyIFSCInvalid        = "ifsc_invalid"
	KeyUPIInvalid         = "upi_invalid"
	KeyCardNotOwn         = "card_not_own"
	KeyCardExists         = "card_exists"
	KeyCardNotFound       = "card_not_found"
	KeyCardRequired       = "card_required"
	// Withdrawals.
	KeyWithdrawWindowClosed = "withdraw_window_closed"
	KeyCreditScoreTooLow    = "credit_score_too_low"
	KeyLoanUnpaid           = "loan_unpaid"
	// Currency exchange.
	KeyExchangeCurrencyInvalid = "exchange_currency_invalid"
	KeyExchangeSameCurrency    = "exchange_same_currency"
	KeyExchangePairUnsupported = "exchange_pair_unsupported"
	KeyExchangeQuoteNotFound   = "exchange_quote_not_found"
	KeyExchangeQuoteExpired    = "exchange_quote_expired"
	KeyExchangeQuoteUsed       = "exchange_quote_used"
	// KeyInviteCodeExists refuses a root invite code that a member already holds (ops tooling only).
	KeyInviteCodeExists = "invite_code_exists"
	// KeyInviteCodeInvalid refuses an invite code ops type that is not 4 to 16 letters or digits.
	KeyInviteCodeInvalid = "invite_code_invalid"
	// KeyInviteCodeNotFound refuses disabling a code nobody issued.
	KeyInviteCodeNotFound = "invite_code_not_found"
	// KeyTextInvalid refuses a text ops write that is too long or holds control characters.
	KeyTextInvalid = "text_invalid"
	// Trading (the spec's trading catalogue) and the withdrawable rule.
	KeyTradeBanned              = "trade_banned"
	KeySymbolRequired           = "symbol_required"
	KeySymbolNotFound           = "symbol_not_found"
	KeyQuantityRequired         = "quantity_required"
	KeyQuantityInvalid          = "quantity_invalid"
	KeyPriceRequired            = "price_required"
	KeyPriceInvalid             = "price_invalid"
	KeyPriceOutOfBand           = "price_out_of_band"
	KeyPriceNotOnTick           = "price_not_on_tick"
	KeyPriceNotObtained         = "price_not_obtained"
	KeyLeverageInvalid          = "leverage_invalid"
	KeyOddLotCashOnly           = "odd_lot_cash_only"
	KeyDayTradeBoardLotOnly     = "day_trade_board_lot_only"
	KeyNotTradingTime           = "not_trading_time"
	KeyOrderCancelled           = "order_cancelled"
	KeyPositionNotFound         = "position_not_found"
	KeyPositionNotHolding       = "position_not_holding"
	KeyCloseQuantityInvalid     = "close_quantity_invalid"
	KeyCloseSubmitted           = "close_submitted"
	KeyPositionLocked           = "position_locked"
	KeySaleNotAllowedYet        = "sale_not_allowed_yet"
	KeyInsufficientWithdrawable = "insufficient_withdrawable"
)

// KeySharesHeld refuses a sale of shares another capability holds (lent shares until recalled).
const KeySharesHeld = "shares_lent"

// The order ticket in Taiwan terms (condition, session, time in force).
const (
	KeyConditionMismatch     = "condition_mismatch"        // direction, leverage or day trade disagree with the condition
	KeySessionUnitMismatch   = "session_unit_mismatch"     // 整股 in lots, odd-lot sessions in shares
	KeySessionLimitOnly      = "session_limit_only"        // market orders only in the regular session
	KeyTimeInForceNotAllowed = "time_in_force_not_allowed" // IOC and FOK only in the regular session
	KeyDayTradeRegularOnly   = "day_trade_regular_only"    // day trades only in the regular session
	KeySymbolNotEligible     = "symbol_not_eligible"       // not eligible for margin, short sale or day trade
	KeyDayTradeDisposed      = "day_trade_disposed"        // 處置股: no 現股當沖 either way
	KeyShortBelowReference   = "short_below_reference"     // 融券 below the reference price
	KeyFixedPriceCloseOnly   = "fixed_price_close_only"    // 盤後定價 trades at the day's close only
)
