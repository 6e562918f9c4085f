package funds

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"

	lru "github.com/hashicorp/golang-lru/v2"
	"golang.org/x/sync/singleflight"

	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/commands/rules/secret"
)

// verifiedMemo remembers password checks that succeeded, so that a channel password, checked on
// every deposit, costs one argon2id per process and channel rather than one per deposit. Keys
// are HMACs under a key made for this process: the memo holds no password, and nothing that can
// be checked against one without that key. Only successes are kept, so wrong guesses cannot grow
// it and each still pays the full check. Concurrent checks of one pair share one computation:
// the first deposits after a start would otherwise each hash at once (19 MiB apiece).
type verifiedMemo struct {
	key    []byte
	ok     *lru.Cache[[sha256.Size]byte, struct{}]
	flight singleflight.Group
}

// memoLimit bounds the memo; it holds one entry per channel password in use, so reaching it
// only means many reconfigurations, which forget the passwords checked least recently.
const memoLimit = 1024

func newVerifiedMemo() *verifiedMemo {
	key := make([]byte, 32)
	_, _ = rand.Read(key) // crypto/rand.Read never fails (it panics instead)
	ok, err := lru.New[[sha256.Size]byte, struct{}](memoLimit)
	if err != nil {
		panic("commands: verified memo: " + err.Error()) // memoLimit is positive
	}
	return &verifiedMemo{key: key, ok: ok}
}

// check answers verify(stored, password), from the memo when it succeeded before.
func (v *verifiedMemo) check(stored, password string, verify commands.Verifier) bool {
	m := hmac.New(sha256.New, v.key)
	m.Write([]byte(stored))
	m.Write([]byte{0})
	m.Write([]byte(password))
	var k [sha256.Size]byte
	copy(k[:], m.Sum(nil))
	if _, hit := v.ok.Get(k); hit {
		return true
	}
	ok, _, _ := v.flight.Do(string(k[:]), func() (any, error) {
		if !verify(stored, password) {
			return false, nil
		}
		v.ok.Add(k, struct{}{})
		return true, nil
	})
	return ok.(bool)
}

// channelPasswordOK checks a deposit channel password against its stored hash (argon2id, or the
// SHA-256 of channels configured before it); a malformed stored hash never matches.
func (s *Commands) channelPasswordOK(stored, password string) bool {
	return s.channelMemo.check(stored, password, func(stored, password string) bool {
		var (
			ok  bool
			err error
		)
		s.k.KDF(func() { ok, err = secret.VerifyChannelPassword(stored, password) })
		if err != nil {
			s.k.Logger().Error("stored channel password hash is malformed", "err", err)
		}
		return ok
	})
}
