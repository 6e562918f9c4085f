// Package archtest fails when a package's imports break the arrows of ARCHITECTURE.md.
package archtest

import (
	"fmt"
	"go/build"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
)

const module = "github.com/lotbook/lotbook"

// under reports whether pkg is prefix or inside it (by path segment).
func under(pkg, prefix string) bool {
	return pkg == prefix || strings.HasPrefix(pkg, prefix+"/")
}

func underAny(pkg string, prefixes []string) bool {
	for _, p := range prefixes {
		if under(pkg, p) {
			return true
		}
	}
	return false
}

func ours(rel ...string) []string {
	out := make([]string, len(rel))
	for i, r := range rel {
		out[i] = module + "/" + r
	}
	return out
}

// rule forbids packages under Who (all packages when empty), except those under Except, to import
// anything under Forbid, except what is under Allow.
type rule struct {
	Who    []string
	Exact  bool // Who names packages exactly, not their subpackages
	Except []string
	// ExceptOnly exempts exactly these packages, not their subpackages.
	ExceptOnly []string
	Forbid     []string
	Allow      []string
	Why        string
}

func (r rule) applies(pkg string) bool {
	if r.Exact {
		return slices.Contains(r.Who, pkg)
	}
	return (len(r.Who) == 0 || underAny(pkg, r.Who)) && !underAny(pkg, r.Except) && !slices.Contains(r.ExceptOnly, pkg)
}

func (r rule) forbids(imp string) bool {
	return underAny(imp, r.Forbid) && !underAny(imp, r.Allow)
}

var httpPkgs = []string{"net/http", "github.com/gorilla/mux", "github.com/gorilla/websocket"}

var sqlPkgs = []string{"database/sql", "github.com/jackc/pgx", "github.com/lib/pq",
	"github.com/mattn/go-sqlite3", "github.com/ThreeDotsLabs/watermill-sql"}

// rules are the arrows of ARCHITECTURE.md ("Layout and dependency direction"). They apply to the
// code that ships; tests may reach further (a scenario test checks the audit after commands).
var rules = []rule{
	{Who: ours("events"), Exact: true, Forbid: []string{module},
		Why: "the event catalogue and store contract import no other package of ours"},
	{Who: ours("events"), Forbid: []string{module}, Allow: ours("events"),
		Why: "events imports no other package of ours"},
	{Who: ours("pipeline"), Forbid: []string{module}, Allow: ours("events"),
		Why: "the pipeline carries the log to commands and projections alike: it imports only events of ours"},
	{Who: ours("commands"), Forbid: ours("projections", "api", "ops", "cmd", "web"),
		Why: "commands never reads projections and knows nothing of api or ops"},
	{Who: ours("projections"), Forbid: ours("commands", "api", "ops", "cmd", "web"), Allow: ours("commands/rules"),
		Why: "projections never calls commands (its pure rules value positions) and knows nothing of api or ops"},
	{Who: ours("market"), Forbid: ours("commands", "projections", "api", "ops", "cmd", "web"),
		Why: "market is used by api and commands, never the other way round"},
	{Except: ours("api", "cmd", "ops"), Forbid: ours("api"),
		Why: "only cmd and ops wire the api"},
	{Forbid: ours("cmd"), Why: "cmd is a main package: wiring only, imported by nobody"},
	{Except: ours("api", "cmd", "ops"), Forbid: httpPkgs,
		Why: "only api knows HTTP"},
	{Except: ours("events/sqlite", "events/postgres"), ExceptOnly: ours("projections"), Forbid: sqlPkgs,
		Why: "only store backends and the projections' database layer know SQL dialects"},
	{Except: ours("events/kurrent"), Forbid: []string{"github.com/kurrent-io", "github.com/EventStore"},
		Why: "only the KurrentDB backend knows its client"},
	{Except: ours("projections/projtest"), Forbid: ours("projections/projtest"),
		Why: "projtest is the read models' test bed: only tests import it"},
	{Except: ours("commands/commandstest"), Forbid: ours("commands/commandstest"),
		Why: "commandstest (and its scenario) is the write side's test bed: only tests import it"},
}

