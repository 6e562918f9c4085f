package archtest

import (
	"fmt"
	"sort"
	"strings"
	"testing"
)

// apiShared are the api packages that are no capability: the HTTP core and the contract's
// generated types, which every capability may import, and the tests' image maker. They import
// no capability themselves.
var apiShared = ours("api/httpx", "api/wire", "api/testimage")

// apiCapability names the capability an api package belongs to ("market" for api/market and its
// subpackages); "" for package api itself, the shared packages and anything outside api.
func apiCapability(pkg string) string {
	rest, ok := strings.CutPrefix(pkg, module+"/api/")
	if !ok || underAny(pkg, apiShared) {
		return ""
	}
	name, _, _ := strings.Cut(rest, "/")
	return name
}

// capabilityViolations: an api capability package imports no other capability and not package
// api (which composes them); the shared packages import neither. Capabilities meet through
// events; what their handlers share belongs in api/httpx.
func capabilityViolations(imports map[string][]string) []string {
	var out []string
	for pkg, imps := range imports {
		own := apiCapability(pkg)
		if own == "" && !underAny(pkg, apiShared) {
			continue
		}
		for _, imp := range imps {
			other := apiCapability(imp)
			switch {
			case imp == module+"/api":
				out = append(out, fmt.Sprintf("%s imports %s: package api composes the capabilities; they never import it",
					strings.TrimPrefix(pkg, module+"/"), imp))
			case other != "" && other != own:
				out = append(out, fmt.Sprintf("%s imports %s: capabilities meet through events only (shared HTTP code belongs in api/httpx)",
					strings.TrimPrefix(pkg, module+"/"), imp))
			}
		}
	}
	sort.Strings(out)
	return out
}

func TestAPICapabilitiesApart(t *testing.T) {
	imports := repoImports(t)
	n := 0
	for pkg := range imports {
		if apiCapability(pkg) != "" {
			n++
		}
	}
	if n < 2 {
		t.Fatalf("found %d api capability packages; the rule checks nothing", n)
	}
	for _, v := range capabilityViolations(imports) {
		t.Error(v)
	}
}

func TestCapabilityRuleCatchesCrossImports(t *testing.T) {
	tests := []struct {
		pkg, imp string
		bad      bool
	}{
		{"api/market", module + "/api/identity", true},
		{"api/market/quotes", module + "/api/identity/cards", true},
		{"api/market", module + "/api", true},
		{"api/httpx", module + "/api/market", true},
		{"api/httpx", module + "/api", true},
		{"api/wire", module + "/api/identity", true},
		{"api/market", module + "/api/httpx", false},
		{"api/market", module + "/api/wire", false},
		{"api/market/quotes", module + "/api/market", false},
		{"api/market", module + "/commands", false},
		{"api/market", module + "/projections", false},
		{"api", module + "/api/market", false},
		{"cmd/lotbook", module + "/api/market", false},
	}
	for _, tc := range tests {
		got := capabilityViolations(map[string][]string{module + "/" + tc.pkg: {tc.imp}})
		if (len(got) > 0) != tc.bad {
			t.Errorf("%s importing %s: violations %v, want broken=%v", tc.pkg, tc.imp, got, tc.bad)
		}
	}
}
