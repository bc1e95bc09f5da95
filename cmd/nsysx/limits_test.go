package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/nsysx/nsysx/internal/testutil"
)

// oneLine fails unless a run exited with code and printed one line on
// stderr containing want.
func oneLine(t *testing.T, args []string, code int, errOut, want string, wantCode int) {
	t.Helper()
	if code != wantCode || strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, want) {
		t.Errorf("%v: exit %d, %q; want exit %d and one line with %q", args, code, errOut, wantCode, want)
	}
}

// Bad option values are one-line errors, the same for a rule under
// `analyze` and its recipe, and --bins is bounded (100000000 bins ran to
// 13 GB; the test asks one more than the bound, so that a lost bound
// costs little).
func TestOptionLimits(t *testing.T) {
	in := testutil.Profile(t, "sync")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"recipe", "cuda_gpu_time_util_map", "--input", in, "--bins", "100001"}, "--bins must be between 1 and 100000, not 100001"},
		{[]string{"analyze", "-q", "-r", "gpu_time_util:chunks=0", in}, "value must be between 1 and 1000"},
		{[]string{"recipe", "gpu_time_util", "--input", in, "--chunks", "0"}, "--chunks must be between 1 and 1000"},
		{[]string{"analyze", "-q", "-r", "gpu_gaps:gap=-1", in}, "value must be between 0 and 2147483647"},
		{[]string{"recipe", "gpu_gaps", "--input", in, "--gap", "-1"}, "--gap must be between 0 and 2147483647"},
		{[]string{"analyze", "-q", "-r", "gpu_time_util:threshold=-1", in}, "value must be between 0 and 2147483647"},
		{[]string{"recipe", "gpu_time_util", "--input", in, "--threshold", "-1"}, "--threshold must be between 0 and 2147483647"},
	} {
		dir := t.TempDir()
		t.Chdir(dir)
		_, errOut, code := runCLI(t, c.args...)
		oneLine(t, c.args, code, errOut, c.want, 2)
		if names := testutil.DirNames(t, dir); len(names) != 0 {
			t.Errorf("%v wrote %v", c.args, names)
		}
	}
}

// A bad $NSYSX_EXPORT_TIMEOUT is refused as a bad --export-timeout is (it
// was ignored: no limit).
func TestExportTimeoutEnv(t *testing.T) {
	in := testutil.Profile(t, "sync")
	t.Setenv("NSYSX_EXPORT_TIMEOUT", "abc")
	t.Chdir(t.TempDir())
	for _, args := range [][]string{
		{"stats", "-q", "-r", "cuda_gpu_kern_sum", in},
		{"export", "-q", "-t", "parquet", "-o", "x", in},
		{"recipe", "cuda_gpu_kern_sum", "--input", in},
	} {
		_, errOut, code := runCLI(t, args...)
		oneLine(t, args, code, errOut, `NSYSX_EXPORT_TIMEOUT: "abc" is not a duration`, 2)
	}
	t.Setenv("NSYSX_EXPORT_TIMEOUT", "10m")
	if _, errOut, code := runCLI(t, "stats", "-q", "-r", "cuda_gpu_kern_sum", in); code != 0 {
		t.Errorf("a good NSYSX_EXPORT_TIMEOUT: %q", errOut)
	}
}

// A damaged .sqlite.gz is one line (the "decompressing ... (once)" note
// used to come first); an output under a file says which parent is not a
// directory (it said "exists and is not empty").
func TestOneLineErrors(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("NSYSX_CACHE_DIR", t.TempDir())
	gz := testutil.ReadFile(t, filepath.Join(testutil.Root(), "testdata", "profiles", "sync.sqlite.gz"))
	trunc := filepath.Join(dir, "trunc.sqlite.gz")
	os.WriteFile(trunc, gz[:len(gz)/2], 0o644)
	for _, args := range [][]string{
		{"stats", "-r", "cuda_gpu_kern_sum", trunc},
		{"recipe", "cuda_gpu_kern_sum", "--input", trunc, "--output", filepath.Join(dir, "r")},
	} {
		_, errOut, code := runCLI(t, args...)
		oneLine(t, args, code, errOut, "unexpected EOF", 1)
	}
	afile := filepath.Join(dir, "afile")
	os.WriteFile(afile, []byte("mine"), 0o644)
	in := testutil.Profile(t, "sync")
	for _, args := range [][]string{
		{"export", "-q", "-t", "parquet", "-o", filepath.Join(afile, "sub"), in},
		{"recipe", "cuda_gpu_kern_sum", "--input", in, "--output", filepath.Join(afile, "sub")},
	} {
		_, errOut, code := runCLI(t, args...)
		oneLine(t, args, code, errOut, afile+" is not a directory", 2)
	}
}

// Outputs get the modes of plain created files (0666 and 0777 less the
// umask): the SQLite export of a .nsys-rep and the export directories were
// 0600 and 0700-then-chmod.
func TestOutputModesFollowUmask(t *testing.T) {
	old := syscall.Umask(0o027)
	defer syscall.Umask(old)
	t.Setenv("NSYSX_CACHE_DIR", t.TempDir())
	testutil.FakeNsys(t, `cat "`+testutil.Profile(t, "sync")+`" > "$out"`)
	rep := repIn(t)
	if _, errOut, code := runCLI(t, "stats", "-q", "-r", "cuda_gpu_kern_sum", rep); code != 0 {
		t.Fatal(errOut)
	}
	dir := t.TempDir()
	out := filepath.Join(dir, "x_pqtdir")
	if _, errOut, code := runCLI(t, "export", "-q", "-t", "parquet", "--tables", "StringIds", "-o", out, rep); code != 0 {
		t.Fatal(errOut)
	}
	csv := filepath.Join(dir, "o")
	if _, errOut, code := runCLI(t, "stats", "-q", "-r", "cuda_gpu_kern_sum", "-f", "csv", "-o", csv, rep); code != 0 {
		t.Fatal(errOut)
	}
	for p, want := range map[string]os.FileMode{
		strings.TrimSuffix(rep, ".nsys-rep") + ".sqlite": 0o640,
		out:                                     0o750,
		filepath.Join(out, "StringIds.parquet"): 0o640,
		csv + "_cuda_gpu_kern_sum.csv":          0o640,
	} {
		st, err := os.Stat(p)
		if err != nil {
			t.Error(err)
			continue
		}
		if st.Mode().Perm() != want {
			t.Errorf("%s: mode %v, want %v under umask 027", p, st.Mode().Perm(), want)
		}
	}
}
