package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/nsysx/nsysx/internal/testutil"
	"github.com/nsysx/nsysx/kernel"
)

// cliProcess starts the test binary as the nsysx command.
func cliProcess(t *testing.T, args ...string) (*exec.Cmd, *bytes.Buffer) {
	t.Helper()
	c := exec.Command(os.Args[0], args...)
	c.Env = append(os.Environ(), cliAsTestEnv+"=1")
	var out bytes.Buffer
	c.Stdout, c.Stderr = &out, &out
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Process.Kill() })
	return c, &out
}

// waitExit waits up to 20 s for c to exit, and returns its exit status.
func waitExit(t *testing.T, c *exec.Cmd) int {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- c.Wait() }()
	select {
	case <-done:
		return c.ProcessState.ExitCode()
	case <-time.After(20 * time.Second):
		t.Fatalf("nsysx %v did not exit", c.Args[1:])
		return -1
	}
}

// repIn makes a stand-in .nsys-rep for a fake nsys in a fresh directory.
func repIn(t *testing.T) string {
	rep := filepath.Join(t.TempDir(), "run.nsys-rep")
	if err := os.WriteFile(rep, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	return rep
}

// Concurrent nsysx processes on one .nsys-rep export it once, and every
// one prints the right report (26 of 36 used to fail or read half an
// export: they shared one temporary name).
func TestRepExportConcurrentProcesses(t *testing.T) {
	t.Setenv("NSYSX_CACHE_DIR", t.TempDir())
	calls, _ := testutil.FakeNsys(t, `sleep 0.5; cp "`+testutil.Profile(t, "sync")+`" "$out"`)
	rep := repIn(t)
	want, _ := testutil.Golden(t, "sync", "cuda_gpu_kern_sum.csv")
	var runs []*exec.Cmd
	var outs []*bytes.Buffer
	for range 10 {
		c, out := cliProcess(t, "stats", "-q", "-r", "cuda_gpu_kern_sum", "-f", "csv", rep)
		runs, outs = append(runs, c), append(outs, out)
	}
	for i, c := range runs {
		if code := waitExit(t, c); code != 0 || strings.TrimSpace(outs[i].String()) != strings.TrimSpace(want) {
			t.Errorf("run %d: exit %d\n%s", i, code, testutil.Diff(outs[i].String(), want))
		}
	}
	if calls() != 1 {
		t.Errorf("%d exports for %d concurrent runs, want 1", calls(), len(runs))
	}
}

const hangingNsys = `sleep 60 & echo $! >> PIDFILE; echo $$ >> PIDFILE; sleep 60`

// SIGTERM (or SIGINT) to nsysx stops nsys and what it started.
func TestRepExportSignal(t *testing.T) {
	t.Setenv("NSYSX_CACHE_DIR", t.TempDir())
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		_, pidfile := testutil.FakeNsys(t, hangingNsys)
		c, out := cliProcess(t, "stats", "-q", repIn(t))
		pids := testutil.WaitPids(t, pidfile, 2)
		c.Process.Signal(sig)
		if code := waitExit(t, c); code == 0 || !strings.Contains(out.String(), "interrupted") {
			t.Errorf("%v: exit %d, output %q", sig, code, out.String())
		}
		testutil.NoneAlive(t, pids)
	}
}

// --export-timeout stops a hung nsys with a clear error.
func TestRepExportTimeoutFlag(t *testing.T) {
	t.Setenv("NSYSX_CACHE_DIR", t.TempDir())
	_, pidfile := testutil.FakeNsys(t, hangingNsys)
	c, out := cliProcess(t, "stats", "-q", "--export-timeout", "500ms", repIn(t))
	if code := waitExit(t, c); code != 1 || !strings.Contains(out.String(), "--export-timeout 500ms") {
		t.Errorf("exit %d, output %q", code, out.String())
	}
	testutil.NoneAlive(t, testutil.Pids(pidfile))
}

// SIGTERM to nsysx stops an -o @CMD pipe and what it started.
func TestPipeSignal(t *testing.T) {
	pidfile := filepath.Join(t.TempDir(), "pids")
	c, out := cliProcess(t, "stats", "-q", "-r", "cuda_api_sum", "-f", "csv",
		"-o", "@sleep 60 & echo $! >> "+pidfile+"; echo $$ >> "+pidfile+"; wait", testutil.Profile(t, "sync"))
	pids := testutil.WaitPids(t, pidfile, 2)
	t.Cleanup(func() {
		for _, p := range pids {
			if testutil.Alive(p) {
				syscall.Kill(p, syscall.SIGKILL)
			}
		}
	})
	c.Process.Signal(syscall.SIGTERM)
	if code := waitExit(t, c); code == 0 {
		t.Errorf("exit 0 after SIGTERM: %q", out.String())
	}
	testutil.NoneAlive(t, pids)
}

// Interrupting %open of a .nsys-rep stops nsys and its children.
func TestKernelOpenInterrupt(t *testing.T) {
	t.Setenv("NSYSX_CACHE_DIR", t.TempDir())
	_, pidfile := testutil.FakeNsys(t, hangingNsys)
	k := newTestKernel(t)
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		testutil.WaitPids(t, pidfile, 2)
		cancel()
	}()
	var out bytes.Buffer
	if err := k.RunCell(ctx, "%open "+repIn(t), kernel.TextOutput{W: &out}); err == nil {
		t.Errorf("interrupted %%open succeeded: %s", out.String())
	}
	testutil.NoneAlive(t, testutil.WaitPids(t, pidfile, 2))
}

