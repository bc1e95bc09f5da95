package testutil

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// NPMCheck finds node and tools/npm-check with the given npm packages
// installed (skipping the test without them, or failing it when CI is set)
// and returns a runner: it runs check.mjs on files and decodes its JSON
// output, numbers as json.Number, into out.
func NPMCheck(t testing.TB, packages ...string) func(files []string, out any) {
	t.Helper()
	tool := filepath.Join(Root(), "tools", "npm-check")
	node, err := exec.LookPath("node")
	for _, p := range packages {
		if err == nil {
			_, err = os.Stat(filepath.Join(tool, "node_modules", p))
		}
	}
	if err != nil {
		msg := "node or tools/npm-check/node_modules missing (" + err.Error() + "): run `npm ci --prefix tools/npm-check`"
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
			t.Fatalf("check.mjs: %v: %s", err, stderr.String())
		}
		dec := json.NewDecoder(bytes.NewReader(stdout))
		dec.UseNumber()
		if err := dec.Decode(out); err != nil {
			t.Fatalf("check.mjs output: %v\n%s", err, stdout)
		}
	}
}
