package api

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/lotbook/lotbook/api/wire"
)

// notOverHTTP are keys of the write side that no HTTP route can provoke.
var notOverHTTP = map[string]string{
	"invite_code_exists": "IssueRootInviteCode is called by the demo seed and ops tooling only",
}

// TestCommandKeysAreDocumented: every message key the command side declares (Key* constants)
// is in openapi.yaml's MessageKey enum, so the web app has a translation for it. The scenario
// tests also check every msg they receive against the enum.
func TestCommandKeysAreDocumented(t *testing.T) {
	keys := keyConstants(t, filepath.Join("..", "commands"))
	if len(keys) < 20 {
		t.Fatalf("found only %d keys in commands: %v", len(keys), keys)
	}
	enum := contract.messageKeys()
	for _, k := range keys {
		if _, skip := notOverHTTP[k]; skip {
			continue
		}
		if !slices.Contains(enum, k) {
			t.Errorf("commands can answer %q, which is not in the MessageKey enum", k)
		}
	}
}

// TestGeneratedEnumMatchesDocument guards against a stale api/wire (go generate not re-run).
func TestGeneratedEnumMatchesDocument(t *testing.T) {
	for _, k := range contract.messageKeys() {
		if !wire.MessageKey(k).Valid() {
			t.Errorf("api/wire lacks %q: run go generate ./api/wire", k)
		}
	}
}

// keyConstants returns the values of the string constants named Key* in the package at dir.
func keyConstants(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	for _, af := range sourceFiles(t, dir) {
		for _, d := range af.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.CONST {
				continue
			}
			for _, spec := range gd.Specs {
				vs := spec.(*ast.ValueSpec)
				for i, name := range vs.Names {
					if !strings.HasPrefix(name.Name, "Key") || i >= len(vs.Values) {
						continue
					}
					if lit, ok := vs.Values[i].(*ast.BasicLit); ok && lit.Kind == token.STRING {
						v, _ := strconv.Unquote(lit.Value)
						out = append(out, v)
					}
				}
			}
		}
	}
	return out
}

// sourceFiles parses the non-test Go files of the package at dir.
func sourceFiles(t *testing.T, dir string) []*ast.File {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	var out []*ast.File
	fset := token.NewFileSet()
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		af, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, af)
	}
	return out
}
