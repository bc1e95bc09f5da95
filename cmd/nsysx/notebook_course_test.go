package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/nsysx/nsysx/internal/testutil"
)

// detailsRE finds the collapsed solutions of a markdown cell.
var detailsRE = regexp.MustCompile(`(?s)<details>.*?</details>`)

// fenceRE finds the fenced code blocks inside one.
var fenceRE = regexp.MustCompile("(?s)```[a-z]*\n(.*?)\n```")

// solutions returns the code of the fenced blocks inside <details> in the
// notebook's markdown cells, in order.
func solutions(t *testing.T, nb map[string]any) []string {
	t.Helper()
	var out []string
	cells, _ := nb["cells"].([]any)
	for _, c := range cells {
		cell, _ := c.(map[string]any)
		if cell["cell_type"] != "markdown" {
			continue
		}
		for _, d := range detailsRE.FindAllString(joinText(cell["source"]), -1) {
			for _, m := range fenceRE.FindAllStringSubmatch(d, -1) {
				out = append(out, m[1])
			}
		}
	}
	return out
}

// readNotebook reads a committed notebook as generic JSON.
func readNotebook(t *testing.T, name string) map[string]any {
	t.Helper()
	var nb map[string]any
	readJSON(t, filepath.Join(testutil.Root(), "notebooks", name), &nb)
	return nb
}

// TestCourse checks the workshop course as committed: every notebook has
// exercises with collapsed solutions, README.md lists every notebook in
// the folder in the order of their names, and each notebook has a
// screenshot.
func TestCourse(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join(testutil.Root(), "notebooks", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	last := -1
	for _, n := range exampleNotebooks(t) {
		if k := len(solutions(t, readNotebook(t, n))); k == 0 {
			t.Errorf("%s: no exercise with a collapsed <details> solution", n)
		}
		i := strings.Index(string(readme), "`"+n+"`")
		if i < 0 {
			t.Errorf("README.md does not list %s", n)
		} else if i < last {
			t.Errorf("README.md lists %s out of order", n)
		} else {
			last = i
		}
		png := filepath.Join(testutil.Root(), "notebooks", "screenshots", strings.TrimSuffix(n, ".ipynb")+".png")
		if fi, err := os.Stat(png); err != nil || fi.Size() < 10000 {
			t.Errorf("%s: no screenshot (%v)", n, err)
		}
	}
}
