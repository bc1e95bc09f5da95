package testutil

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// ValidateNotebook validates the notebook at path against the nbformat
// schema with Debian's python3-nbformat; without it the validation is
// skipped (and logged), unless CI is set.
func ValidateNotebook(t testing.TB, path string) {
	t.Helper()
	if !pythonHas("nbformat") {
		if CI() {
			t.Fatalf("CI is set and python3-nbformat is missing (scripts/install-test-deps.sh)")
		}
		t.Logf("nbformat validation of %s skipped: no python3-nbformat", filepath.Base(path))
		return
	}
	out, err := exec.Command("/usr/bin/python3", "-c", "import sys, nbformat; nbformat.validate(nbformat.read(sys.argv[1], as_version=4)); print('valid')", path).CombinedOutput()
	if err != nil || strings.TrimSpace(string(out)) != "valid" {
		t.Errorf("%s: nbformat: %v\n%s", filepath.Base(path), err, out)
	}
}
