package testutil

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// InstallHint says how to install the outside tools the tests use.
const InstallHint = "install them with `sudo make deps` (scripts/install-test-deps.sh: Debian's jupyter packages and chromium)"

// CI reports whether CI is set: there every outside tool a test uses is
// installed, so a missing one fails the test instead of skipping it.
func CI() bool { return os.Getenv("CI") != "" }

// Missing skips the test for want of what (a tool, a module), or fails
// it when CI is set.
func Missing(t testing.TB, what string) {
	t.Helper()
	if CI() {
		t.Fatalf("CI is set and %s missing; %s", what, InstallHint)
	}
	t.Skipf("needs %s; %s", what, InstallHint)
}

// NeedTools checks that the files (executables) exist and that
// /usr/bin/python3 imports the modules; what lacks is Missing.
func NeedTools(t testing.TB, files []string, modules []string) {
	t.Helper()
	var missing []string
	for _, f := range files {
		if _, err := os.Stat(f); err != nil {
			missing = append(missing, f)
		}
	}
	if len(modules) > 0 {
		if _, err := os.Stat("/usr/bin/python3"); err == nil {
			for _, m := range modules {
				if !pythonHas(m) {
					missing = append(missing, "python module "+m)
				}
			}
		}
	}
	if len(missing) > 0 {
		Missing(t, strings.Join(missing, ", "))
	}
}

// pythonHas reports whether /usr/bin/python3 imports module.
func pythonHas(module string) bool {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	return exec.CommandContext(ctx, "/usr/bin/python3", "-c", "import "+module).Run() == nil
}
