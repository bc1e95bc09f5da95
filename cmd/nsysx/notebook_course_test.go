package main

import (
	"html"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/nsysx/nsysx/internal/testutil"
)

// detailsRE finds the collapsed solutions of a markdown cell.
var detailsRE = regexp.MustCompile(`(?s)<details>.*?</details>`)

// preRE finds the code block inside one: HTML <pre><code>, its lines
// indented as the list item that holds it (the indentation before <pre>).
var preRE = regexp.MustCompile(`(?s)([ \t]*)<pre><code[^>]*>(.*?)</code></pre>`)

// solutions returns the code of the <pre> blocks inside <details> in the
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
			for _, m := range preRE.FindAllStringSubmatch(d, -1) {
				lines := strings.Split(strings.TrimSuffix(strings.TrimRight(m[2], " \t"), "\n"), "\n")
				for i, l := range lines {
					lines[i] = strings.TrimPrefix(l, m[1])
				}
				out = append(out, html.UnescapeString(strings.Join(lines, "\n")))
			}
		}
	}
	return out
}

// readNotebook reads a committed notebook as generic JSON.
func readNotebook(t *testing.T, name string) map[string]any {
	t.Helper()
	var nb map[string]any
	testutil.ReadJSON(t, filepath.Join(testutil.Root(), "notebooks", name), &nb)
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

// courseRE matches the course notebooks' names: two digits, "_", a name.
var courseRE = regexp.MustCompile(`^[0-9][0-9]_.*\.ipynb$`)

// exampleNotebooks lists notebooks/NN_*.ipynb: the course, at least eleven.
func exampleNotebooks(t *testing.T) []string {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(testutil.Root(), "notebooks", "[0-9][0-9]_*.ipynb"))
	if err != nil || len(paths) < 11 {
		t.Fatalf("example notebooks: %v %v", paths, err)
	}
	var names []string
	for _, p := range paths {
		names = append(names, filepath.Base(p))
	}
	return names
}

// checkExecuted checks that every code cell of a notebook ran, has
// output and no error, that it is an nsysx notebook, and that the
// profiles it names exist in the repository; it returns the notebook.
func checkExecuted(t *testing.T, path string) notebook {
	t.Helper()
	var nb notebook
	testutil.ReadJSON(t, path, &nb)
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
