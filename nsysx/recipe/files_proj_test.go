package recipe

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/nsysx/nsysx/nsysx/recipe/internal/pqcompare"
)

// checkWritten writes res as nsysx writes an output directory and compares
// each named Parquet file with nsys's golden in gdir (file layout, schemas,
// pandas metadata, every value), and the .nsys-analysis with the golden's:
// the same keys in the same order and the same values, except the run's
// times, paths and RecipeVersion.
func checkWritten(t *testing.T, res *Result, gdir string, tables ...string) {
	t.Helper()
	dir, err := res.Write(&WriteOptions{WorkDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	for _, tb := range tables {
		if err := pqcompare.Files(filepath.Join(gdir, tb+".parquet"), filepath.Join(dir, tb+".parquet")); err != nil {
			t.Errorf("%s.parquet: %v", tb, err)
		}
	}
	gold, err := filepath.Glob(filepath.Join(gdir, "*.nsys-analysis"))
	if err != nil || len(gold) != 1 {
		t.Fatalf("golden .nsys-analysis: %v %v", gold, err)
	}
	mine, err := filepath.Glob(filepath.Join(dir, "*.nsys-analysis"))
	if err != nil || len(mine) != 1 {
		t.Fatalf(".nsys-analysis written: %v %v", mine, err)
	}
	want, got := analysisFlat(t, gold[0]), analysisFlat(t, mine[0])
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf(".nsys-analysis:\n got %v\nwant %v", got, want)
	}
}

// analysisFlat lists an .nsys-analysis as path=value strings in file order,
// with the values that depend on the run (times, paths, version) blanked.
func analysisFlat(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	var out, stack []string
	key := ""
	inObj := []bool{}
	for {
		tok, err := dec.Token()
		if err != nil {
			break
		}
		switch v := tok.(type) {
		case json.Delim:
			switch v {
			case '{', '[':
				stack = append(stack, key)
				inObj = append(inObj, v == '{')
				key = ""
			default:
				stack, inObj = stack[:len(stack)-1], inObj[:len(inObj)-1]
				key = ""
			}
			continue
		case string:
			if len(inObj) > 0 && inObj[len(inObj)-1] && key == "" {
				key = v
				continue
			}
		}
		p := fmt.Sprint(stack, key)
		switch key {
		case "RecipeVersion", "StartTime", "EndTime", "output", "input":
			tok = "-"
		}
		if len(stack) > 0 && stack[len(stack)-1] == "input" {
			tok = "-"
		}
		out = append(out, fmt.Sprintf("%s=%v", p, tok))
		if len(inObj) > 0 && inObj[len(inObj)-1] {
			key = ""
		}
	}
	return out
}
