package market

import (
	"crypto/sha256"
	"fmt"
	"testing"
	"time"
)

// modelFingerprint is the digest of TestFingerprint's answers. It pins the simulated market: a
// change in how the simulator or the candles are computed must leave it alone; a deliberate
// change of the model changes it (then say so and update it).
const modelFingerprint = "d9fbcfd0014eeba4673c248180e53d4666601d619d8dba3053942912a732d4be"

// TestFingerprint digests every quote and some candles of a morning, at start-up and after live
// trading, so that the same seed keeps giving the same market across refactors.
func TestFingerprint(t *testing.T) {
	c := &clock{t: time.Date(2026, 11, 20, 10, 30, 0, 0, tpe)}
	s, err := New(Config{Seed: 1, Now: c.now})
	if err != nil {
		t.Fatal(err)
	}
	h := sha256.New()
	digest := func() {
		for p := 1; ; p++ {
			pg, err := s.Stocks(ListQuery{Page: p, Size: 100})
			if err != nil {
				t.Fatal(err)
			}
			for _, q := range pg.Items {
				fmt.Fprintf(h, "%+v\n", q)
			}
			if !pg.HasMore {
				break
			}
		}
		for _, sym := range []string{"2330", "1103", "00878", "TAIEX", "TPEX"} {
			q, _ := s.Quote(sym)
			fmt.Fprintf(h, "%+v\n", q)
			for _, iv := range []string{"1m", "15m", "1d", "1M"} {
				cs, err := s.Candles(sym, iv, time.Time{}, 50)
				if err != nil {
					t.Fatal(err)
				}
				fmt.Fprintf(h, "%s %s %+v\n", sym, iv, cs)
			}
		}
	}
	digest()
	c.set(time.Date(2026, 11, 20, 10, 47, 30, 0, tpe))
	s.Advance()
	digest()
	if got := fmt.Sprintf("%x", h.Sum(nil)); got != modelFingerprint {
		t.Errorf("market fingerprint %s, want %s", got, modelFingerprint)
	}
}
