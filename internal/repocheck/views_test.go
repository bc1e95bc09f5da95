package repocheck

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nsysx/nsysx/internal/testutil"
)

// TestFilteredReads fails when a report or a rule loads a table itself:
// the filters (`--filter-time`, `--filter-nvtx`) live in the event layer,
// which applies them to its views, so in nsysx/stats and nsysx/analyze a
// Load with columns is a view's (`kernels(c).Load(...)`,
// `c.View(table).Load(...)`: its receiver is the call that makes the
// view); an unfiltered read says so with `c.LoadRaw`.
func TestFilteredReads(t *testing.T) {
	root := testutil.Root()
	n := 0
	for _, dir := range []string{"nsysx/stats", "nsysx/analyze"} {
		ents, err := os.ReadDir(filepath.Join(root, dir))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range ents {
			name := e.Name()
			if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
				continue
			}
			rel := dir + "/" + name
			fset := token.NewFileSet()
			f, err := parser.ParseFile(fset, filepath.Join(root, rel), nil, 0)
			if err != nil {
				t.Fatalf("%s: %v", rel, err)
			}
			ast.Inspect(f, func(x ast.Node) bool {
				call, ok := x.(*ast.CallExpr)
				if !ok || len(call.Args) == 0 {
					return true
				}
				sel, ok := call.Fun.(*ast.SelectorExpr)
				if !ok || sel.Sel.Name != "Load" {
					return true
				}
				n++
				if _, view := sel.X.(*ast.CallExpr); !view {
					t.Errorf("%s: %s loads a table directly: read it through its view (kernels(c).Load, c.View(table).Load) or c.LoadRaw",
						rel, fset.Position(call.Pos()))
				}
				return true
			})
		}
	}
	if n == 0 {
		t.Error("no view loads found: the rule checks nothing")
	}
}
