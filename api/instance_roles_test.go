package api

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestInstanceRolesServeTheirShare: a projector or process instance answers the probes and
// nothing of the API; each is ready once its own work (the read models, the matching engine)
// reached the log's head. An API instance needs the shared PostgreSQL and NATS.
func TestInstanceRolesServeTheirShare(t *testing.T) {
	for _, role := range []Role{RoleProjector, RoleProcess} {
		t.Run(string(role), func(t *testing.T) {
			st, _ := openTestStack(t, testDB{kind: "postgres"}, RateLimits{}, newTestClock(), func(c *Config) { c.Role = role })
			get := func(path string) (int, string) {
				rec := httptest.NewRecorder()
				st.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
				return rec.Code, rec.Body.String()
			}
			if code, _ := get("/healthz"); code != http.StatusOK {
				t.Fatalf("/healthz %d", code)
			}
			if code, _ := get("/api/vue/market/stocks"); code != http.StatusNotFound {
				t.Fatalf("a %s instance serves the API: %d", role, code)
			}
			// The log is (nearly) empty: whatever the instance's work, it is within reach of the head.
			if code, body := get("/readyz"); code != http.StatusOK || !strings.HasPrefix(body, "ok ") {
				t.Fatalf("/readyz %d %q", code, body)
			}
		})
	}
	for _, cfg := range []Config{
		{DataDir: t.TempDir(), Role: RoleAPI, NATSURL: "nats://127.0.0.1:4222"},
		{DataDir: t.TempDir(), Role: RoleAPI, DatabaseURL: "postgres://127.0.0.1:1/none"},
		{DataDir: t.TempDir(), Role: RoleProcess},
	} {
		if st, err := OpenStack(t.Context(), cfg); err == nil {
			st.Close()
			t.Errorf("OpenStack %+v opened", cfg)
		}
	}
}
