package recipe

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/nsysx/nsysx/internal/testutil"
	"github.com/nsysx/nsysx/nsysx/recipe/internal/pqcompare"
)

// runOn runs recipe name over the named test profiles (in the given input
// order) and fails the test on error.
func runOn(t *testing.T, name string, o *Options, profiles ...string) *Result {
	t.Helper()
	r, err := Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	if o == nil {
		o = Defaults()
	}
	o.Input = nil
	dir := t.TempDir()
	for _, p := range profiles {
		// The stem (file name) decides the Rank order and files.parquet.
		link := filepath.Join(dir, p+".sqlite")
		if err := os.Symlink(testutil.Profile(t, p), link); err != nil {
			t.Fatal(err)
		}
		o.Input = append(o.Input, link)
	}
	o.Strict = true
	res, err := Run(context.Background(), r, o, nil)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return res
}

// goldenDir is testdata/golden/recipes/<set>/<recipe>.
func goldenDir(set, recipe string) string {
	return filepath.Join(testutil.Root(), "testdata", "golden", "recipes", set, recipe)
}

// compareWritten writes res's output directory and compares each named
// table's Parquet file with nsys's golden (pqcompare: layout, schemas,
// pandas metadata, every value), and the .nsys-analysis DisplayName,
// Options keys (in order) and Outputs.
func compareWritten(t *testing.T, res *Result, set, recipe string, tables ...string) {
	t.Helper()
	dir, err := res.Write(&WriteOptions{WorkDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	gdir := goldenDir(set, recipe)
	for _, tbl := range tables {
		if err := pqcompare.Files(filepath.Join(gdir, tbl+".parquet"), filepath.Join(dir, tbl+".parquet")); err != nil {
			t.Errorf("%s/%s %s: %v", set, recipe, tbl, err)
		}
	}
	want := analysisSummary(t, filepath.Join(gdir, recipe+".nsys-analysis"))
	got := analysisSummary(t, filepath.Join(dir, filepath.Base(dir)+".nsys-analysis"))
	if want != got {
		t.Errorf("%s/%s .nsys-analysis:\n got %s\nwant %s", set, recipe, got, want)
	}
}

// analysisSummary is an .nsys-analysis file's DisplayName, RecipeName,
// Options keys in order, and Outputs.
func analysisSummary(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var a struct {
		RecipeName, DisplayName string
		Options                 json.RawMessage
		Outputs                 map[string]string
	}
	if err := json.Unmarshal(b, &a); err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(a.Options))
	var keys []string
	depth := 0
	for {
		tok, err := dec.Token()
		if err != nil {
			break
		}
		switch v := tok.(type) {
		case json.Delim:
			if v == '{' || v == '[' {
				depth++
			} else {
				depth--
			}
		case string:
			if depth == 1 && dec.More() {
				keys = append(keys, v)
				var skip json.RawMessage
				if err := dec.Decode(&skip); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	return fmt.Sprintf("%s %q %v %v", a.RecipeName, a.DisplayName, keys, a.Outputs)
}

// frameValue is row i of c as readGolden returns values.
func frameValue(c *Column, i int) any {
	if c.IsNull(i) {
		return nil
	}
	switch c.Kind {
	case Float64:
		if math.IsNaN(c.Floats[i]) {
			return nil
		}
		return c.Floats[i]
	case String:
		return c.Strs[i]
	case Uint64, Uint32:
		return uint64(c.Ints[i])
	}
	return c.Ints[i]
}
