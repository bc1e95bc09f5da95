package testutil

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// NodeCheck finds node and tools/<name> (npm-check, vega-check) with the
// given npm packages installed (skipping the test without them, or failing
// it when CI is set) and returns a runner: it runs the tool's check.mjs on
// files and decodes its JSON output, numbers as json.Number, into out.
func NodeCheck(t testing.TB, name string, packages ...string) func(files []string, out any) {
	t.Helper()
	tool := filepath.Join(Root(), "tools", name)
	node, err := exec.LookPath("node")
	for _, p := range packages {
		if err == nil {
			_, err = os.Stat(filepath.Join(tool, "node_modules", p))
		}
	}
	if err != nil {
		msg := "node or tools/" + name + "/node_modules missing (" + err.Error() + "): run `npm ci --prefix tools/" + name + "`"
		if os.Getenv("CI") != "" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return func(files []string, out any) {
		t.Helper()
		cmd := exec.Command(node, append([]string{filepath.Join(tool, "check.mjs")}, files...)...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		stdout, err := cmd.Output()
		if err != nil {
			t.Fatalf("%s: %v: %s", name, err, stderr.String())
		}
		dec := json.NewDecoder(bytes.NewReader(stdout))
		dec.UseNumber()
		if err := dec.Decode(out); err != nil {
			t.Fatalf("%s output: %v\n%.500s", name, err, stdout)
		}
	}
}

// NPMCheckFile is what tools/npm-check/check.mjs prints per file it reads.
type NPMCheckFile struct {
	File     string
	Reader   string
	Rows     int
	Columns  []struct{ Name, Type string }
	Metadata map[string]string
	Data     [][]any
}
