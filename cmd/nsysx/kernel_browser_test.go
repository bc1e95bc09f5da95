package main

import (
	"context"
	"encoding/json"
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
	s := browserJupyter(t, "nbroot")
	names := append([]string{"test_kernel.ipynb"}, exampleNotebooks(t)...)
	notebookRoot(t, s.root, names...)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
	defer cancel()
	br := startBrowser(ctx, t, s.je, "chrome", 1280, 3000)
	// before any run in the page saves it signed (trusted)
	checkUntrustedAlignment(ctx, t, br, s.url("notebooks/09_tables.ipynb"))
	for _, n := range names {
		t.Run(strings.TrimSuffix(n, ".ipynb"), func(t *testing.T) {
			out := filepath.Join(s.je.dir, "browser-"+n)
			png := runInBrowser(ctx, t, br, s.url("notebooks/"+n), out)
			if n == "test_kernel.ipynb" {
				checkTestNotebook(t, out)
			} else {
				checkExecuted(t, out)
			}
			saveScreenshot(t, s.je.dir, strings.TrimSuffix(n, ".ipynb")+".png", png)
		})
	}
}

// TestTimelineInBrowser runs `%nsys timeline` in the classic Notebook server
// through headless Chromium: the output's inline script runs with no network,
// replaces the fallback PNG with the interactive canvas, and reacts to the
// wheel (zoom) without a script error.
func TestTimelineInBrowser(t *testing.T) {
	s := browserJupyter(t, "tlroot")
	nb := map[string]any{
		"cells": []any{map[string]any{"cell_type": "code", "metadata": map[string]any{}, "outputs": []any{}, "execution_count": nil,
			"source": `%nsys timeline "iteration 10" ` + testutil.Profile(t, "train")}},
		"metadata": map[string]any{"kernelspec": map[string]any{"name": "nsysx", "display_name": "nsysx (Go)", "language": "go"}},
		"nbformat": 4, "nbformat_minor": 5,
	}
	writeNotebook(t, filepath.Join(s.root, "tl.ipynb"), nb)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	br := startBrowser(ctx, t, s.je, "chrome-tl", 1280, 1200)
	openNotebook(ctx, t, br, s.url("tl.ipynb"))
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
	if png, err := br.Screenshot(ctx); err == nil {
		saveScreenshot(t, "", "timeline.png", png)
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
