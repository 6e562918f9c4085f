package secret

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"strings"
	"sync"
)

// KeySize is the length of the master key of personal data (LOTBOOK_SECRET_KEY).
const KeySize = 32

// sealVersion prefixes every sealed value, so that a later key (or algorithm) can be told apart.
const sealVersion = "v1:"

// ErrSealed is returned for a sealed value that does not open: malformed, tampered with, sealed
// under another key or for another context.
var ErrSealed = errors.New("secret: sealed value does not open")

// Sealer encrypts personal numbers (ID and card numbers) with AES-256-GCM and computes keyed
// hashes (HMAC-SHA256) that find duplicates without storing the numbers. Both keys are derived
// from one master key, each for its own purpose, so that neither reveals the other.
type Sealer struct {
	aead   cipher.AEAD
	macKey []byte
	// macs are HMACs under macKey, reset after each use: every command's request fingerprint is
	// a keyed hash, and a new HMAC costs two SHA-256 states and their pads.
	macs sync.Pool
}

// NewSealer returns a Sealer for a KeySize-byte master key.
func NewSealer(master []byte) (*Sealer, error) {
	if len(master) != KeySize {
		return nil, fmt.Errorf("secret: master key has %d bytes, want %d", len(master), KeySize)
	}
	block, err := aes.NewCipher(derive(master, "lotbook/seal/aes-256-gcm/v1"))
	if err != nil {
		return nil, fmt.Errorf("secret: %w", err)
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, fmt.Errorf("secret: %w", err)
	}
	s := &Sealer{aead: aead, macKey: derive(master, "lotbook/keyed-hash/hmac-sha256/v1")}
	s.macs.New = func() any { return hmac.New(sha256.New, s.macKey) }
	return s, nil
}

func derive(master []byte, purpose string) []byte {
	m := hmac.New(sha256.New, master)
	m.Write([]byte(purpose))
	return m.Sum(nil)
}

// Seal encrypts plaintext bound to context (for example "idnumber:<member id>"): the sealed value
// opens only with the same context, so it cannot be copied onto another member. Each call uses a
// fresh random nonce.
func (s *Sealer) Seal(plaintext, context string) (string, error) {
	nonce := make([]byte, s.aead.NonceSize())
	if _, err := rand.Read(nonce); err != nil {
		return "", fmt.Errorf("secret: nonce: %w", err)
	}
	out := s.aead.Seal(nonce, nonce, []byte(plaintext), []byte(context))
	return sealVersion + base64.RawURLEncoding.EncodeToString(out), nil
}

// Open decrypts a value sealed for context.
func (s *Sealer) Open(sealed, context string) (string, error) {
	rest, ok := strings.CutPrefix(sealed, sealVersion)
	if !ok {
		return "", ErrSealed
	}
	raw, err := base64.RawURLEncoding.DecodeString(rest)
	if err != nil || len(raw) < s.aead.NonceSize()+s.aead.Overhead() {
		return "", ErrSealed
	}
	n := s.aead.NonceSize()
	pt, err := s.aead.Open(nil, raw[:n], raw[n:], []byte(context))
	if err != nil {
		return "", ErrSealed
	}
	return string(pt), nil
}

// KeyedHash is the hex HMAC-SHA256 of value within domain ("idnumber", "card"). Without the key
// it cannot be reversed by trying every ID number, unlike a plain hash.
func (s *Sealer) KeyedHash(domain, value string) string {
	m := s.macs.Get().(hash.Hash)
	m.Write([]byte(domain))
	m.Write([]byte{0})
	m.Write([]byte(value))
	var sum [sha256.Size]byte
	out := hex.EncodeToString(m.Sum(sum[:0]))
	m.Reset()
	s.macs.Put(m)
	return out
}

// ParseKey reads a master key written as 64 hex digits or as base64 (standard or URL alphabet,
// padded or not) of exactly KeySize bytes.
func ParseKey(s string) ([]byte, error) {
	s = strings.TrimSpace(s)
	if len(s) == 2*KeySize {
		if b, err := hex.DecodeString(s); err == nil {
			return b, nil
		}
	}
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		if b, err := enc.DecodeString(s); err == nil {
			if len(b) != KeySize {
				return nil, fmt.Errorf("secret: key has %d bytes, want %d", len(b), KeySize)
			}
			return b, nil
		}
	}
	return nil, fmt.Errorf("secret: key is neither %d hex digits nor base64 of %d bytes", 2*KeySize, KeySize)
}

// DevKey is the fixed, public key of demo and test runs: data sealed with it is not protected.
// Production refuses to start without a configured key (api.OpenStack).
func DevKey() []byte {
	sum := sha256.Sum256([]byte("lotbook development key: public, protects nothing"))
	return sum[:]
}
