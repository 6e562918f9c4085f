// Package prometheus holds lotbook's alerting and recording rules; the test keeps them in step
// with the metrics the code exports.
package prometheus

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestRulesNameExportedMetrics fails when a rule names a lotbook_ metric that no Go file of the
// module defines (a metric renamed without its alert).
func TestRulesNameExportedMetrics(t *testing.T) {
	rules, err := os.ReadFile("alerts.yml")
	if err != nil {
		t.Fatal(err)
	}
	var src strings.Builder
	err = filepath.WalkDir("../..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "node_modules" || d.Name() == "web" || strings.HasPrefix(d.Name(), ".") && path != "../..") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(path, ".go") && !strings.HasSuffix(path, "_test.go") {
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			src.Write(b)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, m := range regexp.MustCompile(`\blotbook_[a-z_]+`).FindAllString(string(rules), -1) {
		name := strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(m, "_bucket"), "_sum"), "_count")
		if seen[name] {
			continue
		}
		seen[name] = true
		if !strings.Contains(src.String(), `"`+name+`"`) {
			t.Errorf("alerts.yml names %s, which no Go file exports", name)
		}
	}
	if len(seen) < 4 {
		t.Fatalf("only %d metrics found in alerts.yml", len(seen))
	}
}