// capabilityLayers are the layers split into capability packages (<layer>/<name>), each with
// the packages under it that are no capability: under projections the audit (it reads every
// registered read model) and projtest (the test bed of all of them); under api the HTTP core
// (httpx), the contract's types (wire) and the tests' image maker; under commands (the kernel)
// the pure rules, the process-manager runtime, exchange rates and the test bed (commandstest).
var capabilityLayers = map[string][]string{
	"commands":    ours("commands/rules", "commands/process", "commands/fx", "commands/commandstest"),
	"projections": ours("projections/audit", "projections/projtest"),
	"api":         ours("api/httpx", "api/wire", "api/testimage"),
}

// capabilityOf is the capability package pkg belongs to (<layer>/<name>), or "" for a layer's
// core, its shared packages and everything outside the capability layers.
func capabilityOf(pkg string) string {
	for layer, shared := range capabilityLayers {
		rest, ok := strings.CutPrefix(pkg, module+"/"+layer+"/")
		if !ok || underAny(pkg, shared) {
			continue
		}
		name, _, _ := strings.Cut(rest, "/")
		return module + "/" + layer + "/" + name
	}
	return ""
}

// crossesCapabilities reports whether pkg, a capability's package, imports another capability's
// package of the same layer: they meet through events only, each folding the events it needs
// itself (an api capability reads its own capability's read models, in the layer below).
func crossesCapabilities(pkg, imp string) bool {
	from, to := capabilityOf(pkg), capabilityOf(imp)
	return from != "" && to != "" && from != to && layerOf(from) == layerOf(to)
}

// coreReadsCapability reports whether pkg is the HTTP core (package api) reading a capability's
// read model: the core serves the modules it lists, and only they know what a capability reads.
func coreReadsCapability(pkg, imp string) bool {
	return pkg == module+"/api" && layerOf(capabilityOf(imp)) == "projections"
}

func layerOf(capability string) string {
	layer, _, _ := strings.Cut(strings.TrimPrefix(capability, module+"/"), "/")
	return layer
}

// violations checks every package's imports against rules; one line per broken arrow.
func violations(imports map[string][]string) []string {
	var out []string
	for pkg, imps := range imports {
		for _, imp := range imps {
			for _, r := range rules {
				if r.applies(pkg) && r.forbids(imp) {
					out = append(out, fmt.Sprintf("%s imports %s: %s",
						strings.TrimPrefix(pkg, module+"/"), imp, r.Why))
				}
			}
			if crossesCapabilities(pkg, imp) {
				out = append(out, fmt.Sprintf("%s imports %s: capabilities meet through events only",
					strings.TrimPrefix(pkg, module+"/"), imp))
			}
			if coreReadsCapability(pkg, imp) {
				out = append(out, fmt.Sprintf("api imports %s: the HTTP core reads no capability's read model; its modules do", imp))
			}
		}
	}
	sort.Strings(out)
	return out
}

// repoImports lists the non-test imports of every Go package of the module, honouring build
// constraints of this platform.
func repoImports(t *testing.T) map[string][]string {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("module root not found at %s: %v", root, err)
	}
	out := map[string][]string{}
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		name := d.Name()
		if path != root && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") ||
			name == "testdata" || name == "node_modules" || name == "web" || name == "bin" || name == "data") {
			return filepath.SkipDir
		}
		p, err := build.ImportDir(path, 0)
		if err != nil {
			if _, ok := err.(*build.NoGoError); ok {
				return nil
			}
			return fmt.Errorf("%s: %w", path, err)
		}
		rel, _ := filepath.Rel(root, path)
		pkg := module
		if rel != "." {
			pkg += "/" + filepath.ToSlash(rel)
		}
		out[pkg] = p.Imports
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestImportDirection(t *testing.T) {
	imports := repoImports(t)
	if len(imports) == 0 {
		t.Fatal("no packages found")
	}
	for _, v := range violations(imports) {
		t.Error(v)
	}
}

