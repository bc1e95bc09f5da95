package nsysxengine

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/nsysx/nsysx/internal/testutil"
)

// exported lists the exported package-level names of the Go package in
// dir (test files excluded), as yaegi extract binds them: no generic
// functions or types.
func exported(t *testing.T, dir string) map[string]bool {
	t.Helper()
	fset := token.NewFileSet()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, e := range ents {
		n := e.Name()
		if !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, n), nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		if ignoredFile(f) {
			continue
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil && d.Name.IsExported() && d.Type.TypeParams == nil {
					names[d.Name.Name] = true
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						if s.Name.IsExported() && s.TypeParams == nil {
							names[s.Name.Name] = true
						}
					case *ast.ValueSpec:
						for _, id := range s.Names {
							if id.IsExported() {
								names[id.Name] = true
							}
						}
					}
				}
			}
		}
	}
	return names
}

func ignoredFile(f *ast.File) bool {
	for _, cg := range f.Comments {
		if cg.Pos() > f.Package {
			break
		}
		for _, c := range cg.List {
			if strings.HasPrefix(c.Text, "//go:build") && (strings.Contains(c.Text, "ignore") || strings.Contains(c.Text, "windows")) {
				return true
			}
		}
	}
	return false
}

// TestSymbolsUpToDate fails when the compiled packages' exported API and
// the generated yaegi symbols or docs disagree.
func TestSymbolsUpToDate(t *testing.T) {
	for _, pkg := range []struct{ dir, key, doc string }{
		{"nsysx", "github.com/nsysx/nsysx/nsysx/nsysx", "nsysx"},
		{"nsysx/format", "github.com/nsysx/nsysx/nsysx/format/format", "format"},
		{"plots", "github.com/nsysx/nsysx/plots/plots", "plots"},
		{"nsysx/recipe", "github.com/nsysx/nsysx/nsysx/recipe/recipe", "recipe"},
		{"nsysx/recipe/pyframe", "github.com/nsysx/nsysx/nsysx/recipe/pyframe/pyframe", "pyframe"},
		{"nsysx/recipe/composite", "github.com/nsysx/nsysx/nsysx/recipe/composite/composite", "composite"},
		{"nsysx/recipe/recipes", "github.com/nsysx/nsysx/nsysx/recipe/recipes/recipes", "recipes"},
		{"nsysx/compare", "github.com/nsysx/nsysx/nsysx/compare/compare", "compare"},
		{"nsysx/timeline", "github.com/nsysx/nsysx/nsysx/timeline/timeline", "timeline"},
		{"nsysx/advise", "github.com/nsysx/nsysx/nsysx/advise/advise", "advise"},
		{"nsysx/model", "github.com/nsysx/nsysx/nsysx/model/model", "model"},
		{"nsysx/frame", "github.com/nsysx/nsysx/nsysx/frame/frame", "frame"},
		{"nsysx/events", "github.com/nsysx/nsysx/nsysx/events/events", "events"},
	} {
		want := exported(t, filepath.Join(testutil.Root(), pkg.dir))
		have := map[string]bool{}
		for n := range loadSymbols()[pkg.key] {
			if !strings.HasPrefix(n, "_") {
				have[n] = true
			}
		}
		var missing, extra, undocumented []string
		for n := range want {
			if !have[n] {
				missing = append(missing, n)
			}
		}
		for n := range have {
			if !want[n] {
				extra = append(extra, n)
			}
			if _, ok := symbolDocs[pkg.doc+"."+n]; !ok {
				undocumented = append(undocumented, n)
			}
		}
		sort.Strings(missing)
		sort.Strings(extra)
		sort.Strings(undocumented)
		if len(missing)+len(extra)+len(undocumented) > 0 {
			t.Errorf("%s: symbols are stale (run `go generate ./kernel/nsysxengine`): not bound %v, gone %v, no docs %v",
				pkg.dir, missing, extra, undocumented)
		}
	}
}
