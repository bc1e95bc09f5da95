package repocheck

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/nsysx/nsysx/internal/testutil"
)

// goFileRE matches a Go file a README names in code spans: `report.go`,
// `nsysx/load/open.go`.
var goFileRE = regexp.MustCompile("`((?:[A-Za-z0-9_.-]+/)*[A-Za-z0-9_]+\\.go)`")

// docRE matches a design note a README cites: docs/stats.md.
var docRE = regexp.MustCompile(`\bdocs/[A-Za-z0-9_-]+\.md\b`)

// TestReadmeFiles fails when a README names a Go file, or cites a design
// note under docs/, that does not exist. A Go file may be
// beside the README, below its folder (a README of cmd/ naming
// nsysx/main.go as main.go) or from the repository's root: a newcomer following
// the READMEs' maps of the code must find every file they name.
func TestReadmeFiles(t *testing.T) {
	root := testutil.Root()
	n := 0
	filepath.Walk(root, func(path string, d os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "node_modules" || name == "third_party") {
				return filepath.SkipDir
			}
			return nil
		}
		if d.Name() != "README.md" {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Error(err)
			return nil
		}
		for _, m := range goFileRE.FindAllStringSubmatch(string(data), -1) {
			n++
			name := filepath.FromSlash(m[1])
			if exists(filepath.Join(filepath.Dir(path), name)) || exists(filepath.Join(root, name)) || below(filepath.Dir(path), name) {
				continue
			}
			rel, _ := filepath.Rel(root, path)
			t.Errorf("%s names %s, which does not exist", rel, m[1])
		}
		for _, doc := range docRE.FindAllString(string(data), -1) {
			if !exists(filepath.Join(root, filepath.FromSlash(doc))) {
				rel, _ := filepath.Rel(root, path)
				t.Errorf("%s cites %s, which is not in the repository's docs", rel, doc)
			}
		}
		return nil
	})
	if n == 0 {
		t.Fatal("no README names a Go file: the pattern is broken")
	}
}

func exists(path string) bool { _, err := os.Stat(path); return err == nil }

// below reports whether a file ending in name exists under dir.
func below(dir, name string) bool {
	found := false
	filepath.Walk(dir, func(path string, d os.FileInfo, err error) error {
		if err == nil && !d.IsDir() && (path == name || strings.HasSuffix(path, string(filepath.Separator)+name)) {
			found = true
			return filepath.SkipAll
		}
		return nil
	})
	return found
}
