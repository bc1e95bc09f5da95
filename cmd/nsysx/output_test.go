package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nsysx/nsysx/internal/testutil"
)

// cutShort runs nsysx with files limited to 8 KiB (ulimit -f): every
// write past that fails, as when a run is stopped in the middle of one.
func cutShort(t *testing.T, dir string, args ...string) string {
	t.Helper()
	c := exec.Command("/bin/sh", append([]string{"-c", `ulimit -f 8; exec "$0" "$@"`, os.Args[0]}, args...)...)
	c.Env = append(os.Environ(), cliAsTestEnv+"=1")
	c.Dir = dir
	out, err := c.CombinedOutput()
	if err == nil {
		t.Fatalf("nsysx %v succeeded with writes cut at 8 KiB: %s", args, out)
	}
	return string(out)
}

// noFinal fails if name exists: an interrupted write leaves nothing under
// the name asked for.
func noFinal(t *testing.T, name, out string) {
	t.Helper()
	if _, err := os.Stat(name); err == nil {
		t.Errorf("a cut-short run left %s (%s)", name, strings.TrimSpace(out))
	}
}

// A `stats -o` cut short leaves no file (it used to leave a truncated CSV
// that the next run kept: "SKIPPED: output file exists"); the next run
// writes the whole file.
func TestStatsOutputAtomic(t *testing.T) {
	dir := t.TempDir()
	in := testutil.Profile(t, "sync")
	name := filepath.Join(dir, "o_cuda_gpu_trace.csv")
	noFinal(t, name, cutShort(t, dir, "stats", "-q", "-r", "cuda_gpu_trace", "-f", "csv", "-o", "o", in))
	full, _, _ := runCLI(t, "stats", "-q", "-r", "cuda_gpu_trace", "-f", "csv", in)
	if out, errOut, code := runCLI(t, "stats", "-q", "-r", "cuda_gpu_trace", "-f", "csv", "-o", filepath.Join(dir, "o"), in); code != 0 || out != "" {
		t.Fatalf("rerun: exit %d %q %q", code, out, errOut)
	}
	if b, _ := os.ReadFile(name); strings.TrimSpace(string(b)) != strings.TrimSpace(full) || len(b) < 8192 {
		t.Errorf("rerun wrote %d bytes, want the %d of the report", len(b), len(full))
	}
}

// An `export` cut short leaves no directory (it used to leave one without
// StringIds, which stats accepted); stats refuses such a directory.
func TestExportAtomic(t *testing.T) {
	dir := t.TempDir()
	in := testutil.Profile(t, "sync")
	out := filepath.Join(dir, "x_pqtdir")
	noFinal(t, out, cutShort(t, dir, "export", "-q", "-t", "parquet", "-o", "x_pqtdir", in))
	part := filepath.Join(dir, "part_pqtdir")
	if _, errOut, code := runCLI(t, "export", "-q", "-t", "parquet", "--tables", "KERNEL", "-o", part, in); code != 0 {
		t.Fatal(errOut)
	}
	_, errOut, code := runCLI(t, "stats", "-q", "-r", "cuda_gpu_kern_sum", part)
	if code != 1 || !strings.Contains(errOut, "no StringIds table") || strings.Count(errOut, "\n") != 1 {
		t.Errorf("stats on a directory without StringIds: exit %d, %q", code, errOut)
	}
}

// `export` into a directory that is not empty, and `plot` onto an existing
// file, follow stats's rule: refused unless --force-overwrite, and for a
// directory only when it is an export of nsysx (a directory of the user's
// is refused even with it, exit 2).
func TestOutputOverwriteRule(t *testing.T) {
	dir := t.TempDir()
	in := testutil.Profile(t, "sync")
	mine := filepath.Join(dir, "mine_pqtdir")
	os.Mkdir(mine, 0o755)
	os.WriteFile(filepath.Join(mine, "mine.txt"), []byte("keep"), 0o644)
	out := filepath.Join(dir, "x_pqtdir")
	if _, errOut, code := runCLI(t, "export", "-q", "-t", "parquet", "--tables", "KERNEL", "-o", out, in); code != 0 {
		t.Fatal(errOut)
	}
	png := filepath.Join(dir, "k.png")
	os.WriteFile(png, []byte("mine"), 0o644)
	if _, merr := runMagic(t, "export -q -t parquet -o "+out+" "+in); !strings.Contains(merr, "--force-overwrite") {
		t.Errorf("%%nsys export into a directory that is not empty: %q", merr)
	}
	for _, args := range [][]string{
		{"export", "-q", "-t", "parquet", "-o", out, in},
		{"plot", "kernels", "-q", "-o", png, in},
	} {
		_, errOut, code := runCLI(t, args...)
		if code == 0 || !strings.Contains(errOut, "--force-overwrite") || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%v: exit %d, %q", args, code, errOut)
		}
		if _, errOut, code := runCLI(t, append(args[:1:1], append([]string{"--force-overwrite"}, args[1:]...)...)...); code != 0 {
			t.Errorf("%v --force-overwrite: %q", args, errOut)
		}
	}
	if _, err := os.Stat(filepath.Join(out, "StringIds.parquet")); err != nil {
		t.Error("export --force-overwrite did not write the tables")
	}
	if b, _ := os.ReadFile(png); len(b) < 100 {
		t.Error("plot --force-overwrite did not write the chart")
	}
	_, errOut, code := runCLI(t, "export", "-q", "--force-overwrite", "-t", "parquet", "-o", mine, in)
	if code != 2 || !strings.Contains(errOut, mine+" is not an output directory") || strings.Count(errOut, "\n") != 1 {
		t.Errorf("export --force-overwrite into the user's directory: exit %d, %q", code, errOut)
	}
	if b, _ := os.ReadFile(filepath.Join(mine, "mine.txt")); string(b) != "keep" {
		t.Error("export --force-overwrite touched the user's directory")
	}
	// An empty directory is no obstacle, as before.
	empty := filepath.Join(dir, "empty_pqtdir")
	os.Mkdir(empty, 0o755)
	if _, errOut, code := runCLI(t, "export", "-q", "-t", "parquet", "--tables", "StringIds", "-o", empty, in); code != 0 {
		t.Errorf("export into an empty directory: %q", errOut)
	}
}

