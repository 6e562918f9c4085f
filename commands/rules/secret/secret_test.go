package secret

import (
	"encoding/base64"
	"strings"
	"testing"
)

func TestHashAndVerifyPassword(t *testing.T) {
	h, err := HashPassword("demo1234", TestCost)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(h, "$argon2id$v=19$m=64,t=1,p=1$") {
		t.Fatalf("PHC string %q", h)
	}
	h2, _ := HashPassword("demo1234", TestCost)
	if h == h2 {
		t.Fatal("two hashes of one password share a salt")
	}
	tamper := func(i int, with string) string {
		p := strings.Split(h, "$")
		p[i] = with
		return strings.Join(p, "$")
	}
	tests := []struct {
		name    string
		phc, pw string
		ok      bool
		bad     bool // malformed
	}{
		{"right password", h, "demo1234", true, false},
		{"second hash", h2, "demo1234", true, false},
		{"wrong password", h, "demo1235", false, false},
		{"empty password", h, "", false, false},
		{"case matters", h, "DEMO1234", false, false},
		{"not argon2id", tamper(1, "argon2i"), "demo1234", false, true},
		{"other version", tamper(2, "v=16"), "demo1234", false, true},
		{"garbled params", tamper(3, "m=x"), "demo1234", false, true},
		{"absurd memory", tamper(3, "m=99999999,t=1,p=1"), "demo1234", false, true},
		{"zero passes", tamper(3, "m=64,t=0,p=1"), "demo1234", false, true},
		{"salt not base64", tamper(4, "!!"), "demo1234", false, true},
		{"empty hash", tamper(5, ""), "demo1234", false, true},
		{"different cost same salt", tamper(3, "m=64,t=2,p=1"), "demo1234", false, false},
		{"empty string", "", "demo1234", false, true},
	}
	for _, tc := range tests {
		ok, err := VerifyPassword(tc.phc, tc.pw)
		if ok != tc.ok || (err != nil) != tc.bad {
			t.Errorf("%s: VerifyPassword = %v, %v; want %v, malformed %v", tc.name, ok, err, tc.ok, tc.bad)
		}
	}
	if _, err := HashPassword("x", Cost{Time: 1, MemoryKiB: 4, Threads: 1}); err == nil {
		t.Error("too small a cost was accepted")
	}
}

func TestDefaultCostRoundTrip(t *testing.T) {
	h, err := HashPassword("opsdemo1", DefaultCost)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(h, "m=19456,t=2,p=1") {
		t.Fatalf("default cost not in %q", h)
	}
	if ok, err := VerifyPassword(h, "opsdemo1"); !ok || err != nil {
		t.Fatalf("verify: %v %v", ok, err)
	}
}

func TestTokens(t *testing.T) {
	seen := map[string]bool{}
	for i := 0; i < 1000; i++ {
		tok, err := NewToken()
		if err != nil {
			t.Fatal(err)
		}
		raw, err := base64.RawURLEncoding.DecodeString(tok)
		if err != nil || len(raw) != 32 || len(tok) != 43 {
			t.Fatalf("token %q: %d bytes, %v", tok, len(raw), err)
		}
		if seen[tok] {
			t.Fatal("repeated token")
		}
		seen[tok] = true
	}
}

func TestHashes(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
		{"8888", "2926a2731f4b312c08982cacf8061eb14bf65c1a87cc5d70e864e079c6220731"},
		{"abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
	}
	for _, tc := range tests {
		if got := SHA256Hex(tc.in); got != tc.want {
			t.Errorf("SHA256Hex(%q) = %s, want %s", tc.in, got, tc.want)
		}
		if HashToken(tc.in) != tc.want {
			t.Errorf("HashToken disagrees with SHA256Hex for %q", tc.in)
		}
	}
	if !Equal("abc", "abc") || Equal("abc", "abd") || Equal("abc", "ab") || !Equal("", "") {
		t.Error("Equal")
	}
}

func TestVerifyChannelPassword(t *testing.T) {
	phc, err := HashPassword("8888", TestCost)
	if err != nil {
		t.Fatal(err)
	}
	legacy := SHA256Hex("8888") // what channels configured before argon2id carry
	tests := []struct {
		name, stored, pw string
		ok, malformed    bool
	}{
		{"argon2id, right", phc, "8888", true, false},
		{"argon2id, wrong", phc, "8889", false, false},
		{"argon2id, empty", phc, "", false, false},
		{"legacy sha-256, right", legacy, "8888", true, false},
		{"legacy sha-256, wrong", legacy, "8889", false, false},
		{"legacy upper-case hex is not ours", strings.ToUpper(legacy), "8888", false, true},
		{"63 hex digits", legacy[:63], "8888", false, true},
		{"empty hash", "", "8888", false, true},
		{"plain text stored", "8888", "8888", false, true},
	}
	for _, tc := range tests {
		ok, err := VerifyChannelPassword(tc.stored, tc.pw)
		if ok != tc.ok || (err != nil) != tc.malformed {
			t.Errorf("%s: ok %v err %v", tc.name, ok, err)
		}
	}
	if !IsLegacyChannelHash(legacy) || IsLegacyChannelHash(phc) {
		t.Error("IsLegacyChannelHash")
	}
}
