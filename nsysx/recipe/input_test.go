package recipe

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// tree makes files (names ending in / are directories) under a new dir.
func tree(t *testing.T, names ...string) string {
	dir := t.TempDir()
	for _, n := range names {
		p := filepath.Join(dir, n)
		if strings.HasSuffix(n, "/") {
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestExpandInputs(t *testing.T) {
	d := tree(t, "runs/b.nsys-rep", "runs/a.nsys-rep", "runs/a.sqlite", "runs/a_pqtdir/StringIds.parquet",
		"runs/c_pqtdir/StringIds.parquet", "runs/c_arwdir/StringIds.arrow", "runs/d.qdrep", "runs/e.sqlite",
		"runs/notes.txt", "runs/.hidden.sqlite", "runs/f.tmp-export.sqlite", "runs/sub/z.nsys-rep",
		"one.sqlite", "exp/ANALYSIS_DETAILS.parquet", "exp/StringIds.parquet")
	j := func(names ...string) []string {
		var out []string
		for _, n := range names {
			out = append(out, filepath.Join(d, n))
		}
		return out
	}
	tests := []struct {
		args []string
		want []string
	}{
		// sorted by path; a counts once (the report); c once (the _pqtdir).
		{j("runs"), j("runs/a.nsys-rep", "runs/b.nsys-rep", "runs/c_pqtdir", "runs/d.qdrep", "runs/e.sqlite")},
		{j("runs:2"), j("runs/a.nsys-rep", "runs/b.nsys-rep")},
		{j("runs:99"), j("runs/a.nsys-rep", "runs/b.nsys-rep", "runs/c_pqtdir", "runs/d.qdrep", "runs/e.sqlite")},
		// files and export directories are kept as given, duplicates too.
		{j("one.sqlite", "runs/c_pqtdir", "one.sqlite"), j("one.sqlite", "runs/c_pqtdir", "one.sqlite")},
		{j("runs/notes.txt"), j("runs/notes.txt")},
		// a directory of tables is an export, not a directory of reports.
		{j("exp"), j("exp")},
		{j("runs/sub:1", "one.sqlite"), j("runs/sub/z.nsys-rep", "one.sqlite")},
	}
	for _, tc := range tests {
		got, err := ExpandInputs(tc.args)
		if err != nil {
			t.Errorf("%q: %v", tc.args, err)
			continue
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%q:\n got %q\nwant %q", tc.args, got, tc.want)
		}
	}
}

func TestExpandInputsErrors(t *testing.T) {
	d := tree(t, "one.sqlite", "empty/", "runs/a.sqlite")
	tests := []struct{ arg, want string }{
		{filepath.Join(d, "missing.nsys-rep"), "missing.nsys-rep: no such file or directory"},
		{filepath.Join(d, "one.sqlite") + ":2", ":n applies only to a directory"},
		{filepath.Join(d, "empty"), "no reports in this directory"},
		{filepath.Join(d, "runs") + ":0", "must be a positive integer"},
		{filepath.Join(d, "nodir") + ":3", "nodir: no such file or directory"},
	}
	for _, tc := range tests {
		_, err := ExpandInputs([]string{filepath.Join(d, "one.sqlite"), tc.arg})
		if err == nil || !errors.Is(err, ErrUsage) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want a usage error with %q", tc.arg, err, tc.want)
		}
	}
}
