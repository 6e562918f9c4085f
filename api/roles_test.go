package api

import (
	"regexp"
	"slices"
	"testing"

	"github.com/google/uuid"

	"github.com/lotbook/lotbook/api/httpx"
)

// TestRolePolicyOnEveryRoute: every operation every module declares is admitted by its role's
// subrouter only. An anonymous caller gets 401 on all but the public ones; a caller of a role
// the operation does not name gets 403, before any handler runs, and nothing changes.
func TestRolePolicyOnEveryRoute(t *testing.T) {
	h := newHarness(t, testDB{kind: "sqlite"}, RateLimits{})
	callers := map[string]*client{
		"member":  h.register("0912345678"),
		"ops":     h.ops,
		"auditor": h.aud,
	}
	admits := map[httpx.Role][]string{
		httpx.AnyUser: {"member", "ops", "auditor"},
		httpx.Member:  {"member"},
		httpx.Ops:     {"ops"},
		httpx.Auditor: {"auditor"},
	}
	vars := regexp.MustCompile(`\{[^}]+\}`)
	n := 0
	for _, mod := range (&server{}).capabilities() {
		for _, rt := range mod.Routes() {
			if rt.Role == httpx.Public {
				continue
			}
			n++
			path := vars.ReplaceAllString(rt.Path, "0912345678")
			send := func(c *client) answer {
				return c.raw(rt.Method, path, "application/json", []byte(`{}`), "Idempotency-Key", uuid.NewString())
			}
			h.unchanged(func() {
				if a := send(h.anon()); a.code != 401 || a.Msg != "unauthorized" {
					t.Errorf("anonymous %s %s: %s, want 401 unauthorized", rt.Method, rt.Path, a)
				}
				for name, c := range callers {
					if slices.Contains(admits[rt.Role], name) {
						continue
					}
					if a := send(c); a.code != 403 || a.Msg != "forbidden" {
						t.Errorf("%s on %s %s: %s, want 403 forbidden", name, rt.Method, rt.Path, a)
					}
				}
			})
		}
	}
	if n < 40 {
		t.Fatalf("checked %d operations; the modules declare more", n)
	}
}
