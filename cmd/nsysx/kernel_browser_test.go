package main

import (
	"context"
	"encoding/json"
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
	"github.com/nsysx/nsysx/kernel/tests/cdp"
)

// TestNotebookBrowser runs the test notebook and every example notebook in
// the classic Notebook server through headless Chromium: the page connects
// to the kernel, runs every cell (Jupyter.notebook.execute_all_cells), and
// the outputs the page holds are checked like nbconvert's (the test
// notebook's against nsys's goldens). A screenshot of each is written to
// $NSYSX_SCREENSHOT_DIR/<notebook name>.png when set (notebooks/screenshots/
// in the repo).
func TestNotebookBrowser(t *testing.T) {
	je, root := browserJupyter(t, "nbroot")
	notebookRoot(t, root)
	names := append([]string{"test_kernel.ipynb"}, exampleNotebooks(t)...)
	for _, n := range names {
		src, err := os.ReadFile(filepath.Join(testutil.Root(), "notebooks", n))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, "notebooks", n), src, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	base, token := startNotebookServer(t, je, root)

	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
	defer cancel()
	br := startBrowser(ctx, t, je, "chrome", 1280, 3000)
	dir := os.Getenv("NSYSX_SCREENSHOT_DIR")
	if dir == "" {
		dir = je.dir
	}
	// before any run in the page saves it signed (trusted)
	checkUntrustedAlignment(ctx, t, br, base+"/notebooks/notebooks/09_tables.ipynb?token="+token)
	for _, n := range names {
		t.Run(strings.TrimSuffix(n, ".ipynb"), func(t *testing.T) {
			out := filepath.Join(je.dir, "browser-"+n)
			png := runInBrowser(ctx, t, br, base+"/notebooks/notebooks/"+n+"?token="+token, out)
			if n == "test_kernel.ipynb" {
				checkTestNotebook(t, out)
			} else {
				checkExecuted(t, out)
			}
			name := filepath.Join(dir, strings.TrimSuffix(n, ".ipynb")+".png")
			if err := os.WriteFile(name, png, 0o644); err != nil {
				t.Fatal(err)
			}
			t.Logf("screenshot: %s (%d bytes)", name, len(png))
		})
	}
}

// browserJupyter skips the test under -short or unless the classic
// Notebook server and Chromium are installed, sets up Jupyter and makes
// the directory root (the server's, named so under Jupyter's).
func browserJupyter(t *testing.T, name string) (je *jupyterEnv, root string) {
	t.Helper()
	needTools(t, []string{"/usr/bin/python3", "/usr/bin/jupyter", "/usr/bin/jupyter-notebook", "/usr/bin/chromium"},
		[]string{"notebook", "jupyter_client"})
	if testing.Short() {
		t.Skip("starts a notebook server and a browser")
	}
	je = setupJupyter(t)
	root = filepath.Join(je.dir, name)
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	return je, root
}

// startBrowser starts headless Chromium with a width×height window, its
// profile in Jupyter's directory under name; it is closed when the test
// ends.
func startBrowser(ctx context.Context, t *testing.T, je *jupyterEnv, name string, width, height int) *cdp.Browser {
	t.Helper()
	br, err := cdp.Start(ctx, "/usr/bin/chromium", filepath.Join(je.dir, name), width, height)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(br.Close)
	return br
}

// openNotebook opens a notebook in the page and waits until its kernel is
// connected.
func openNotebook(ctx context.Context, t *testing.T, br *cdp.Browser, url string) {
	t.Helper()
	if err := br.Navigate(ctx, url); err != nil {
		t.Fatal(err)
	}
	ready := "window.Jupyter && Jupyter.notebook && Jupyter.notebook.kernel && Jupyter.notebook.kernel.is_connected()"
	if err := br.WaitFor(ctx, ready, 200*time.Millisecond); err != nil {
		t.Fatal(err)
	}
}

// TestTimelineInBrowser runs `%nsys timeline` in the classic Notebook server
// through headless Chromium: the output's inline script runs with no network,
// replaces the fallback PNG with the interactive canvas, and reacts to the
// wheel (zoom) without a script error.
func TestTimelineInBrowser(t *testing.T) {
	je, root := browserJupyter(t, "tlroot")
	nb := map[string]any{
		"cells": []any{map[string]any{"cell_type": "code", "metadata": map[string]any{}, "outputs": []any{}, "execution_count": nil,
			"source": `%nsys timeline "iteration 10" ` + testutil.Profile(t, "train")}},
		"metadata": map[string]any{"kernelspec": map[string]any{"name": "nsysx", "display_name": "nsysx (Go)", "language": "go"}},
		"nbformat": 4, "nbformat_minor": 5,
	}
	b, _ := json.Marshal(nb)
	os.WriteFile(filepath.Join(root, "tl.ipynb"), b, 0o644)
	base, token := startNotebookServer(t, je, root)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	br := startBrowser(ctx, t, je, "chrome-tl", 1280, 1200)
	openNotebook(ctx, t, br, base+"/notebooks/tl.ipynb?token="+token)
	setup := "window.tlErrors = []; window.addEventListener('error', e => tlErrors.push(String(e.message))); " +
		"Jupyter.notebook.execute_all_cells(); true"
	if err := br.Eval(ctx, setup, nil); err != nil {
		t.Fatal(err)
	}
	drawn := "document.querySelectorAll('.nsysx-timeline canvas').length === 1"
	if err := br.WaitFor(ctx, drawn, 250*time.Millisecond); err != nil {
		t.Fatalf("the timeline canvas never appeared: %v", err)
	}
	check := `(function(){ var c = document.querySelector('.nsysx-timeline canvas');
	  c.dispatchEvent(new WheelEvent('wheel', {deltaY: -300, clientX: c.getBoundingClientRect().left + 600, bubbles: true, cancelable: true}));
	  return JSON.stringify({img: document.querySelectorAll('.nsysx-timeline img').length, w: c.width, h: c.height, errors: tlErrors}); })()`
	var res string
	if err := br.Eval(ctx, check, &res); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Img, W, H int
		Errors    []string
	}
	json.Unmarshal([]byte(res), &got)
	if got.Img != 0 || got.W < 600 || got.H < 200 || len(got.Errors) != 0 {
		t.Errorf("in the browser: %s", res)
	}
	if dir := os.Getenv("NSYSX_SCREENSHOT_DIR"); dir != "" {
		if png, err := br.Screenshot(ctx); err == nil {
			os.WriteFile(filepath.Join(dir, "timeline.png"), png, 0o644)
		}
	}
}

// runInBrowser opens a notebook in the page, runs all its cells, writes
// the notebook the page then holds to out and returns a screenshot of the
// page scrolled to the top.
func runInBrowser(ctx context.Context, t *testing.T, br *cdp.Browser, url, out string) []byte {
	t.Helper()
	openNotebook(ctx, t, br, url)
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
	if err := os.WriteFile(out, []byte(nbJSON), 0o644); err != nil {
		t.Fatal(err)
	}
	// save, so that leaving the page asks nothing; then the top of the page
	if err := br.Eval(ctx, "Jupyter.notebook.save_notebook(); Jupyter.notebook.scroll_to_top(0); document.activeElement.blur(); true", nil); err != nil {
		t.Fatal(err)
	}
	time.Sleep(500 * time.Millisecond)
	png, err := br.Screenshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return png
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
	// one writer for both streams: os/exec then never calls it concurrently
	var log strings.Builder
	cmd.Env, cmd.Stdout, cmd.Stderr = je.env, &log, &log
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
