package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/nsysx/nsysx/internal/testutil"
)

// notebookRoot makes the directory root/notebooks with copies of the
// repository's notebooks of the given names, and root/testdata a link to
// the repository's, so that the notebooks' ../testdata paths work.
func notebookRoot(t *testing.T, root string, copies ...string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(root, "notebooks"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(testutil.Root(), "testdata"), filepath.Join(root, "testdata")); err != nil {
		t.Fatal(err)
	}
	for _, n := range copies {
		src, err := os.ReadFile(filepath.Join(testutil.Root(), "notebooks", n))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, "notebooks", n), src, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// writeSolutionNotebooks writes, under root/notebooks (root/testdata links
// to the repository's), each example notebook with its outputs cleared and
// its solutions appended as code cells; it returns their names.
func writeSolutionNotebooks(t *testing.T, root string) []string {
	t.Helper()
	notebookRoot(t, root)
	var names []string
	for _, n := range exampleNotebooks(t) {
		nb := readNotebook(t, n)
		cells, _ := nb["cells"].([]any)
		for _, c := range cells {
			if cell, _ := c.(map[string]any); cell["cell_type"] == "code" {
				cell["outputs"], cell["execution_count"] = []any{}, nil
			}
		}
		for i, code := range solutions(t, nb) {
			cells = append(cells, map[string]any{"cell_type": "code", "metadata": map[string]any{}, "outputs": []any{},
				"execution_count": nil, "source": code, "id": "solution-" + string(rune('a'+i))})
		}
		nb["cells"] = cells
		writeNotebook(t, filepath.Join(root, "notebooks", n), nb)
		names = append(names, n)
	}
	return names
}

// writeNotebook writes the notebook nb as JSON to path.
func writeNotebook(t *testing.T, path string, nb any) {
	t.Helper()
	b, err := json.Marshal(nb)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}
