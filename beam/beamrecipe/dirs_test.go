package beamrecipe

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/nsysx/nsysx/internal/pqcompare"
	"github.com/nsysx/nsysx/internal/testutil"
)

// compareDirs compares two output directories: the same file names, each
// Parquet file by pqcompare (layout, schema, pandas metadata, values),
// the .nsys-analysis JSON but for its times (and the Options named in
// drop), every other file byte for byte.
func compareDirs(t *testing.T, want, got string, drop ...string) {
	t.Helper()
	wn, gn := testutil.DirNames(t, want), testutil.DirNames(t, got)
	if !reflect.DeepEqual(wn, gn) {
		t.Fatalf("files differ:\n want %v\n  got %v", wn, gn)
	}
	for _, n := range wn {
		a, b := filepath.Join(want, n), filepath.Join(got, n)
		switch filepath.Ext(n) {
		case ".parquet":
			if err := pqcompare.Files(a, b); err != nil {
				t.Errorf("%s: %v", n, err)
			}
		case ".nsys-analysis":
			if wa, ga := analysisNoTimes(t, a, drop), analysisNoTimes(t, b, drop); wa != ga {
				t.Errorf("%s:\n want %s\n  got %s", n, wa, ga)
			}
		default:
			wb, _ := os.ReadFile(a)
			gb, _ := os.ReadFile(b)
			if !bytes.Equal(wb, gb) {
				t.Errorf("%s differs", n)
			}
		}
	}
}

// analysisNoTimes is an .nsys-analysis file without StartTime, EndTime
// and the options named in drop.
func analysisNoTimes(t *testing.T, path string, drop []string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	delete(m, "StartTime")
	delete(m, "EndTime")
	if opts, ok := m["Options"].(map[string]any); ok {
		for _, k := range drop {
			delete(opts, k)
		}
	}
	s, _ := json.Marshal(m)
	return string(s)
}
