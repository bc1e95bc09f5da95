package atomicfile

import (
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// tree writes files (path → content; a path ending in "/" is a directory)
// under root.
func tree(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for p, c := range files {
		full := filepath.Join(root, p)
		if strings.HasSuffix(p, "/") {
			if err := os.MkdirAll(full, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// snapshot lists every path under root with its content, to see that a
// refused replacement touched nothing.
func snapshot(t *testing.T, root string) string {
	t.Helper()
	var lines []string
	filepath.Walk(root, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(root, p)
		c := ""
		if info.Mode().IsRegular() {
			b, _ := os.ReadFile(p)
			c = string(b)
		}
		lines = append(lines, rel+"="+c)
		return nil
	})
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

func fillOne(tmp string) error {
	return os.WriteFile(filepath.Join(tmp, "new.parquet"), []byte("new"), 0o666)
}

// Dir with --force-overwrite refuses, touching nothing, every directory
// that is not an output of nsysx or nsys, or that holds an input; the
// error is one line naming the directory and matches ErrExists.
func TestDirRefuses(t *testing.T) {
	for _, c := range []struct {
		name   string
		files  map[string]string
		out    string   // relative to the root
		inputs []string // relative to the root
		want   string
	}{
		{"input inside the output", map[string]string{"d/u/x.sqlite": "profile", "d/u/notes.txt": "mine"},
			"d", []string{"d/u/x.sqlite"}, "holds the input"},
		{"input inside an output of ours", map[string]string{"d/.nsysx-output": `{"written_by":"nsysx","files":["x.sqlite"]}`, "d/x.sqlite": "profile"},
			"d", []string{"d/x.sqlite"}, "holds the input"},
		{"the output is the input directory", map[string]string{"e_pqtdir/.nsysx-output": `{"written_by":"nsysx","files":["A.parquet"]}`, "e_pqtdir/A.parquet": "t"},
			"e_pqtdir", []string{"e_pqtdir"}, "holds the input"},
		{"a /tmp-like directory of other people's files", map[string]string{"tmp/a.txt": "a", "tmp/sub/b.bin": "b", "tmp/.X11-unix/": ""},
			"tmp", nil, "not an output directory"},
		{"a recipe output with the user's files copied in", map[string]string{"r/r.nsys-analysis": "{}", "r/stats.parquet": "t", "r/thesis.tex": "mine"},
			"r", nil, "thesis.tex"},
		{"a recipe output with the user's directory in it", map[string]string{"r/r.nsys-analysis": "{}", "r/data/": ""},
			"r", nil, "data"},
		{"an export of ours with a file added", map[string]string{"x/.nsysx-output": `{"written_by":"nsysx","files":["A.parquet"]}`, "x/A.parquet": "t", "x/B.parquet": "mine"},
			"x", nil, "B.parquet"},
		{"a manifest that is not ours", map[string]string{"x/.nsysx-output": "hello", "x/A.parquet": "t"},
			"x", nil, "cannot be read"},
		{"a file", map[string]string{"f": "mine"}, "f", nil, "is not a directory"},
		{"a path under a file", map[string]string{"afile": "mine"}, "afile/sub", nil, "afile is not a directory"},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			tree(t, root, c.files)
			var inputs []string
			for _, in := range c.inputs {
				inputs = append(inputs, filepath.Join(root, in))
			}
			before := snapshot(t, root)
			out := filepath.Join(root, c.out)
			filled := false
			err := Dir(out, DirOptions{Force: true, Inputs: inputs}, func(tmp string) error { filled = true; return fillOne(tmp) })
			if !errors.Is(err, ErrExists) || !strings.Contains(err.Error(), out) || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("err = %v, want one line naming %s and %q", err, out, c.want)
			}
			if filled {
				t.Error("fill ran")
			}
			if after := snapshot(t, root); after != before {
				t.Errorf("the tree changed:\n%s\nwas\n%s", after, before)
			}
		})
	}
}

// An input reached through a symbolic link, or given as a relative path,
// is recognised inside the output.
func TestDirRefusesLinkedInput(t *testing.T) {
	root := t.TempDir()
	tree(t, root, map[string]string{"d/u/x.sqlite": "profile", "d/r.nsys-analysis": "{}"})
	if err := os.Symlink(filepath.Join(root, "d", "u"), filepath.Join(root, "link")); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, root)
	for _, o := range []struct{ out, in string }{
		{filepath.Join(root, "d"), filepath.Join(root, "link", "x.sqlite")},
		{filepath.Join(root, "link", ".."), filepath.Join(root, "d", "u", "x.sqlite")},
	} {
		err := Dir(o.out, DirOptions{Force: true, Inputs: []string{o.in}}, fillOne)
		if !errors.Is(err, ErrExists) || !strings.Contains(err.Error(), "holds the input") {
			t.Errorf("%s with input %s: err = %v", o.out, o.in, err)
		}
	}
	if after := snapshot(t, root); after != before {
		t.Errorf("refused replacements changed the tree:\nbefore:\n%s\nafter:\n%s", before, after)
	}
	// An input that is a link inside the output, to a file elsewhere.
	tree(t, root, map[string]string{"elsewhere/y.sqlite": "profile"})
	if err := os.Symlink(filepath.Join(root, "elsewhere", "y.sqlite"), filepath.Join(root, "d", "y.sqlite")); err != nil {
		t.Fatal(err)
	}
	before = snapshot(t, root)
	if err := Dir(filepath.Join(root, "d"), DirOptions{Force: true, Inputs: []string{filepath.Join(root, "d", "y.sqlite")}}, fillOne); !errors.Is(err, ErrExists) {
		t.Errorf("input linked from the output: err = %v", err)
	}
	wd, _ := os.Getwd()
	t.Chdir(filepath.Join(root, "d"))
	if err := Dir(filepath.Join(root, "d"), DirOptions{Force: true, Inputs: []string{"u/x.sqlite"}}, fillOne); !errors.Is(err, ErrExists) {
		t.Errorf("relative input: err = %v", err)
	}
	t.Chdir(wd)
	if after := snapshot(t, root); after != before {
		t.Errorf("the tree changed:\n%s", after)
	}
	// The output given as a symbolic link is refused too.
	if err := os.Symlink(filepath.Join(root, "d"), filepath.Join(root, "outlink")); err != nil {
		t.Fatal(err)
	}
	if err := Dir(filepath.Join(root, "outlink"), DirOptions{Force: true}, fillOne); !errors.Is(err, ErrExists) || !strings.Contains(err.Error(), "symbolic link") {
		t.Errorf("output through a link: err = %v", err)
	}
}

// Outputs of nsysx (export or recipe directories, with the manifest) and
// of nsys's recipes (a .nsys-analysis and recipe files) are replaced with
// --force-overwrite; without it they are refused.
func TestDirReplacesOurs(t *testing.T) {
	root := t.TempDir()
	exp := filepath.Join(root, "x_pqtdir")
	if err := Dir(exp, DirOptions{}, func(tmp string) error {
		return os.WriteFile(filepath.Join(tmp, "StringIds.parquet"), []byte("old"), 0o666)
	}); err != nil {
		t.Fatal(err)
	}
	tree(t, root, map[string]string{"nsys_out/nsys_out.nsys-analysis": "{}", "nsys_out/stats.parquet": "old", "nsys_out/stats.csv": "old",
		"nsys_out/stats.ipynb": "{}"})
	for _, dir := range []string{exp, filepath.Join(root, "nsys_out")} {
		if err := Dir(dir, DirOptions{}, fillOne); !errors.Is(err, ErrExists) || !strings.Contains(err.Error(), "--force-overwrite") {
			t.Errorf("%s without force: %v", dir, err)
		}
		if err := Dir(dir, DirOptions{Force: true, Inputs: []string{filepath.Join(root, "x.sqlite")}}, fillOne); err != nil {
			t.Errorf("%s: %v", dir, err)
		}
		if got := names(t, dir); got != Manifest+" new.parquet" {
			t.Errorf("%s holds %s after the replacement", dir, got)
		}
	}
	if got := names(t, root); got != "nsys_out x_pqtdir" {
		t.Errorf("left beside the outputs: %s", got)
	}
}

func names(t *testing.T, dir string) string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var n []string
	for _, e := range ents {
		n = append(n, e.Name())
	}
	return strings.Join(n, " ")
}
