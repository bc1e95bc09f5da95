package main

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nsysx/nsysx/internal/testutil"
)

// The Jupyter tests run the real kernel binary under Debian's Jupyter
// tools. Without them they skip (saying how to install them), except
// when CI is set: there a missing tool is a failure.

const installHint = "install them with `sudo make deps` (scripts/install-test-deps.sh: Debian's jupyter packages and chromium)"

// needTools checks executables and Python modules of /usr/bin/python3.
func needTools(t *testing.T, files []string, modules []string) {
	t.Helper()
	var missing []string
	for _, f := range files {
		if _, err := os.Stat(f); err != nil {
			missing = append(missing, f)
		}
	}
	if len(modules) > 0 {
		if _, err := os.Stat("/usr/bin/python3"); err == nil {
			for _, m := range modules {
				ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
				err := exec.CommandContext(ctx, "/usr/bin/python3", "-c", "import "+m).Run()
				cancel()
				if err != nil {
					missing = append(missing, "python module "+m)
				}
			}
		}
	}
	if len(missing) == 0 {
		return
	}
	if os.Getenv("CI") != "" {
		t.Fatalf("CI is set and %s missing; %s", strings.Join(missing, ", "), installHint)
	}
	t.Skipf("needs %s; %s", strings.Join(missing, ", "), installHint)
}

func TestKernelInstallSpec(t *testing.T) {
	dir := t.TempDir()
	out, errOut, code := runCLI(t, "kernel", "install", "--prefix", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	specDir := filepath.Join(dir, "share", "jupyter", "kernels", "nsysx")
	if !strings.Contains(out, specDir) {
		t.Errorf("output %q", out)
	}
	var spec struct {
		Argv          []string `json:"argv"`
		DisplayName   string   `json:"display_name"`
		Language      string   `json:"language"`
		InterruptMode string   `json:"interrupt_mode"`
	}
	readJSON(t, filepath.Join(specDir, "kernel.json"), &spec)
	exe, _ := os.Executable()
	exe, _ = filepath.EvalSymlinks(exe)
	for _, f := range []string{"kernel.json", "logo-32x32.png"} {
		if !strings.Contains(out, filepath.Join(specDir, f)) {
			t.Errorf("install does not say it wrote %s: %q", f, out)
		}
	}
	if !strings.Contains(out, "rerun `nsysx kernel install`") {
		t.Errorf("install with nsysx off PATH does not say what to rerun: %q", out)
	}
	if len(spec.Argv) != 4 || spec.Argv[0] != exe || strings.Join(spec.Argv[1:], " ") != "kernel -f {connection_file}" ||
		spec.DisplayName != "nsysx (Go)" || spec.Language != "go" || spec.InterruptMode != "message" {
		t.Errorf("kernel.json %+v", spec)
	}
	for _, logo := range []string{"logo-32x32.png", "logo-64x64.png"} {
		if _, err := os.Stat(filepath.Join(specDir, logo)); err != nil {
			t.Error(err)
		}
	}
	// With this binary on PATH as nsysx, the spec names "nsysx".
	bin := filepath.Join(dir, "bin")
	os.MkdirAll(bin, 0o755)
	if err := os.Symlink(exe, filepath.Join(bin, "nsysx")); err != nil {
		t.Fatal(err)
	}
	if cmd, note := kernelCommand(exe, bin+string(os.PathListSeparator)+"/nonexistent"); cmd != "nsysx" || !strings.Contains(note, "PATH") {
		t.Errorf("on PATH: %q %q", cmd, note)
	}
	if cmd, _ := kernelCommand(exe, "/nonexistent"); cmd != exe {
		t.Errorf("off PATH: %q", cmd)
	}
	// --user honours XDG_DATA_HOME; --sys-prefix asks Python for sys.prefix
	t.Setenv("XDG_DATA_HOME", filepath.Join(dir, "xdg"))
	if _, errOut, code := runCLI(t, "kernel", "install", "--user"); code != 0 {
		t.Errorf("--user: %s", errOut)
	} else if _, err := os.Stat(filepath.Join(dir, "xdg", "jupyter", "kernels", "nsysx", "kernel.json")); err != nil {
		t.Error(err)
	}
	if d, err := kernelSpecDir([]string{"--sys-prefix"}); err != nil || !strings.HasSuffix(d, "/share/jupyter/kernels/nsysx") {
		t.Errorf("--sys-prefix: %q %v", d, err)
	}
	for _, args := range [][]string{{"kernel", "install", "--prefix"}, {"kernel", "install", "--nope"}, {"kernel", "-x"}, {"kernel"}} {
		if _, _, code := runCLI(t, args...); code != 2 {
			t.Errorf("%q: exit %d, want 2", args, code)
		}
	}
}

// jupyterEnv is a kernel binary built from this package and installed
// under a temporary prefix, and the environment that makes Jupyter find
// it (and nothing of the user's own Jupyter setup).
type jupyterEnv struct {
	dir, bin string
	env      []string
}

func setupJupyter(t *testing.T) *jupyterEnv {
	t.Helper()
	dir := t.TempDir()
	je := &jupyterEnv{dir: dir, bin: filepath.Join(dir, "bin", "nsysx")}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("building nsysx: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	if out, err := exec.CommandContext(ctx, goBin, "build", "-o", je.bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("building nsysx: %v\n%s", err, out)
	}
	if out, err := exec.CommandContext(ctx, je.bin, "kernel", "install", "--prefix", filepath.Join(dir, "prefix")).CombinedOutput(); err != nil {
		t.Fatalf("kernel install: %v\n%s", err, out)
	}
	je.env = append(os.Environ(),
		"JUPYTER_PATH="+filepath.Join(dir, "prefix", "share", "jupyter"),
		"JUPYTER_CONFIG_DIR="+filepath.Join(dir, "config"),
		"JUPYTER_DATA_DIR="+filepath.Join(dir, "data"),
		"JUPYTER_RUNTIME_DIR="+filepath.Join(dir, "runtime"),
		"IPYTHONDIR="+filepath.Join(dir, "ipython"),
		"HOME="+filepath.Join(dir, "home"),
		"PYDEVD_DISABLE_FILE_VALIDATION=1",
		"NSYSX_PROFILE="+testutil.Profile(t, "train"),
	)
	return je
}

// run runs a command in dir with the Jupyter environment and a deadline.
func (je *jupyterEnv) run(t *testing.T, dir string, timeout time.Duration, name string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir, cmd.Env = dir, je.env
	cmd.WaitDelay = 10 * time.Second
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v (%v)\n%s", name, strings.Join(args, " "), err, ctx.Err(), out)
	}
	return string(out)
}

