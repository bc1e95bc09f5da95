package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nsysx/nsysx/internal/testutil"
)

// copyFile copies src to dst, making dst's directory.
func copyFile(t *testing.T, src, dst string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		t.Fatal(err)
	}
	in, err := os.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}

// treeOf lists every path under root with its size.
func treeOf(t *testing.T, root string) string {
	t.Helper()
	var b strings.Builder
	filepath.Walk(root, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(root, p)
		b.WriteString(rel + " " + info.Mode().String() + " " + strings.Repeat("#", int(min(info.Size(), 10))) + "\n")
		return nil
	})
	return b.String()
}

// --force-overwrite never deletes an input or a directory nsysx did not
// write: `recipe --input d/u/x.sqlite --output d --force-overwrite` used to
// delete d/u and the input, and `--output /tmp --force-overwrite` a whole
// /tmp. Each is one line naming the directory, exit 2, nothing touched.
// Earlier outputs of nsysx are still replaced.
func TestForceOverwriteKeepsInputs(t *testing.T) {
	root := t.TempDir()
	in := filepath.Join(root, "d", "u", "x.sqlite")
	copyFile(t, testutil.Profile(t, "sync"), in)
	os.WriteFile(filepath.Join(root, "d", "notes.txt"), []byte("mine"), 0o644)
	tmpLike := filepath.Join(root, "tmp")
	os.MkdirAll(filepath.Join(tmpLike, ".X11-unix"), 0o755)
	os.WriteFile(filepath.Join(tmpLike, "someone-elses.log"), []byte("theirs"), 0o644)
	os.Symlink(filepath.Join(root, "d", "u"), filepath.Join(root, "link"))
	viaLink := filepath.Join(root, "link", "x.sqlite")
	before := treeOf(t, root)
	d := filepath.Join(root, "d")
	for _, c := range []struct {
		args []string
		dir  string
	}{
		{[]string{"recipe", "cuda_gpu_kern_sum", "--input", in, "--output", d, "--force-overwrite"}, d},
		{[]string{"recipe", "cuda_gpu_kern_sum", "--input", viaLink, "--output", d, "--force-overwrite"}, d},
		{[]string{"recipe", "cuda_gpu_kern_sum", "--input", in, "--output", tmpLike, "--force-overwrite"}, tmpLike},
		{[]string{"export", "-q", "-t", "parquet", "--force-overwrite", "-o", d, in}, d},
		{[]string{"export", "-q", "-t", "arrow", "--force-overwrite", "-o", d, viaLink}, d},
		{[]string{"export", "-q", "-t", "parquet", "--force-overwrite", "-o", tmpLike, in}, tmpLike},
	} {
		stdout, errOut, code := runCLI(t, c.args...)
		if code != 2 || !strings.Contains(errOut, c.dir+" ") || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%v: exit %d, %q %q; want exit 2 and one line naming %s", c.args, code, stdout, errOut, c.dir)
		}
		if after := treeOf(t, root); after != before {
			t.Fatalf("%v changed the tree:\n%s\nwas\n%s", c.args, after, before)
		}
	}
	// A recipe output and an export of an earlier run are replaced.
	for _, args := range [][]string{
		{"recipe", "cuda_gpu_kern_sum", "--input", in, "--output", filepath.Join(root, "r"), "--force-overwrite"},
		{"export", "-q", "-t", "parquet", "--tables", "KERNEL", "--force-overwrite", "-o", filepath.Join(root, "e"), in},
	} {
		for i := range 2 {
			if _, errOut, code := runCLI(t, args...); code != 0 {
				t.Errorf("%v (run %d): exit %d, %q", args, i+1, code, errOut)
			}
		}
	}
	if _, err := os.Stat(filepath.Join(root, "r", "r.nsys-analysis")); err != nil {
		t.Error(err)
	}
	if _, err := os.Stat(filepath.Join(root, "e", "CUPTI_ACTIVITY_KIND_KERNEL.parquet")); err != nil {
		t.Error(err)
	}
}
