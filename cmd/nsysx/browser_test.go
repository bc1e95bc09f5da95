package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nsysx/nsysx/internal/testutil"
	"github.com/nsysx/nsysx/kernel/tests/cdp"
)

// The browser tests run notebooks in the classic Notebook server through
// headless Chromium (kernel/tests/cdp drives it).

// browserJupyter skips the test under -short or unless the classic
// Notebook server and Chromium are installed, sets up Jupyter and starts
// the Notebook server on a new directory (named so under Jupyter's).
func browserJupyter(t *testing.T, name string) *notebookServer {
	t.Helper()
	je := setupJupyter(t, []string{"/usr/bin/python3", "/usr/bin/jupyter", "/usr/bin/jupyter-notebook", "/usr/bin/chromium"},
		[]string{"notebook", "jupyter_client"})
	return startNotebookServer(t, je, name)
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

// saveScreenshot writes png as name in $NSYSX_SCREENSHOT_DIR, or where
// that is not set in dir (nowhere when dir is "").
func saveScreenshot(t *testing.T, dir, name string, png []byte) {
	t.Helper()
	if d := os.Getenv("NSYSX_SCREENSHOT_DIR"); d != "" {
		dir = d
	}
	if dir == "" {
		return
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s (%d bytes)", path, len(png))
}

// TestNotebooksLanding starts the server as `make notebooks` does (as the
// user running the tests: root in CI and containers) and opens its landing
// page in headless Chromium: it loads (no "403 : Forbidden", which
// the README page under /tree gave) and lists every course notebook in course order.
func TestNotebooksLanding(t *testing.T) {
	je := setupJupyter(t, []string{"/usr/bin/python3", "/usr/bin/jupyter", "/usr/bin/jupyter-notebook", "/usr/bin/chromium", "/usr/bin/make"},
		[]string{"notebook", "jupyter_client"})
	root := testutil.Root()
	s := serveNotebooks(t, je, filepath.Join(root, "notebooks"), func(server []string) *exec.Cmd {
		return exec.Command("make", "-s", "-C", root, "notebooks", "NOTEBOOK_ARGS="+strings.Join(server, " "))
	})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	br := startBrowser(ctx, t, je, "chrome-landing", 1280, 900)
	if err := br.Navigate(ctx, s.base+"/?token="+s.token); err != nil {
		t.Fatal(err)
	}
	// the file list is drawn by the page's script once the contents API answers
	listed := "document.querySelectorAll('#notebook_list .item_link .item_name').length > 0 || document.title.indexOf('403') >= 0 || document.body.innerText.indexOf('Forbidden') >= 0"
	if err := br.WaitFor(ctx, listed, 200*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	var page struct {
		Title, Path, Text string
		Names             []string
	}
	if err := br.Eval(ctx, `({Title: document.title, Path: location.pathname, Text: document.body.innerText.slice(0, 400),
		Names: Array.from(document.querySelectorAll('#notebook_list .item_link .item_name')).map(e => e.textContent.trim())})`, &page); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(page.Title, "403") || strings.Contains(page.Text, "Forbidden") {
		t.Fatalf("the landing page %s is an error page: %q %q", page.Path, page.Title, page.Text)
	}
	var course []string
	for _, n := range page.Names {
		if courseRE.MatchString(n) {
			course = append(course, n)
		}
	}
	if want := exampleNotebooks(t); strings.Join(course, " ") != strings.Join(want, " ") {
		t.Errorf("the landing page %s (%q) lists the course notebooks %q, want %q (all listed: %q)", page.Path, page.Title, course, want, page.Names)
	}
	png, err := br.Screenshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	saveScreenshot(t, je.dir, "landing.png", png)

	// the first notebook of the course as the Notebook renders its
	// exercises: one numbered list, each item's solution a code block
	want := solutions(t, readNotebook(t, course[0]))
	openNotebook(ctx, t, br, s.url(course[0]))
	var ex struct {
		Lists int
		Pre   []string
	}
	if err := br.Eval(ctx, `(() => {
		const h = Array.from(document.querySelectorAll('.text_cell_render h2')).find(e => e.textContent.startsWith('Exercises'));
		if (!h) return {Lists: -1, Pre: []};
		const cell = h.parentElement, ols = Array.from(cell.children).filter(e => e.tagName === 'OL');
		const items = ols.length ? Array.from(ols[0].children).filter(e => e.tagName === 'LI') : [];
		return {Lists: ols.length, Pre: items.map(li => { const p = li.querySelector('details pre'); return p ? p.textContent.replace(/\n$/, '') : null; })};
	})()`, &ex); err != nil {
		t.Fatal(err)
	}
	if ex.Lists != 1 || strings.Join(ex.Pre, "\n--\n") != strings.Join(want, "\n--\n") {
		t.Errorf("%s's exercises in the Notebook: %d numbered lists, solutions\n%q\nwant 1 list and\n%q", course[0], ex.Lists, ex.Pre, want)
	}
}
