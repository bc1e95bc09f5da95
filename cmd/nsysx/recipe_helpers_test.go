package main

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/nsysx/nsysx/internal/testutil"
	"github.com/nsysx/nsysx/nsysx/recipe"
	"github.com/nsysx/nsysx/nsysx/recipe/pyframe"
)

// reports links the named test profiles into a new directory as
// <name>.sqlite (the stems decide the Rank order) and returns the paths.
func reports(t *testing.T, names ...string) (string, []string) {
	t.Helper()
	dir := t.TempDir()
	var out []string
	for _, n := range names {
		p := filepath.Join(dir, n+".sqlite")
		if err := os.Symlink(testutil.Profile(t, n), p); err != nil {
			t.Fatal(err)
		}
		out = append(out, p)
	}
	return dir, out
}

func goldenRecipe(set, name string) string {
	return filepath.Join(testutil.Root(), "testdata", "golden", "recipes", set, name)
}

// readFrame reads a Parquet file a recipe wrote (or nsys's golden one).
func readFrame(t *testing.T, path string) *recipe.Frame {
	t.Helper()
	f, err := pyframe.ReadParquet(path)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// sameFrame compares a written Parquet file with nsys's: every column's
// name, kind, values and NULLs, and the index.
func sameFrame(t *testing.T, golden, got string) {
	t.Helper()
	if !reflect.DeepEqual(readFrame(t, golden), readFrame(t, got)) {
		t.Errorf("%s differs from nsys's %s", got, golden)
	}
}
