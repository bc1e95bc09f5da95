package recipes

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/nsysx/nsysx/internal/pqcompare"
	"github.com/nsysx/nsysx/internal/testutil"
	"github.com/nsysx/nsysx/nsysx/recipe"
)

// TestEveryRecipeOption: every option key a recipe declares is in the
// option table (else ParseArgs would not take it).
func TestEveryRecipeOption(t *testing.T) {
	for _, r := range recipe.List() {
		for _, k := range r.Options {
			if recipe.OptionByKey(k) == nil {
				t.Errorf("recipe %s: option %q is not in the option table", r.Name, k)
			}
		}
	}
}

// commandLine rebuilds the nsys command line from a golden's recorded
// Options (every value given explicitly, defaults too).
func commandLine(t *testing.T, keys []string, opts map[string]json.RawMessage) []string {
	var args []string
	for _, k := range keys {
		if k == "output" || k == "input" {
			continue
		}
		op := recipe.OptionByKey(k)
		if op == nil {
			t.Fatalf("option %q recorded by nsys is not in the option table", k)
		}
		var v any
		json.Unmarshal(opts[k], &v)
		switch x := v.(type) {
		case nil:
		case bool:
			if x {
				args = append(args, op.Flag)
			}
		case float64:
			args = append(args, op.Flag, fmt.Sprint(x))
		case string:
			args = append(args, op.Flag, strings.ReplaceAll(x, "dask_futures", "dask-futures"))
		case []any:
			switch {
			case k == "filter_time":
				args = append(args, fmt.Sprintf("%s=%v/%v", op.Flag, x[0], x[1]))
			case len(x) > 0:
				args = append(args, op.Flag)
			}
		}
	}
	return args
}

// TestCommandLineGoldens runs every golden recipe output through the whole
// command-line path: the options nsys recorded are turned back into a
// command line, parsed by ParseArgs, run and written by Result.Write; every
// Parquet file must equal nsys's (pqcompare), and the .nsys-analysis must
// record the same recipe, options (in the same order) and outputs.
func TestCommandLineGoldens(t *testing.T) {
	root := filepath.Join(testutil.Root(), "testdata", "golden", "recipes")
	dirs, _ := filepath.Glob(filepath.Join(root, "*", "*", "*.nsys-analysis"))
	if len(dirs) < 10 {
		t.Fatalf("only %d golden recipe outputs", len(dirs))
	}
	for _, an := range dirs {
		gdir := filepath.Dir(an)
		name := filepath.Base(gdir)
		t.Run(filepath.Base(filepath.Dir(gdir))+"/"+name, func(t *testing.T) {
			keys, opts, top := analysisOptions(t, an)
			var inputs []string
			json.Unmarshal(opts["input"], &inputs)
			tmp := t.TempDir()
			var stems []string
			for _, in := range inputs {
				stems = append(stems, recipe.Stem(in))
			}
			args := append([]string{"--input"}, testutil.Links(t, stems...)...)
			out := filepath.Join(tmp, "rec", name)
			args = append(append(args, "--output", out, "--strict"), commandLine(t, keys, opts)...)
			r, err := recipe.Lookup(name)
			if err != nil {
				t.Fatal(err)
			}
			o, err := recipe.ParseArgs(r, args)
			if err != nil {
				t.Fatalf("%q: %v", args, err)
			}
			res, err := recipe.Run(context.Background(), r, o, nil)
			if err != nil {
				t.Fatal(err)
			}
			dir, err := res.Write(nil)
			if err != nil || dir != out {
				t.Fatalf("Write: %s, %v", dir, err)
			}
			compareOutputDir(t, gdir, dir, name, keys, opts, top)
		})
	}
}

func compareOutputDir(t *testing.T, gdir, dir, name string, keys []string, opts, top map[string]json.RawMessage) {
	t.Helper()
	want, _ := filepath.Glob(filepath.Join(gdir, "*.parquet"))
	got, _ := filepath.Glob(filepath.Join(dir, "*.parquet"))
	if len(want) != len(got) {
		t.Errorf("%d Parquet files, nsys wrote %d", len(got), len(want))
	}
	for _, w := range want {
		if err := pqcompare.Files(w, filepath.Join(dir, filepath.Base(w))); err != nil {
			t.Error(err)
		}
	}
	gkeys, gopts, gtop := analysisOptions(t, filepath.Join(dir, name+".nsys-analysis"))
	if !reflect.DeepEqual(gkeys, keys) {
		t.Errorf("Options keys %q, nsys %q", gkeys, keys)
	}
	for _, k := range keys {
		if k != "output" && k != "input" && !bytes.Equal(compact(gopts[k]), compact(opts[k])) {
			t.Errorf("Options.%s = %s, nsys %s", k, gopts[k], opts[k])
		}
	}
	for _, k := range []string{"RecipeName", "DisplayName", "Outputs"} {
		if !bytes.Equal(compact(gtop[k]), compact(top[k])) {
			t.Errorf("%s = %s, nsys %s", k, gtop[k], top[k])
		}
	}
	var tk []string
	for k := range gtop {
		tk = append(tk, k)
	}
	sort.Strings(tk)
	if strings.Join(tk, ",") != "DisplayName,EndTime,Options,Outputs,RecipeName,RecipeVersion,StartTime" {
		t.Errorf("top-level keys %v", tk)
	}
}

func compact(b []byte) []byte {
	var buf bytes.Buffer
	json.Compact(&buf, b)
	return buf.Bytes()
}
