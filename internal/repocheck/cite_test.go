package repocheck

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// citeRE matches what a comment cites as a file: a path ending in one of
// the extensions of the repository's documents and scripts, or anything
// under docs/. A section sign must follow a cited document.
var (
	citeRE    = regexp.MustCompile(`(?:\.\./|/)?(?:[A-Za-z0-9_.-]+/)*[A-Za-z0-9_-]+\.(?:md|py|sh|mjs)\b|\bdocs/[A-Za-z0-9_./-]+|§`)
	citeNames map[string]bool // base names of the repository's files
)

// TestCommentCitations fails when a Go comment cites a file that is not in
// the repository (a path outside it, such as ../shared, counts as missing):
// design notes the code relies on live in docs/.
func TestCommentCitations(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", "..")) // the repository root
	if err != nil {
		t.Fatal(err)
	}
	citeNames = map[string]bool{}
	filepath.Walk(root, func(path string, d os.FileInfo, err error) error {
		if err == nil && !d.IsDir() {
			citeNames[d.Name()] = true
		}
		return nil
	})
	err = filepath.Walk(root, func(path string, d os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); path != root && (strings.HasPrefix(n, ".") || n == "node_modules" || n == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(path, ".go") {
			checkFile(t, root, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func checkFile(t *testing.T, root, path string) {
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ParseComments)
	if err != nil {
		t.Errorf("%s: %v", path, err)
		return
	}
	rel, _ := filepath.Rel(root, path)
	doc := false // a document was cited earlier in the file
	for _, cg := range f.Comments {
		text := cg.Text()
		if strings.HasPrefix(text, "Code generated") {
			continue
		}
		for _, m := range citeRE.FindAllString(text, -1) {
			m = strings.TrimRight(m, ".")
			switch {
			case m == "§":
				if !doc {
					t.Errorf("%s: comment cites a section of no named document (cite docs/<file>.md and the section)", rel)
				}
			case !cited(root, filepath.Dir(path), m):
				t.Errorf("%s: comment cites %s, which is not in the repository", rel, m)
			case strings.HasSuffix(m, ".md"):
				doc = true
			}
		}
	}
}

// cited says whether name is a file or directory of the repository,
// relative to its root or to the citing file's directory; a bare file name
// (make_fixtures.py) names any file so called.
func cited(root, dir, name string) bool {
	if !strings.Contains(name, "/") {
		return citeNames[name]
	}
	for _, base := range []string{root, dir} {
		p := filepath.Join(base, name)
		if r, err := filepath.Rel(root, p); err != nil || strings.HasPrefix(r, "..") {
			continue
		}
		if _, err := os.Stat(p); err == nil {
			return true
		}
	}
	return false
}
