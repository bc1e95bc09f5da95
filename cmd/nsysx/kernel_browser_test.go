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
	"sync"
	"testing"
	"time"

	"github.com/nsysx/nsysx/internal/testutil"
	"github.com/nsysx/nsysx/kernel/tests/cdp"
)

// TestNotebookBrowser runs the test notebook in the classic Notebook
// server through headless Chromium: the page connects to the kernel, runs
// every cell (Jupyter.notebook.execute_all_cells), and the outputs the
// page holds are checked like nbconvert's. The screenshot is written to
// $NSYSX_SCREENSHOT_DIR when set (notebooks/screenshots/ in the repo).
func TestNotebookBrowser(t *testing.T) {
	needTools(t, []string{"/usr/bin/python3", "/usr/bin/jupyter", "/usr/bin/jupyter-notebook", "/usr/bin/chromium"},
		[]string{"notebook", "jupyter_client"})
	if testing.Short() {
		t.Skip("starts a notebook server and a browser")
	}
	je := setupJupyter(t)
	root := filepath.Join(je.dir, "nbroot")
	if err := os.MkdirAll(filepath.Join(root, "notebooks"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(testutil.Root(), "testdata"), filepath.Join(root, "testdata")); err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(filepath.Join(testutil.Root(), "notebooks", "test_kernel.ipynb"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "notebooks", "test_kernel.ipynb"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	tables, err := os.ReadFile(filepath.Join(testutil.Root(), "notebooks", "06_tables.ipynb"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "notebooks", "06_tables.ipynb"), tables, 0o644); err != nil {
		t.Fatal(err)
	}
	base, token := startNotebookServer(t, je, root)

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	br, err := cdp.Start(ctx, "/usr/bin/chromium", filepath.Join(je.dir, "chrome"), 1280, 3000)
	if err != nil {
		t.Fatal(err)
	}
	defer br.Close()
	if err := br.Navigate(ctx, base+"/notebooks/notebooks/test_kernel.ipynb?token="+token); err != nil {
		t.Fatal(err)
	}
	ready := "window.Jupyter && Jupyter.notebook && Jupyter.notebook.kernel && Jupyter.notebook.kernel.is_connected()"
	if err := br.WaitFor(ctx, ready, 200*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	if err := br.Eval(ctx, "Jupyter.notebook.clear_all_output(); Jupyter.notebook.execute_all_cells(); true", nil); err != nil {
		t.Fatal(err)
	}
	done := "Jupyter.notebook.get_cells().every(c => c.cell_type !== 'code' || typeof c.input_prompt_number === 'number')"
	if err := br.WaitFor(ctx, done, 250*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	time.Sleep(time.Second) // let the last outputs render
	var nbJSON string
	if err := br.Eval(ctx, "JSON.stringify(Jupyter.notebook.toJSON())", &nbJSON); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(je.dir, "browser.ipynb")
	if err := os.WriteFile(out, []byte(nbJSON), 0o644); err != nil {
		t.Fatal(err)
	}
	checkTestNotebook(t, out)
	if err := br.Eval(ctx, "Jupyter.notebook.scroll_to_top(0); document.activeElement.blur(); true", nil); err != nil {
		t.Fatal(err)
	}
	png, err := br.Screenshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	dir := os.Getenv("NSYSX_SCREENSHOT_DIR")
	if dir == "" {
		dir = je.dir
	}
	name := filepath.Join(dir, "test_kernel.png")
	if err := os.WriteFile(name, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s (%d bytes)", name, len(png))
	checkUntrustedAlignment(ctx, t, br, base+"/notebooks/notebooks/06_tables.ipynb?token="+token)
}

// checkUntrustedAlignment opens an executed notebook that is not signed
// (so untrusted: the Notebook drops inline styles from its outputs) and
// checks that the text columns of its first table are still left-aligned
// and the numbers right-aligned (the Notebook's stylesheet right-aligns
// every cell).
func checkUntrustedAlignment(ctx context.Context, t *testing.T, br *cdp.Browser, url string) {
	t.Helper()
	if err := br.Navigate(ctx, url); err != nil {
		t.Fatal(err)
	}
	if err := br.WaitFor(ctx, "window.Jupyter && Jupyter.notebook && document.querySelector('.nsysx-table tbody tr')", 200*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	// Where this Notebook keeps style attributes, drop them as a stricter
	// sanitizer does (the classic Notebook); "bare" is how the
	// stylesheet aligns the cells themselves, which shows the check matters.
	js := `(() => {
		const trusted = Jupyter.notebook.trusted;
		document.querySelectorAll('.nsysx-table [style]').forEach(e => e.removeAttribute('style'));
		const tds = [...document.querySelector('.nsysx-table tbody tr').querySelectorAll('td')];
		return JSON.stringify({trusted,
			align: tds.map(td => getComputedStyle(td.firstElementChild || td).textAlign),
			bare: tds.map(td => getComputedStyle(td).textAlign)});
	})()`
	var got string
	if err := br.Eval(ctx, js, &got); err != nil {
		t.Fatal(err)
	}
	// 06_tables' first table is k.Schema(): Column, Unit, Type (text), Non-Null (a count)
	if !strings.HasPrefix(got, `{"trusted":false,"align":["left","left","left","right"]`) {
		t.Errorf("untrusted notebook without inline styles: %s, want the three text columns left-aligned and the count right-aligned", got)
	}
	t.Logf("untrusted notebook without inline styles: %s", got)
}

// startNotebookServer starts `jupyter notebook` on a free loopback port
// with a token, and stops it (and so its kernels) when the test ends.
func startNotebookServer(t *testing.T, je *jupyterEnv, root string) (base, token string) {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	token = fmt.Sprintf("nsysx-test-%d", time.Now().UnixNano())
	cmd := exec.Command("/usr/bin/jupyter", "notebook", "--no-browser", "--allow-root", "--ip=127.0.0.1",
		fmt.Sprintf("--port=%d", port), "--port-retries=0", "--NotebookApp.token="+token,
		"--notebook-dir="+root, "--NotebookApp.open_browser=False")
	var log strings.Builder
	cmd.Env, cmd.Stdout, cmd.Stderr = je.env, &lockedBuilder{b: &log}, &lockedBuilder{b: &log}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	base = fmt.Sprintf("http://127.0.0.1:%d", port)
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
				return base, token
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

// lockedBuilder is a strings.Builder safe for the two output streams.
type lockedBuilder struct {
	mu sync.Mutex
	b  *strings.Builder
}

func (l *lockedBuilder) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}
