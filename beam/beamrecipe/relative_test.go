package beamrecipe

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/nsysx/nsysx/internal/testutil"
)

// A relative --input is opened relative to the launcher's working
// directory, whatever the worker's own (here: another directory).
func TestRelativeInputFromLauncherDir(t *testing.T) {
	launcher := t.TempDir()
	if err := os.Symlink(testutil.Profile(t, "sync"), filepath.Join(launcher, "sync.sqlite")); err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir()) // the worker's working directory
	p, err := opener(false, t.TempDir(), launcher)(context.Background(), "sync.sqlite")
	if err != nil {
		t.Fatalf("relative input: %v", err)
	}
	p.Close()
	if _, err := opener(false, t.TempDir(), launcher)(context.Background(), "missing.sqlite"); err == nil {
		t.Error("a missing relative input opened")
	}
}

// The outcome of a run with a local --output is recorded beside the output
// (its parent directory, relative to the launcher's working directory), on
// the filesystem the worker writing the output reaches, and removed after.
func TestStatusBesideOutput(t *testing.T) {
	wd := t.TempDir()
	if err := os.Mkdir(filepath.Join(wd, "rec"), 0o755); err != nil {
		t.Fatal(err)
	}
	for out, dir := range map[string]string{"rec/kern": filepath.Join(wd, "rec"), "": wd, filepath.Join(wd, "abs"): wd} {
		p, cleanup, err := statusPath(out, wd)
		if err != nil || filepath.Dir(p) != dir {
			t.Errorf("--output %q: status %s (%v), want it in %s", out, p, err, dir)
			continue
		}
		if err := os.WriteFile(p, []byte("{}"), 0o644); err != nil {
			t.Fatal(err)
		}
		cleanup()
		if _, err := os.Stat(p); err == nil {
			t.Errorf("--output %q: %s left behind", out, p)
		}
	}
}
