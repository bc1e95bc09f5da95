package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/html"

	"github.com/nsysx/nsysx/internal/testutil"
)

// TestExercisesHTML converts the course notebooks to HTML with nbconvert
// (the executed introduction is the Quick start's deliverable) and checks
// each notebook's exercises as they render: one numbered list with an item
// per exercise, each holding its collapsed solution (<details>) as a code
// block whose text, line breaks included, is the solution's code, and no
// literal ``` fence left in the text.
func TestExercisesHTML(t *testing.T) {
	testutil.NeedTools(t, []string{"/usr/bin/python3", "/usr/bin/jupyter", "/usr/bin/jupyter-nbconvert"}, []string{"nbconvert"})
	dir := t.TempDir()
	names := exampleNotebooks(t)
	args := []string{"nbconvert", "--to", "html", "--output-dir", dir}
	for _, n := range names {
		args = append(args, filepath.Join(testutil.Root(), "notebooks", n))
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "/usr/bin/jupyter", args...)
	cmd.Env = append(os.Environ(), "HOME="+filepath.Join(dir, "home"), "JUPYTER_CONFIG_DIR="+filepath.Join(dir, "config"),
		"JUPYTER_DATA_DIR="+filepath.Join(dir, "data"), "PYDEVD_DISABLE_FILE_VALIDATION=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("nbconvert: %v\n%s", err, out)
	}
	for _, n := range names {
		t.Run(strings.TrimSuffix(n, ".ipynb"), func(t *testing.T) {
			want := solutions(t, readNotebook(t, n))
			b, err := os.ReadFile(filepath.Join(dir, strings.TrimSuffix(n, ".ipynb")+".html"))
			if err != nil {
				t.Fatal(err)
			}
			doc, err := html.Parse(bytes.NewReader(b))
			if err != nil {
				t.Fatal(err)
			}
			checkExercisesHTML(t, doc, want)
		})
	}
}

// checkExercisesHTML checks the rendered cell whose heading is "Exercises".
func checkExercisesHTML(t *testing.T, doc *html.Node, want []string) {
	t.Helper()
	h := find(doc, func(n *html.Node) bool { return n.Data == "h2" && strings.HasPrefix(text(n), "Exercises") })
	if h == nil {
		t.Fatal("no Exercises heading")
	}
	cell := h.Parent
	if txt := text(cell); strings.Contains(txt, "```") {
		t.Errorf("literal ``` in the rendered exercises:\n%s", txt)
	}
	var lists []*html.Node
	for c := cell.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && c.Data == "ol" {
			lists = append(lists, c)
		}
	}
	if len(lists) != 1 {
		t.Fatalf("%d numbered lists in the exercises, want 1 (each <ol> restarts at 1)", len(lists))
	}
	var items []*html.Node
	for c := lists[0].FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && c.Data == "li" {
			items = append(items, c)
		}
	}
	if len(items) != len(want) {
		t.Fatalf("%d list items, want one per solution (%d)", len(items), len(want))
	}
	for i, li := range items {
		d := find(li, func(n *html.Node) bool { return n.Data == "details" })
		var pre *html.Node
		if d != nil {
			pre = find(d, func(n *html.Node) bool { return n.Data == "pre" })
		}
		if pre == nil {
			t.Errorf("exercise %d: no <details> with a <pre> code block", i+1)
			continue
		}
		if got := strings.TrimSuffix(text(pre), "\n"); got != want[i] {
			t.Errorf("exercise %d: the code block reads\n%s\nwant\n%s", i+1, got, want[i])
		}
	}
}

// find returns the first element under n (n included) that ok accepts.
func find(n *html.Node, ok func(*html.Node) bool) *html.Node {
	if n.Type == html.ElementNode && ok(n) {
		return n
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if f := find(c, ok); f != nil {
			return f
		}
	}
	return nil
}

// text is the text content of n.
func text(n *html.Node) string {
	var b strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return b.String()
}
