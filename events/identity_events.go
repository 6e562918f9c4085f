package events

// Identity verification and bank cards live on the member stream. ID and card numbers are stored
// only encrypted (AES-GCM, the key from configuration, never in the log), with a keyed hash
// (HMAC-SHA256) that finds duplicates without the number, and the masked form the app shows.

// Real-name verification states, as members and ops see them.
const (
	RealNameStatusUnverified = "unverified"
	RealNameStatusPending    = "pending"
	RealNameStatusVerified   = "verified"
	RealNameStatusRejected   = "rejected"
)

// RealNameSubmitted is a member's identity verification request; ops review it.
type RealNameSubmitted struct {
	SubmissionID      string `json:"submissionId"` // the submitting command's id; reviews name it
	Name              string `json:"name"`
	IDNumberCipher    string `json:"idNumberCipher"`    // AES-GCM sealed, "v1:" + base64
	IDNumberKeyedHash string `json:"idNumberKeyedHash"` // hex HMAC-SHA256 under the configured key
	IDNumberMasked    string `json:"idNumberMasked"`    // e.g. A12****789
	FrontFileID       string `json:"frontFileId"`
	BackFileID        string `json:"backFileId"`
}

// RealNameApproved verifies the member (actor: the ops user).
type RealNameApproved struct {
	SubmissionID string `json:"submissionId"`
	Remark       string `json:"remark,omitempty"`
}

// RealNameRejected refuses a submission with the reason the member sees; they may submit again.
type RealNameRejected struct {
	SubmissionID string `json:"submissionId"`
	Remark       string `json:"remark"`
}

// BankCardBound adds a withdrawal card whose holder is the verified member.
type BankCardBound struct {
	CardID              string `json:"cardId"`
	HolderName          string `json:"holderName"`
	BankName            string `json:"bankName"`
	Branch              string `json:"branch"`
	BankCode            string `json:"bankCode"`
	CardNumberCipher    string `json:"cardNumberCipher"`    // AES-GCM sealed
	CardNumberKeyedHash string `json:"cardNumberKeyedHash"` // hex HMAC-SHA256, global uniqueness
	CardLast4           string `json:"cardLast4"`
	IFSC                string `json:"ifsc,omitempty"`
	UPI                 string `json:"upi,omitempty"`
}

// BankCardUnbound removes a card.
type BankCardUnbound struct {
	CardID string `json:"cardId"`
}

// AvatarSet makes one of the member's own uploads (re-encoded by the upload path, served only to
// its owner and ops) the member's avatar (member stream).
type AvatarSet struct {
	FileID string `json:"fileId"`
}

// UniqueClaimed is the one event of a guard stream (IDNumberGuardStream, CardGuardStream): the
// value whose keyed hash names the stream now belongs to MemberID, for Ref (a real-name
// submission id or a card id). Opening the stream with expected version NoStream makes the
// first claim exclusive; a later claim takes over only when the holder no longer uses the value.
type UniqueClaimed struct {
	MemberID string `json:"memberId"`
	Ref      string `json:"ref"`
}

// IDNumberGuardStream makes an ID number belong to one member.
func IDNumberGuardStream(keyedHash string) string { return "idnumber-" + keyedHash }

// CardGuardStream makes a card number bound to one card at a time.
func CardGuardStream(keyedHash string) string { return "card-" + keyedHash }

func (RealNameSubmitted) EventName() string { return "RealNameSubmitted" }
func (RealNameApproved) EventName() string  { return "RealNameApproved" }
func (RealNameRejected) EventName() string  { return "RealNameRejected" }
func (BankCardBound) EventName() string     { return "BankCardBound" }
func (BankCardUnbound) EventName() string   { return "BankCardUnbound" }
func (UniqueClaimed) EventName() string     { return "UniqueClaimed" }
func (AvatarSet) EventName() string         { return "AvatarSet" }

func init() {
	register(RealNameSubmitted{}, 1, nil)
	register(AvatarSet{}, 1, nil)
	register(RealNameApproved{}, 1, nil)
	register(RealNameRejected{}, 1, nil)
	register(BankCardBound{}, 1, nil)
	register(BankCardUnbound{}, 1, nil)
	register(UniqueClaimed{}, 1, nil)
}
