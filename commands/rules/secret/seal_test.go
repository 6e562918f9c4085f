package secret

import (
	"encoding/base64"
	"encoding/hex"
	"strings"
	"testing"
)

func TestSealOpensOnlyInItsContext(t *testing.T) {
	s, err := NewSealer(DevKey())
	if err != nil {
		t.Fatal(err)
	}
	a, err := s.Seal("A123456789", "idnumber:m1")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := s.Seal("A123456789", "idnumber:m1")
	if a == b {
		t.Fatal("two seals of one value must differ (fresh nonce)")
	}
	if strings.Contains(a, "A123456789") || !strings.HasPrefix(a, "v1:") {
		t.Fatalf("sealed value %q", a)
	}
	if got, err := s.Open(a, "idnumber:m1"); err != nil || got != "A123456789" {
		t.Fatalf("Open = %q, %v", got, err)
	}
	other, _ := NewSealer(make([]byte, KeySize))
	tampered := a[:len(a)-2] + "AA"
	if tampered == a {
		tampered = a[:len(a)-2] + "BB"
	}
	for name, c := range map[string]struct {
		s      *Sealer
		v, ctx string
	}{
		"other context": {s, a, "idnumber:m2"},
		"other key":     {other, a, "idnumber:m1"},
		"tampered":      {s, tampered, "idnumber:m1"},
		"no version":    {s, strings.TrimPrefix(a, "v1:"), "idnumber:m1"},
		"not base64":    {s, "v1:***", "idnumber:m1"},
		"too short":     {s, "v1:AAAA", "idnumber:m1"},
	} {
		if _, err := c.s.Open(c.v, c.ctx); err != ErrSealed {
			t.Errorf("%s: Open err = %v, want ErrSealed", name, err)
		}
	}
}

func TestKeyedHash(t *testing.T) {
	s, _ := NewSealer(DevKey())
	other, _ := NewSealer(make([]byte, KeySize))
	h := s.KeyedHash("idnumber", "A123456789")
	if len(h) != 64 || h != s.KeyedHash("idnumber", "A123456789") {
		t.Fatalf("keyed hash %q not stable hex", h)
	}
	if h == s.KeyedHash("card", "A123456789") || h == other.KeyedHash("idnumber", "A123456789") ||
		h == SHA256Hex("A123456789") || h == s.KeyedHash("idnumber", "A123456780") {
		t.Fatal("keyed hash must depend on domain, key and value, and differ from a plain hash")
	}
	// Request fingerprints are stored in events and idempotency records: the same request must
	// hash the same in every version, and after the pooled HMAC served other values.
	const fingerprint = "feb1d522bf3352d638579c2792a81cb60e15a9d881e630c5bfad11713efe550e"
	for range 3 {
		if got := s.KeyedHash("request", "member:a\nPOST /api/x\n00"); got != fingerprint {
			t.Fatalf("request fingerprint %s, want %s", got, fingerprint)
		}
	}
}

func TestParseKey(t *testing.T) {
	key := make([]byte, KeySize)
	for i := range key {
		key[i] = byte(i * 7)
	}
	for _, s := range []string{
		hex.EncodeToString(key), strings.ToUpper(hex.EncodeToString(key)), " " + hex.EncodeToString(key) + "\n",
		base64.StdEncoding.EncodeToString(key), base64.RawStdEncoding.EncodeToString(key),
		base64.URLEncoding.EncodeToString(key), base64.RawURLEncoding.EncodeToString(key),
	} {
		got, err := ParseKey(s)
		if err != nil || string(got) != string(key) {
			t.Errorf("ParseKey(%q) = %x, %v", s, got, err)
		}
	}
	for _, s := range []string{"", "short", hex.EncodeToString(key[:16]), base64.StdEncoding.EncodeToString(key[:31]),
		base64.StdEncoding.EncodeToString(append(key, 1)), strings.Repeat("z", 64)} {
		if _, err := ParseKey(s); err == nil {
			t.Errorf("ParseKey(%q) accepted", s)
		}
	}
	if _, err := NewSealer(key[:31]); err == nil {
		t.Error("NewSealer accepted a 31-byte key")
	}
}
