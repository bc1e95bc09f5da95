package recipes

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/nsysx/nsysx/internal/pqcompare"
	"github.com/nsysx/nsysx/nsysx/recipe"
)

// compareWritten writes res's output directory and compares each named
// table's Parquet file with nsys's golden (pqcompare: layout, schemas,
// pandas metadata, every value), and the .nsys-analysis DisplayName,
// Options keys (in order) and Outputs.
func compareWritten(t *testing.T, res *recipe.Result, set, rname string, tables ...string) {
	t.Helper()
	dir, err := res.Write(&recipe.WriteOptions{WorkDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	gdir := goldenDir(set, rname)
	for _, tbl := range tables {
		if err := pqcompare.Files(filepath.Join(gdir, tbl+".parquet"), filepath.Join(dir, tbl+".parquet")); err != nil {
			t.Errorf("%s/%s %s: %v", set, rname, tbl, err)
		}
	}
	want := analysisSummary(t, filepath.Join(gdir, rname+".nsys-analysis"))
	got := analysisSummary(t, filepath.Join(dir, filepath.Base(dir)+".nsys-analysis"))
	if want != got {
		t.Errorf("%s/%s .nsys-analysis:\n got %s\nwant %s", set, rname, got, want)
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
