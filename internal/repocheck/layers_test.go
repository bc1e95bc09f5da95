package repocheck

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/nsysx/nsysx/internal/testutil"
)

// The layers of the library (docs/architecture.md): data flows one way,
// load → model ← events ← analyses → formats, and each layer imports only
// the layers below it.
const mod = "github.com/nsysx/nsysx/"

// layerImports lists, for the lower layers, every package of the module a
// package may import (the standard library and other modules are free);
// a package under a listed prefix ending in "/" may import the packages
// under that prefix.
var layerImports = map[string][]string{
	"nsysx/internal/fields": {},
	"nsysx/internal/sqlite": {"nsysx/internal/fields"},
	"nsysx/model":           {"nsysx/internal/fields"},
	"nsysx/load":            {"nsysx/model", "nsysx/internal/sqlite", "nsysx/internal/fields", "internal/atomicfile", "internal/procgroup"},
	"nsysx/events":          {"nsysx/model", "nsysx/internal/fields"},
	"nsysx/model/modeltest": {"nsysx/model", "nsysx/internal/fields"},
	"nsysx/frame":           {"nsysx/model", "nsysx/internal/fields", "nsysx/internal/order", "internal/suggest", "internal/checked"},
	// The run context (registry, Ctx, filters, scans) below the reports and
	// rules, which never import the facade nsysx: it imports them.
	"nsysx/report": {"nsysx/model", "nsysx/internal/fields", "nsysx/load", "nsysx/events", "nsysx/frame",
		"internal/suggest", "internal/checked"},
	"nsysx/stats": {"nsysx/report", "nsysx/model", "nsysx/internal/fields", "nsysx/load", "nsysx/events",
		"nsysx/frame", "nsysx/internal/order", "internal/suggest", "internal/checked"},
	// Rules may build on the reports' aggregations (stats), never the reverse.
	"nsysx/analyze": {"nsysx/stats", "nsysx/report", "nsysx/model", "nsysx/internal/fields", "nsysx/load",
		"nsysx/events", "nsysx/frame", "nsysx/internal/order", "internal/suggest", "internal/checked"},
}

// maxPackageFiles is the most non-test Go files a package may hold: past
// it a package is one room, and a concern of its own wants a folder.
const maxPackageFiles = 40

// frontEnd are the internal packages that glue the commands and the kernel
// to the library (flags, plans); every other internal package is a leaf
// that imports nothing of the library.
var frontEnd = []string{"internal/frontend", "internal/nsysxtest"}

type listed struct {
	ImportPath string
	Imports    []string
	GoFiles    []string
}

// modulePackages lists the module's packages with their imports (tests
// excluded).
func modulePackages(t *testing.T) []listed {
	t.Helper()
	cmd := exec.Command("go", "list", "-json=ImportPath,Imports,GoFiles", "./...")
	cmd.Dir = testutil.Root()
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	var pkgs []listed
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for dec.More() {
		var p listed
		if err := dec.Decode(&p); err != nil {
			t.Fatal(err)
		}
		pkgs = append(pkgs, p)
	}
	return pkgs
}

// TestLayers fails when a package imports a layer above its own: the page
// reader outside the SQLite loader, the loaders or the event layer
// importing an analysis, an internal leaf importing the library.
func TestLayers(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	for _, p := range modulePackages(t) {
		self := strings.TrimPrefix(p.ImportPath, mod)
		for _, imp := range p.Imports {
			if !strings.HasPrefix(imp, mod) {
				continue
			}
			dep := strings.TrimPrefix(imp, mod)
			if allowed, ok := layerImports[self]; ok && !slices.Contains(allowed, dep) {
				t.Errorf("%s imports %s: its layer may import only %v", self, dep, allowed)
			}
			if dep == "nsysx/internal/sqlite" && self != "nsysx/load" {
				t.Errorf("%s imports the page reader: only the SQLite loader (nsysx/load) may", self)
			}
			if strings.HasPrefix(self, "internal/") && !slices.Contains(frontEnd, self) &&
				!strings.HasPrefix(dep, "internal/") {
				t.Errorf("internal package %s imports %s: internal packages other than the front-end glue %v are leaves", self, dep, frontEnd)
			}
		}
	}
}

// TestPackageSize fails when a package holds more than maxPackageFiles
// non-test Go files (vendored third_party code, generated symbol tables,
// excepted).
func TestPackageSize(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	for _, p := range modulePackages(t) {
		if strings.Contains(p.ImportPath, "/third_party/") {
			continue
		}
		if n := len(p.GoFiles); n > maxPackageFiles {
			t.Errorf("%s holds %d non-test Go files (at most %d): split it by concern", p.ImportPath, n, maxPackageFiles)
		}
	}
}

// TestRawTableNames fails when a Go file outside the loaders, the model and
// the event layer's table list spells a raw export table name (a string
// equal to one of nsysx/events' Table constants, or starting with
// CUPTI_ACTIVITY_KIND_): everything else reads typed events or names a
// table through those constants.
func TestRawTableNames(t *testing.T) {
	root := testutil.Root()
	names := tableNames(t, filepath.Join(root, "nsysx", "events", "tables.go"))
	if len(names) < 20 {
		t.Fatalf("only %d table names in nsysx/events/tables.go", len(names))
	}
	allowed := func(rel string) bool {
		return strings.HasPrefix(rel, "nsysx/load/") || strings.HasPrefix(rel, "nsysx/model/") || rel == "nsysx/events/tables.go" ||
			strings.HasPrefix(rel, "nsysx/internal/sqlite/")
	}
	var files []string
	filepath.Walk(root, func(path string, d os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if n := d.Name(); path != root && (strings.HasPrefix(n, ".") || n == "testdata" || n == "third_party" || n == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(rel, ".go") && !strings.HasSuffix(rel, "_test.go") && !strings.HasSuffix(rel, "_gen.go") && !allowed(rel) {
			files = append(files, rel)
		}
		return nil
	})
	for _, rel := range files {
		f, err := parser.ParseFile(token.NewFileSet(), filepath.Join(root, rel), nil, 0)
		if err != nil {
			t.Errorf("%s: %v", rel, err)
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			s, err := strconv.Unquote(lit.Value)
			if err == nil && (names[s] || strings.HasPrefix(s, "CUPTI_ACTIVITY_KIND_")) {
				t.Errorf("%s spells the raw table name %q: use nsysx/events", rel, s)
			}
			return true
		})
	}
}

// tableNames reads the values of the string constants of path.
func tableNames(t *testing.T, path string) map[string]bool {
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING {
			if s, err := strconv.Unquote(lit.Value); err == nil {
				out[s] = true
			}
		}
		return true
	})
	return out
}
