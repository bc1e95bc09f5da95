package repocheck

import (
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/nsysx/nsysx/internal/testutil"
)

// libraryPackages are the packages a program using nsysx imports: none of
// them may link the Jupyter kernel.
var libraryPackages = []string{
	"./nsysx", "./nsysx/format", "./nsysx/recipe/...", "./nsysx/stackprof",
	"./nsysx/timeline", "./nsysx/compare", "./nsysx/critpath", "./nsysx/capture", "./plots",
}

// grpcFree are the packages whose dependencies hold no gRPC: the library
// and the command (Parquet is read and written without pqarrow, which
// imports Arrow Flight; docs/export.md): every nsysx run would otherwise
// run the initialisers of gRPC, protobuf and Flight and map their pages.
var grpcFree = []string{"./nsysx", "./nsysx/format", "./nsysx/stackprof", "./nsysx/compare", "./nsysx/critpath",
	"./nsysx/recipe/...", "./plots", "./cmd/nsysx"}

// notInCLI are packages whose initialisers cost every nsysx run memory
// and that no command needs: the kernel's interpreter leaves them out of its
// standard library (kernel/gointerp/third_party/stdsyms/stdsyms.go says why).
var notInCLI = []string{"go/types", "go/importer", "expvar", "net/http/pprof", "net/rpc", "testing/slogtest"}

// deps lists the packages pkgs link (go list -deps, tests excluded).
func deps(t *testing.T, pkgs ...string) []string {
	t.Helper()
	cmd := exec.Command("go", append([]string{"list", "-deps"}, pkgs...)...)
	cmd.Dir = testutil.Root()
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	return strings.Fields(string(out))
}

func TestLibraryDeps(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	for _, p := range deps(t, libraryPackages...) {
		if p == "github.com/nsysx/nsysx/kernel" || strings.HasPrefix(p, "github.com/nsysx/nsysx/kernel/") {
			t.Errorf("the library links the kernel package %s", p)
		}
		if strings.HasPrefix(p, "github.com/nsysx/nsysx/cmd/") {
			t.Errorf("the library links the command package %s", p)
		}
	}
	for _, pkg := range grpcFree {
		for _, p := range deps(t, pkg) {
			if strings.HasPrefix(p, "google.golang.org/grpc") || strings.HasSuffix(p, "/arrow/flight") {
				t.Errorf("%s links %s", pkg, p)
				break
			}
		}
	}
	for _, p := range deps(t, "./cmd/nsysx") {
		if slices.Contains(notInCLI, p) {
			t.Errorf("./cmd/nsysx links %s", p)
		}
	}
}

// TestRecipeRunnerDeps: the recipe runner (nsysx/recipe) and its frames
// (nsysx/recipe/pyframe) link none of the packages that register recipes
// or load their event tables; those import the runner, never the reverse.
func TestRecipeRunnerDeps(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	const m = "github.com/nsysx/nsysx/nsysx/recipe/"
	for _, pkg := range []string{"./nsysx/recipe", "./nsysx/recipe/pyframe"} {
		for _, p := range deps(t, pkg) {
			if p == m+"recipes" || p == m+"composite" || p == m+"all" || (pkg != "./nsysx/recipe" && p == strings.TrimSuffix(m, "/")) {
				t.Errorf("%s links %s", pkg, p)
			}
		}
	}
}