// TestJupyter runs the kernel under Jupyter's own clients: kernelspec
// list, jupyter_kernel_test, an interrupting jupyter_client script and
// nbconvert on the test notebook.
func TestJupyter(t *testing.T) {
	needTools(t, []string{"/usr/bin/python3", "/usr/bin/jupyter", "/usr/bin/jupyter-kernelspec", "/usr/bin/jupyter-nbconvert"},
		[]string{"jupyter_kernel_test", "jupyter_client", "nbconvert", "nbclient"})
	if testing.Short() {
		t.Skip("builds the binary and starts kernels")
	}
	je := setupJupyter(t)
	tests := filepath.Join(testutil.Root(), "kernel", "tests")
	t.Run("kernelspec", func(t *testing.T) {
		out := je.run(t, je.dir, time.Minute, "/usr/bin/jupyter", "kernelspec", "list")
		if !strings.Contains(out, "nsysx ") || !strings.Contains(out, filepath.Join(je.dir, "prefix")) {
			t.Errorf("kernelspec list:\n%s", out)
		}
	})
	t.Run("jupyter_kernel_test", func(t *testing.T) {
		out := je.run(t, tests, 5*time.Minute, "/usr/bin/python3", "-Xfrozen_modules=off", "-m", "unittest", "-v", "test_jupyter_kernel.py")
		if !strings.Contains(out, "OK") || strings.Contains(out, "skipped") {
			t.Errorf("unittest:\n%s", out)
		}
		t.Logf("%d jupyter_kernel_test tests ran", strings.Count(out, " ... ok"))
	})
	t.Run("interrupt", func(t *testing.T) {
		out := je.run(t, tests, 3*time.Minute, "/usr/bin/python3", "-Xfrozen_modules=off", "interrupt_client.py")
		if !strings.HasSuffix(strings.TrimSpace(out), "OK") {
			t.Errorf("interrupt_client.py:\n%s", out)
		}
	})
	t.Run("nbconvert", func(t *testing.T) {
		out := filepath.Join(je.dir, "nbout")
		je.run(t, filepath.Join(testutil.Root(), "notebooks"), 5*time.Minute, "/usr/bin/jupyter", "nbconvert", "--to", "notebook",
			"--execute", "--ExecutePreprocessor.kernel_name=nsysx", "--ExecutePreprocessor.timeout=300",
			"--output-dir", out, "test_kernel.ipynb")
		checkTestNotebook(t, filepath.Join(out, "test_kernel.ipynb"))
	})
	t.Run("examples", func(t *testing.T) {
		// the example notebooks still run: execute them again, elsewhere
		out := filepath.Join(je.dir, "examples")
		names := exampleNotebooks(t)
		args := append([]string{"nbconvert", "--to", "notebook", "--execute", "--ExecutePreprocessor.kernel_name=nsysx",
			"--ExecutePreprocessor.timeout=300", "--output-dir", out}, names...)
		je.run(t, filepath.Join(testutil.Root(), "notebooks"), 10*time.Minute, "/usr/bin/jupyter", args...)
		for _, n := range names {
			checkExecuted(t, filepath.Join(out, n))
		}
	})
	t.Run("solutions", func(t *testing.T) {
		// every notebook's cells, then its exercises' solutions, run clean
		root := filepath.Join(je.dir, "solutions")
		names := writeSolutionNotebooks(t, root)
		args := append([]string{"nbconvert", "--to", "notebook", "--execute", "--inplace", "--ExecutePreprocessor.kernel_name=nsysx",
			"--ExecutePreprocessor.timeout=300"}, names...)
		je.run(t, filepath.Join(root, "notebooks"), 10*time.Minute, "/usr/bin/jupyter", args...)
		for _, n := range names {
			checkExecuted(t, filepath.Join(root, "notebooks", n))
		}
	})
}