func TestRulesCatchBrokenArrows(t *testing.T) {
	tests := []struct {
		pkg, imp string
		bad      bool
	}{
		{"events", module + "/commands", true},
		{"events", module + "/events/sqlite", true},
		{"events/sqlite", module + "/events", false},
		{"events/sqlite", "github.com/mattn/go-sqlite3", false},
		{"events/postgres", "github.com/jackc/pgx/v5/pgxpool", false},
		{"events/backend", module + "/events/postgres", false},
		{"events/kurrent", "github.com/kurrent-io/KurrentDB-Client-Go/kurrentdb", false},
		{"commands", module + "/projections", true},
		{"commands", module + "/api", true},
		{"commands", module + "/ops/seed", true},
		{"commands", module + "/events", false},
		{"commands", module + "/market/calendar", false},
		{"commands", "net/http", true},
		{"commands", "database/sql", true},
		{"commands/rules/money", "github.com/shopspring/decimal", false},
		{"projections", module + "/commands", true},
		{"pipeline", module + "/events", false},
		{"pipeline", module + "/commands", true},
		{"pipeline", module + "/projections", true},
		{"commands/process", module + "/pipeline", false},
		{"projections", module + "/pipeline", false},
		{"projections/trading/valuation", module + "/commands/rules/fees", false},
		{"projections/trading/valuation", module + "/commands/fx", true},
		{"projections/trading/valuation", module + "/projections/trading", false},
		{"projections/funds", module + "/projections/trading/valuation", true},
		{"projections", "database/sql", false},
		{"projections/audit", module + "/projections", false},
		{"projections/audit", "database/sql", true},
		{"projections/audit", module + "/api", true},
		{"projections", "net/http", true},
		{"market/feed", module + "/commands", true},
		{"market", "net/http/httptest", true},
		{"api", "net/http", false},
		{"api", "github.com/gorilla/mux", false},
		{"api", "database/sql", true},
		{"api", "github.com/kurrent-io/KurrentDB-Client-Go/kurrentdb", true},
		{"cmd/lotbook", module + "/api", false},
		{"ops/seed", module + "/commands", false},
		{"ops/loadgen", "net/http", false},
		{"api", module + "/cmd/lotbook", true},
		{"events/postgres", module + "/api", true},
		{"projections/favorites", module + "/projections/reviews", true},
		{"projections/reviews/sub", module + "/projections/favorites/x", true},
		{"projections/reviews", module + "/projections/reviews/sub", false},
		{"projections/favorites", module + "/projections", false},
		{"projections/audit", module + "/projections/favorites", false},
		{"projections/favorites", module + "/projections/projtest", true},
		{"api", module + "/projections/projtest", true},
		{"projections/funds", module + "/projections/projtest/eventlog", true},
		{"projections/projtest", module + "/projections/projtest/eventlog", false},
		{"api", module + "/projections/favorites", true},
		{"projections/favorites", "database/sql", true},
		{"api/market", module + "/api/identity", true},
		{"api/market/quotes", module + "/api/identity/cards", true},
		{"api/market", module + "/api/httpx", false},
		{"api/market", module + "/api/wire", false},
		{"api/market/quotes", module + "/api/market", false},
		{"api/market", module + "/projections/favorites", false},
		{"api/identity", module + "/projections/funds", false},
		{"api", module + "/api/market", false},
		{"commands/favorites", module + "/commands/trading", true},
		{"commands/trading/engine", module + "/commands/funds", true},
		{"commands/trading/engine", module + "/commands/trading", false},
		{"commands/favorites", module + "/commands", false},
		{"commands/favorites", module + "/commands/rules/money", false},
		{"commands/trading", module + "/commands/process", false},
		{"commands/funds", module + "/commands/fx", false},
		{"commands/favorites", module + "/commands/commandstest", true},
		{"api/market", module + "/commands/favorites", false},
		{"api", module + "/commands/funds", false},
		{"api", module + "/projections", false},
		{"api/funds", module + "/api/trading", true},
		{"api/members", module + "/api/funds", true},
		{"api/members", module + "/projections/trading/valuation", false},
		{"api/files", module + "/api/httpx", false},
	}
	for _, tc := range tests {
		got := violations(map[string][]string{module + "/" + tc.pkg: {tc.imp}})
		if (len(got) > 0) != tc.bad {
			t.Errorf("%s importing %s: violations %v, want broken=%v", tc.pkg, tc.imp, got, tc.bad)
		}
	}
}