// TestProfileCommand runs `nsysx profile` with a stand-in nsys on PATH (the
// real one is exercised on the GPU machine): output streamed, report
// exported once and opened; without nsys, one line and exit 1.
func TestProfileCommand(t *testing.T) {
	testutil.FakeProfiler(t, testutil.Profile(t, "sync"))
	rep := filepath.Join(t.TempDir(), "run1")
	var out, errb bytes.Buffer
	if code := run([]string{"profile", "-o", rep, "--", "echo", "step 1"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if !strings.Contains(out.String(), "step 1") || !strings.Contains(out.String(), "Profile: "+rep+".nsys-rep") {
		t.Fatalf("stdout %q", out.String())
	}
	if _, err := os.Stat(rep + ".sqlite"); err != nil {
		t.Errorf("export: %v", err)
	}
	t.Setenv("PATH", t.TempDir())
	out.Reset()
	errb.Reset()
	if code := run([]string{"profile", "--", "true"}, &out, &errb); code != 1 || strings.Count(errb.String(), "\n") != 1 ||
		!strings.Contains(errb.String(), "not on PATH") {
		t.Errorf("without nsys: exit %d, stderr %q", code, errb.String())
	}
	if code := run([]string{"profile", "-t", "cuda"}, &out, &errb); code != 2 {
		t.Errorf("no command: exit %d", code)
	}
}

// SIGTERM (or SIGINT) to `nsysx recipe` stops the nsys it started for a
// .nsys-rep and what that started, and removes the partial export (the
// recipe used to ignore SIGTERM: nsys ran on, the partials stayed).
func TestRecipeRepExportSignal(t *testing.T) {
	t.Setenv("NSYSX_CACHE_DIR", t.TempDir())
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		_, pidfile := testutil.FakeNsys(t, `: > "$out"; `+hangingNsys)
		rep := repIn(t)
		out := filepath.Join(filepath.Dir(rep), "res")
		c, buf := cliProcess(t, "recipe", "cuda_gpu_kern_sum", "--input", rep, "--output", out)
		pids := testutil.WaitPids(t, pidfile, 2)
		c.Process.Signal(sig)
		if code := waitExit(t, c); code != 130 || !strings.Contains(buf.String(), "nsysx recipe: interrupted\n") || strings.Contains(buf.String(), "canceled") {
			t.Errorf("%v: exit %d, output %q", sig, code, buf.String())
		}
		testutil.NoneAlive(t, pids)
		if left := testutil.DirNames(t, filepath.Dir(rep)); len(left) != 1 {
			t.Errorf("%v: left %q beside the report", sig, left)
		}
	}
}

// A partial export that a killed nsysx left (SIGKILL cannot be handled) is
// removed by the next run that exports the same report, when it is
// exactly of our naming, the user's own, and older than the export
// timeout; files that only look alike, or are recent, are kept.
func TestRepExportStalePartials(t *testing.T) {
	t.Setenv("NSYSX_CACHE_DIR", t.TempDir())
	testutil.FakeNsys(t, `cp "`+testutil.Profile(t, "sync")+`" "$out"`)
	rep := repIn(t)
	dir := filepath.Dir(rep)
	old := time.Now().Add(-2 * time.Hour)
	for _, n := range []string{".run.sqlite.partial-123.sqlite", ".run.sqlite.partial-7.sqlite", "mine.sqlite.partial-1.sqlite",
		".run.sqlite.partial-x.sqlite", ".other.sqlite.partial-5.sqlite", ".run.sqlite.partial-9.sqlite.bak", "recent"} {
		p := filepath.Join(dir, n)
		os.WriteFile(p, []byte("x"), 0o644)
		if n != "recent" {
			os.Chtimes(p, old, old)
		}
	}
	os.Rename(filepath.Join(dir, "recent"), filepath.Join(dir, ".run.sqlite.partial-55.sqlite"))
	if _, errOut, code := runCLI(t, "stats", "-q", "--export-timeout", "1h", "-r", "cuda_gpu_kern_sum", rep); code != 0 {
		t.Fatal(errOut)
	}
	want := ".other.sqlite.partial-5.sqlite .run.sqlite.partial-55.sqlite .run.sqlite.partial-9.sqlite.bak .run.sqlite.partial-x.sqlite mine.sqlite.partial-1.sqlite run.nsys-rep run.sqlite"
	if got := strings.Join(testutil.DirNames(t, dir), " "); got != want {
		t.Errorf("left %s\nwant %s", got, want)
	}
}

// The temporary directory of an export or recipe that was killed is
// removed by the next run writing the same output once it is stale.
func TestStaleOutputPartials(t *testing.T) {
	dir := t.TempDir()
	in := testutil.Profile(t, "sync")
	old := time.Now().Add(-2 * time.Hour)
	for _, n := range []string{".x_pqtdir.partial-42", ".x_pqtdir.partial-43", ".y_pqtdir.partial-1"} {
		os.MkdirAll(filepath.Join(dir, n), 0o755)
		os.WriteFile(filepath.Join(dir, n, "StringIds.parquet"), []byte("half"), 0o644)
		if n != ".x_pqtdir.partial-43" {
			os.Chtimes(filepath.Join(dir, n, "StringIds.parquet"), old, old)
			os.Chtimes(filepath.Join(dir, n), old, old)
		}
	}
	if _, errOut, code := runCLI(t, "export", "-q", "-t", "parquet", "--tables", "StringIds", "-o", filepath.Join(dir, "x_pqtdir"), in); code != 0 {
		t.Fatal(errOut)
	}
	if got := strings.Join(testutil.DirNames(t, dir), " "); got != ".x_pqtdir.partial-43 .y_pqtdir.partial-1 x_pqtdir" {
		t.Errorf("left %s", got)
	}
}