// exampleNotebooks lists notebooks/0*.ipynb: the course, at least nine.
func exampleNotebooks(t *testing.T) []string {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(testutil.Root(), "notebooks", "0*.ipynb"))
	if err != nil || len(paths) < 9 {
		t.Fatalf("example notebooks: %v %v", paths, err)
	}
	var names []string
	for _, p := range paths {
		names = append(names, filepath.Base(p))
	}
	return names
}

// notebook is the part of an .ipynb file the checks read.
type notebook struct {
	Cells []struct {
		notebookCell
		Source         any  `json:"source"`
		ExecutionCount *int `json:"execution_count"`
	}
	Metadata struct {
		Kernelspec struct{ Name string } `json:"kernelspec"`
	}
}

// readJSON decodes the JSON file at path into v.
func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

// checkExecuted checks that every code cell of a notebook ran, has
// output and no error, that it is an nsysx notebook, and that the
// profiles it names exist in the repository; it returns the notebook.
func checkExecuted(t *testing.T, path string) notebook {
	t.Helper()
	var nb notebook
	readJSON(t, path, &nb)
	name := filepath.Base(path)
	if nb.Metadata.Kernelspec.Name != "nsysx" {
		t.Errorf("%s: kernelspec %q", name, nb.Metadata.Kernelspec.Name)
	}
	for i, c := range nb.Cells {
		if c.CellType != "code" {
			continue
		}
		src := joinText(c.Source)
		if c.ExecutionCount == nil || len(c.Outputs) == 0 {
			t.Errorf("%s: cell %d not executed or without output: %.60q", name, i, src)
		}
		for _, o := range c.Outputs {
			if o.OutputType == "error" {
				t.Errorf("%s: cell %d: %s: %s", name, i, o.Ename, o.Evalue)
			}
		}
		for _, f := range strings.Fields(src) {
			if rel, ok := strings.CutPrefix(f, "../testdata/"); ok {
				if _, err := os.Stat(filepath.Join(testutil.Root(), "testdata", rel)); err != nil {
					t.Errorf("%s: cell %d names a missing file: %v", name, i, err)
				}
			}
		}
	}
	return nb
}

// TestExampleNotebooks checks the committed example notebooks: executed,
// with outputs, no errors, and profile paths that exist.
func TestExampleNotebooks(t *testing.T) {
	for _, n := range exampleNotebooks(t) {
		checkExecuted(t, filepath.Join(testutil.Root(), "notebooks", n))
	}
}

// notebookCell is the part of a cell the checks read.
type notebookCell struct {
	CellType string         `json:"cell_type"`
	Metadata map[string]any `json:"metadata"`
	Outputs  []struct {
		OutputType string         `json:"output_type"`
		Name       string         `json:"name"`
		Text       any            `json:"text"`
		Data       map[string]any `json:"data"`
		Ename      string         `json:"ename"`
		Evalue     string         `json:"evalue"`
	} `json:"outputs"`
}

