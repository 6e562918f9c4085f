package api

import (
	"go/ast"
	"go/token"
	"net/http/httptest"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gorilla/mux"
)

// TestRoutesMatchOpenAPI: every route the server registers is an operation of openapi.yaml and
// every operation is served.
func TestRoutesMatchOpenAPI(t *testing.T) {
	st := newTestStack(t, testDB{kind: "sqlite"})
	var served []string
	err := st.handler.(*mux.Router).Walk(func(r *mux.Route, _ *mux.Router, _ []*mux.Route) error {
		if name := r.GetName(); name != "" {
			served = append(served, name)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(served)
	documented := contract.operations()
	for _, op := range served {
		if !slices.Contains(documented, op) {
			t.Errorf("served but not in openapi.yaml: %s", op)
		}
	}
	for _, op := range documented {
		if !slices.Contains(served, op) {
			t.Errorf("in openapi.yaml but not served: %s", op)
		}
	}
}

// TestRequestSchemasAreClosed: every request body the handlers decode is a closed schema of the
// document (contract.shape panics otherwise).
func TestRequestSchemasAreClosed(t *testing.T) {
	for _, name := range schemaNamesDecoded(t) {
		if _, ok := contract.shapes[name]; !ok {
			t.Errorf("handlers decode %s, which openapi.yaml lacks or leaves open", name)
		}
	}
}

// schemaNamesDecoded finds the string literals passed to c.Decode in the handlers of this package
// and of the capability packages under it.
func schemaNamesDecoded(t *testing.T) []string {
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	names := stringArgsOf(t, ".", "Decode")
	for _, e := range entries {
		if e.IsDir() {
			names = append(names, stringArgsOf(t, e.Name(), "Decode")...)
		}
	}
	if len(names) < 8 {
		t.Fatalf("found only %d decode calls: %v", len(names), names)
	}
	return names
}

// stringArgsOf returns the string literal first arguments of calls to a method or function named
// fn in the non-test Go files of dir.
func stringArgsOf(t *testing.T, dir, fn string) []string {
	t.Helper()
	var out []string
	for _, af := range sourceFiles(t, dir) {
		ast.Inspect(af, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) == 0 {
				return true
			}
			name := ""
			switch f := call.Fun.(type) {
			case *ast.SelectorExpr:
				name = f.Sel.Name
			case *ast.Ident:
				name = f.Name
			}
			if name != fn {
				return true
			}
			if lit, ok := call.Args[0].(*ast.BasicLit); ok && lit.Kind == token.STRING {
				if s, err := strconv.Unquote(lit.Value); err == nil {
					out = append(out, s)
				}
			}
			return true
		})
	}
	return out
}

// TestEveryOperationRoutesToItself: a request for each operation of openapi.yaml (its variables
// filled in) is served by that operation's route, and the same path with a method no operation
// has reaches none.
func TestEveryOperationRoutesToItself(t *testing.T) {
	st := newTestStack(t, testDB{kind: "sqlite"})
	router := st.handler.(*mux.Router)
	documented := contract.operations()
	routedTo := func(method, path string) string {
		var m mux.RouteMatch
		if !router.Match(httptest.NewRequest(method, path, nil), &m) || m.Route == nil {
			return ""
		}
		return m.Route.GetName()
	}
	fill := regexp.MustCompile(`\{[^}]*\}`)
	for _, op := range documented {
		method, template, _ := strings.Cut(op, " ")
		path := fill.ReplaceAllString(template, "v1")
		if got := routedTo(method, path); got != op {
			t.Errorf("%s %s: routed to %q", method, path, got)
		}
		if got := routedTo("PURGE", path); slices.Contains(documented, got) {
			t.Errorf("PURGE %s: routed to %q", path, got)
		}
	}
}
