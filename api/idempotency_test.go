package api

import (
	"context"
	"testing"

	"github.com/google/uuid"
)

// An Idempotency-Key belongs to one command: a key that another command used (even one whose
// route does not require keys, even one that was refused) never decides anything for a
// different request.

// The exploit of issue 9: a logout under key K writes its record on the member stream; a
// withdrawal with a wrong fund password under the same K must not find that record and take it
// for its own fund-password check.
func TestKeyReuseCannotPassFundPassword(t *testing.T) {
	forEachBackend(t, func(t *testing.T, h *harness) {
		h.withdrawals()
		m, card := h.ready("0912345678", "A123456789", "0123456789012", "2000")
		second := h.login(m.account, "secret123")
		key := uuid.NewString()
		want(t, second.postKey("/api/vue/user/logout", key, map[string]string{}), 200, "ok")
		h.refused(409, "idempotency_key_reused", func() answer {
			return m.postKey("/api/vue/funds/withdrawals", key, map[string]string{"amount": "1000", "cardId": card, "fundPassword": "654321"})
		})
		// The same logout again is still a logout.
		want(t, second.postKey("/api/vue/user/logout", key, map[string]string{}), 401, "unauthorized")
		want(t, m.withdraw("1000", card, "123456"), 200, "ok")
	})
}

// A refused command keeps its key too: a wrong fund password under K is not the answer of a
// fund-password change under K, and retrying the refused withdrawal does not count it twice.
func TestRefusedCommandKeepsItsKey(t *testing.T) {
	forEachBackend(t, func(t *testing.T, h *harness) {
		h.withdrawals()
		m, card := h.ready("0912345678", "A123456789", "0123456789012", "2000")
		key := uuid.NewString()
		wrong := map[string]string{"amount": "100", "cardId": card, "fundPassword": "654321"}
		want(t, m.postKey("/api/vue/funds/withdrawals", key, wrong), 422, "fund_password_wrong")
		h.refused(409, "idempotency_key_reused", func() answer {
			return m.postKey("/api/vue/user/fundPassword/change", key,
				map[string]string{"oldFundPassword": "123456", "fundPassword": "246810", "confirmFundPassword": "246810"})
		})
		h.refused(409, "idempotency_key_reused", func() answer {
			return m.postKey("/api/vue/funds/withdrawals", key, map[string]string{"amount": "100", "cardId": card, "fundPassword": "123456"})
		})
		// The identical retry answers the same and is not a second wrong try: three more wrong
		// tries make four, one short of the lock.
		h.unchanged(func() {
			want(t, m.postKey("/api/vue/funds/withdrawals", key, wrong), 422, "fund_password_wrong")
		})
		for range 3 {
			want(t, m.withdraw("100", card, "654321"), 422, "fund_password_wrong")
		}
		want(t, m.withdraw("100", card, "123456"), 200, "ok")
	})
}

// Routes where the key is optional (register, login, logout) claim it all the same.
func TestOptionalRoutesClaimTheirKey(t *testing.T) {
	forEachBackend(t, func(t *testing.T, h *harness) {
		key := uuid.NewString()
		form := map[string]string{"account": "0912345678", "password": "secret123", "confirmPassword": "secret123", "inviteCode": "LOTBOOK"}
		want(t, h.anon().postKey("/api/vue/user/register", key, form), 200, "ok")
		h.refused(409, "idempotency_key_reused", func() answer {
			return h.anon().postKey("/api/vue/user/login", key, map[string]string{"account": "0912345678", "password": "secret123"})
		})
		// An identical retry runs again and is answered as before keys were kept (the account
		// now exists); it is never answered from a stored body, which would hold a token.
		want(t, h.anon().postKey("/api/vue/user/register", key, form), 422, "account_exists")

		m := h.login("0912345678", "secret123")
		loginKey := uuid.NewString()
		creds := map[string]string{"account": "0912345678", "password": "secret123"}
		first := h.anon().postKey("/api/vue/user/login", loginKey, creds)
		want(t, first, 200, "ok")
		h.refused(409, "idempotency_key_reused", func() answer {
			return m.postKey("/api/vue/user/favorites", loginKey, map[string]string{"symbol": "2330"})
		})
		h.refused(409, "idempotency_key_reused", func() answer {
			return h.anon().postKey("/api/vue/user/login", loginKey, map[string]string{"account": "0912345678", "password": "wrong123"})
		})
		if first.header.Get("Idempotent-Replayed") != "" {
			t.Fatal("a login answer was replayed")
		}
		rec, found, err := h.st.idem.get(context.Background(), loginKey)
		if err != nil || !found || len(rec.Body) != 0 {
			t.Fatalf("login key record %+v, found %v, %v: want a claim without a body", rec, found, err)
		}
	})
}
