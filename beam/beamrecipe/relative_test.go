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
