package main

import (
	"context"
	"fmt"
	"net"
	"net/http"
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

// jupyterEnv is a kernel binary built from this package and installed
// under a temporary prefix, and the environment that makes Jupyter find
// it (and nothing of the user's own Jupyter setup).
type jupyterEnv struct {
	dir, bin string
	env      []string
}

// setupJupyter skips the test under -short or without the Jupyter tools
// it needs (executables and Python modules: testutil.NeedTools), builds
// the kernel binary and installs it.
func setupJupyter(t *testing.T, tools, modules []string) *jupyterEnv {
	t.Helper()
	testutil.NeedTools(t, tools, modules)
	if testing.Short() {
		t.Skip("builds the binary and starts kernels")
	}
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

// notebookServer is a `jupyter notebook` serving root.
type notebookServer struct {
	je          *jupyterEnv
	root        string
	base, token string
}

// url is the address of the page of the notebook at path (relative to
// the server's root).
func (s *notebookServer) url(path string) string {
	return s.base + "/notebooks/" + path + "?token=" + s.token
}

// startNotebookServer makes the directory name under Jupyter's and
// starts `jupyter notebook` there on a free loopback port with a token,
// and stops it (and so its kernels) when the test ends.
func startNotebookServer(t *testing.T, je *jupyterEnv, name string) *notebookServer {
	t.Helper()
	root := filepath.Join(je.dir, name)
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	return serveNotebooks(t, je, root, func(server []string) *exec.Cmd {
		return exec.Command("/usr/bin/jupyter", append([]string{"notebook", "--no-browser", "--allow-root",
			"--notebook-dir=" + root, "--NotebookApp.open_browser=False"}, server...)...)
	})
}

// serveNotebooks starts the Notebook server command that command makes
// from the server's address and token arguments (serving root) on a free
// loopback port, and stops it (and so its kernels) when the test ends.
func serveNotebooks(t *testing.T, je *jupyterEnv, root string, command func(server []string) *exec.Cmd) *notebookServer {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	token := fmt.Sprintf("nsysx-test-%d", time.Now().UnixNano())
	cmd := command([]string{"--ip=127.0.0.1", fmt.Sprintf("--port=%d", port), "--port-retries=0",
		"--NotebookApp.token=" + token})
	// one writer for both streams: os/exec then never calls it concurrently
	var log strings.Builder
	cmd.Env, cmd.Stdout, cmd.Stderr = je.env, &log, &log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	base := fmt.Sprintf("http://127.0.0.1:%d", port)
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		// a clean shutdown stops the kernels too; kill only as a last resort
		req, _ := http.NewRequest("POST", base+"/api/shutdown?token="+token, nil)
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
		}
		select {
		case <-exited:
		case <-time.After(20 * time.Second):
			_ = cmd.Process.Kill()
			<-exited
			t.Errorf("notebook server did not stop:\n%s", log.String())
		}
	})
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(200 * time.Millisecond) {
		resp, err := http.Get(base + "/api/status?token=" + token)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return &notebookServer{je: je, root: root, base: base, token: token}
			}
		}
		select {
		case <-exited:
			t.Fatalf("notebook server exited:\n%s", log.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("notebook server not up after a minute:\n%s", log.String())
		}
	}
}

// TestJupyter runs the kernel under Jupyter's own clients: kernelspec
// list, jupyter_kernel_test, an interrupting jupyter_client script and
// nbconvert on the test notebook.
func TestJupyter(t *testing.T) {
	je := setupJupyter(t, []string{"/usr/bin/python3", "/usr/bin/jupyter", "/usr/bin/jupyter-kernelspec", "/usr/bin/jupyter-nbconvert"},
		[]string{"jupyter_kernel_test", "jupyter_client", "nbconvert", "nbclient"})
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