// A plot cut short leaves no file.
func TestPlotAtomic(t *testing.T) {
	dir := t.TempDir()
	noFinal(t, filepath.Join(dir, "k.png"), cutShort(t, dir, "plot", "kernels", "-q", "-o", "k.png", testutil.Profile(t, "sync")))
}

// The commands that write one file (advise, compare, critical-path, the
// Perfetto and pprof exports, and their magics) follow stats's rule too:
// an existing file is refused, before any work, unless --force-overwrite,
// and never replaced when it is the input or a directory. They used to
// truncate whatever the -o name held.
func TestSingleFileOutputRule(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "sync.sqlite")
	os.WriteFile(in, testutil.ReadFile(t, testutil.Profile(t, "sync")), 0o644)
	inBytes, _ := os.ReadFile(in)
	o := filepath.Join(dir, "o.txt")
	mine := func(name string) {
		if err := os.WriteFile(name, []byte("mine"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	kept := func(name string) bool { b, _ := os.ReadFile(name); return string(b) == "mine" }
	for _, c := range []struct {
		args []string
		file string // what the command writes
		skip bool   // a SKIPPED run (no call stacks): exit 0, nothing written
	}{
		{[]string{"advise", "-o", o, in}, o, false},
		{[]string{"critical-path", "-o", o, in}, o, false},
		{[]string{"compare", "-o", o, in, in}, o, false},
		{[]string{"export", "-q", "-t", "perfetto", "-o", filepath.Join(dir, "t"), in}, filepath.Join(dir, "t.json"), false},
		{[]string{"export", "-q", "-t", "pprof", "-o", filepath.Join(dir, "p"), in}, filepath.Join(dir, "p.pb.gz"), true},
		{[]string{"plot", "kernels", "-q", "-o", filepath.Join(dir, "k.svg"), in}, filepath.Join(dir, "k.svg"), false},
	} {
		mine(c.file)
		_, errOut, code := runCLI(t, c.args...)
		if code != 2 || !strings.Contains(errOut, c.file+" exists (pass --force-overwrite") || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%v onto an existing file: exit %d, %q", c.args, code, errOut)
		}
		if !kept(c.file) {
			t.Errorf("%v replaced %s without --force-overwrite", c.args, c.file)
		}
		force := append([]string{c.args[0], "--force-overwrite"}, c.args[1:]...)
		if _, errOut, code := runCLI(t, force...); code != 0 {
			t.Errorf("%v: exit %d, %q", force, code, errOut)
		}
		if kept(c.file) != c.skip {
			t.Errorf("%v: %s replaced = %v, want %v", force, c.file, !kept(c.file), !c.skip)
		}
		os.Remove(c.file)
	}
	// Never the input, never a directory, even with --force-overwrite.
	_, errOut, code := runCLI(t, "advise", "--force-overwrite", "-o", in, in)
	if b, _ := os.ReadFile(in); code != 2 || !strings.Contains(errOut, "is the input") || string(b) != string(inBytes) {
		t.Errorf("advise -o INPUT: exit %d, %q, input kept %v", code, errOut, string(b) == string(inBytes))
	}
	_, errOut, code = runCLI(t, "critical-path", "--force-overwrite", "-o", dir, in)
	if code != 2 || !strings.Contains(errOut, "is a directory") {
		t.Errorf("critical-path -o DIR: exit %d, %q", code, errOut)
	}
	// A plot named like a directory is refused too (it used to fail late,
	// after drawing, with exit 1).
	sub := filepath.Join(dir, "d.svg")
	os.Mkdir(sub, 0o755)
	if _, errOut, code = runCLI(t, "plot", "kernels", "-q", "--force-overwrite", "-o", sub, in); code != 2 || !strings.Contains(errOut, "is a directory") {
		t.Errorf("plot -o DIR: exit %d, %q", code, errOut)
	}
	// A broken symbolic link is the user's too: kept without --force-overwrite.
	link := filepath.Join(dir, "link.txt")
	if err := os.Symlink(filepath.Join(dir, "nowhere"), link); err != nil {
		t.Fatal(err)
	}
	if _, errOut, code = runCLI(t, "advise", "-o", link, in); code != 2 || !strings.Contains(errOut, "broken symbolic link") {
		t.Errorf("advise -o BROKEN-LINK: exit %d, %q", code, errOut)
	}
	if _, err := os.Lstat(link); err != nil {
		t.Errorf("advise -o BROKEN-LINK removed the link: %v", err)
	}
	// The magics: refused with the same message, the file kept; replaced
	// with --force-overwrite.
	for _, words := range []string{"advise -o " + o + " " + in, "critical-path -o " + o + " " + in, "compare -o " + o + " " + in + " " + in} {
		mine(o)
		if _, merr := runMagic(t, words); !strings.Contains(merr, "--force-overwrite") || !kept(o) {
			t.Errorf("%%nsys %s onto an existing file: %q, kept %v", words, merr, kept(o))
		}
		cmd, rest, _ := strings.Cut(words, " ")
		if _, merr := runMagic(t, cmd+" --force-overwrite "+rest); merr != "" || kept(o) {
			t.Errorf("%%nsys %s --force-overwrite: %q, replaced %v", words, merr, !kept(o))
		}
	}
}