func joinText(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case []any:
		var b strings.Builder
		for _, s := range x {
			b.WriteString(fmt.Sprint(s))
		}
		return b.String()
	}
	return ""
}

// checkTestNotebook compares the executed test notebook's outputs with
// what nsys printed for train (testdata/golden/train).
func checkTestNotebook(t *testing.T, path string) {
	t.Helper()
	var nb struct{ Cells []notebookCell }
	readJSON(t, path, &nb)
	kern := goldenCSV(t, "cuda_gpu_kern_sum.csv")
	var instances, total int64
	for _, r := range kern {
		var n, ns int64
		fmt.Sscan(r[2], &n)
		fmt.Sscan(r[1], &ns)
		instances, total = instances+n, total+ns
	}
	checked := map[string]bool{}
	for i, c := range nb.Cells {
		for _, o := range c.Outputs {
			if o.OutputType == "error" {
				t.Errorf("cell %d: %s: %s", i, o.Ename, o.Evalue)
			}
		}
		check, _ := c.Metadata["nsysx_check"].(string)
		if check == "" {
			continue
		}
		if len(c.Outputs) == 0 {
			t.Errorf("%s: no output", check)
			continue
		}
		o := c.Outputs[len(c.Outputs)-1]
		checked[check] = true
		switch check {
		case "kern_sum":
			compareRows(t, check, o.Data, kern)
		case "api_sum":
			compareRows(t, check, o.Data, goldenCSV(t, "cuda_api_sum.csv"))
		case "mem_csv":
			want, _ := testutil.Golden(t, "train", "cuda_gpu_mem_size_sum.csv")
			if got := joinText(o.Data["text/plain"]); got != strings.TrimRight(want, "\n") {
				t.Errorf("%s:\n%s", check, testutil.Diff(got, want))
			}
		case "model":
			if got, want := joinText(o.Text), fmt.Sprintf("kernels=%d total_ns=%d\n", instances, total); got != want {
				t.Errorf("%s: %q, want %q", check, got, want)
			}
		case "sql":
			rows, _ := o.Data["application/vnd.nsysx.result+json"].(map[string]any)["rows"].([]any)
			if len(rows) != 1 || fmt.Sprintf("%.0f", rows[0]) != fmt.Sprintf("[%d %d]", instances, total) {
				t.Errorf("%s: %v, want [[%d %d]]", check, rows, instances, total)
			}
		case "top":
			if got := joinText(o.Data["text/plain"]); got != kern[0][8] {
				t.Errorf("%s: %q, want %q", check, got, kern[0][8])
			}
		}
	}
	for _, c := range []string{"kern_sum", "api_sum", "mem_csv", "model", "sql", "top"} {
		if !checked[c] {
			t.Errorf("check %s: no cell", c)
		}
	}
}

func goldenCSV(t *testing.T, name string) [][]string {
	t.Helper()
	txt, ok := testutil.Golden(t, "train", name)
	if !ok {
		t.Fatalf("no golden %s", name)
	}
	recs, err := csv.NewReader(strings.NewReader(txt)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return recs[1:]
}

// compareRows checks a table output's JSON rows against a golden CSV:
// every cell, as nsys printed it (same row order, same values).
func compareRows(t *testing.T, check string, data map[string]any, want [][]string) {
	t.Helper()
	js, ok := data["application/vnd.nsysx.result+json"].(map[string]any)
	if !ok {
		t.Errorf("%s: no application/vnd.nsysx.result+json in %v", check, data)
		return
	}
	rows, _ := js["rows"].([]any)
	if len(rows) != min(len(want), 50) || js["total_rows"] != float64(len(want)) {
		t.Errorf("%s: %d rows of %v, golden %d", check, len(rows), js["total_rows"], len(want))
		return
	}
	for i, r := range rows {
		for j, v := range r.([]any) {
			got := fmt.Sprint(v)
			if f, ok := v.(float64); ok {
				got = fmt.Sprintf("%.1f", f)
				if f == float64(int64(f)) && !strings.Contains(want[i][j], ".") {
					got = fmt.Sprint(int64(f))
				}
			}
			if got != want[i][j] {
				t.Errorf("%s: row %d col %d: %s, golden %s", check, i, j, got, want[i][j])
			}
		}
	}
}
