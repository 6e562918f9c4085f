// Package secret hashes and checks passwords (argon2id, PHC strings), makes session tokens and
// hashes them, and compares secrets in constant time.
package secret

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"golang.org/x/crypto/argon2"
)

// Cost is the argon2id work factor of new hashes. Hashes carry their own parameters, so raising
// the cost later keeps old hashes verifiable.
type Cost struct {
	Time      uint32 // passes over memory
	MemoryKiB uint32
	Threads   uint8
}

// DefaultCost follows OWASP's argon2id baseline (19 MiB, 2 passes, 1 lane): about 25-50 ms of
// one core here, which bounds how fast a stolen hash can be guessed.
var DefaultCost = Cost{Time: 2, MemoryKiB: 19 * 1024, Threads: 1}

// TestCost is cheap, for tests only.
var TestCost = Cost{Time: 1, MemoryKiB: 64, Threads: 1}

const (
	saltLen = 16
	keyLen  = 32
	// Parameters above these are refused when verifying, so a forged hash cannot make one check
	// eat the machine.
	maxTime      = 16
	maxMemoryKiB = 1 << 20
)

var b64 = base64.RawStdEncoding

// ErrMalformedHash is returned for a stored hash that is not an argon2id PHC string we accept.
var ErrMalformedHash = errors.New("secret: malformed argon2id hash")

// HashPassword returns the argon2id PHC string of password with a fresh random salt:
// $argon2id$v=19$m=<KiB>,t=<passes>,p=<lanes>$<salt>$<hash> (unpadded standard base64).
func HashPassword(password string, c Cost) (string, error) {
	if c.Time == 0 || c.Threads == 0 || c.MemoryKiB < 8*uint32(c.Threads) {
		return "", fmt.Errorf("secret: argon2id cost %+v is too small", c)
	}
	salt := make([]byte, saltLen)
	if _, err := rand.Read(salt); err != nil {
		return "", fmt.Errorf("secret: salt: %w", err)
	}
	key := argon2.IDKey([]byte(password), salt, c.Time, c.MemoryKiB, c.Threads, keyLen)
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s",
		argon2.Version, c.MemoryKiB, c.Time, c.Threads, b64.EncodeToString(salt), b64.EncodeToString(key)), nil
}

// VerifyPassword reports whether password matches the PHC string, comparing in constant time.
func VerifyPassword(phc, password string) (bool, error) {
	parts := strings.Split(phc, "$")
	// "", "argon2id", "v=19", "m=..,t=..,p=..", salt, hash
	if len(parts) != 6 || parts[0] != "" || parts[1] != "argon2id" || parts[2] != "v="+strconv.Itoa(argon2.Version) {
		return false, ErrMalformedHash
	}
	var m, t uint32
	var p uint8
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &m, &t, &p); err != nil {
		return false, ErrMalformedHash
	}
	if t == 0 || t > maxTime || p == 0 || m < 8*uint32(p) || m > maxMemoryKiB {
		return false, ErrMalformedHash
	}
	salt, err := b64.DecodeString(parts[4])
	if err != nil || len(salt) == 0 {
		return false, ErrMalformedHash
	}
	want, err := b64.DecodeString(parts[5])
	if err != nil || len(want) == 0 {
		return false, ErrMalformedHash
	}
	got := argon2.IDKey([]byte(password), salt, t, m, p, uint32(len(want)))
	return subtle.ConstantTimeCompare(got, want) == 1, nil
}

// NewToken returns a random 256-bit session token, base64url without padding (43 characters).
func NewToken() (string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("secret: token: %w", err)
	}
	return base64.RawURLEncoding.EncodeToString(b), nil
}

// HashToken is the hex SHA-256 of a session token: what the store and read models keep. Tokens
// are random and long, so a fast hash is enough.
func HashToken(token string) string { return SHA256Hex(token) }

// VerifyChannelPassword checks a deposit channel's password against its stored hash: an
// argon2id PHC string (HashPassword), or the unsalted hex SHA-256 that channels configured before
// argon2id carry in their events (the log is immutable, so those must keep working until the
// channel is configured again).
func VerifyChannelPassword(stored, password string) (bool, error) {
	if IsLegacyChannelHash(stored) {
		return Equal(SHA256Hex(password), stored), nil
	}
	return VerifyPassword(stored, password)
}

// IsLegacyChannelHash tells a channel password hash of the old kind (64 lower-case hex digits
// of SHA-256), which is replaced by argon2id whenever the channel's password is given again.
func IsLegacyChannelHash(stored string) bool {
	if len(stored) != 2*sha256.Size {
		return false
	}
	for i := 0; i < len(stored); i++ {
		if c := stored[i]; !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// SHA256Hex is the lower-case hex SHA-256 of s.
func SHA256Hex(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// Equal compares two secrets (or their hashes) in constant time for equal lengths.
func Equal(a, b string) bool {
	return subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1
}
