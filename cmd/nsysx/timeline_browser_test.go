package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/nsysx/nsysx/internal/testutil"
)

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
