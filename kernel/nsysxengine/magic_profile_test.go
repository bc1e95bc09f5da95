package nsysxengine

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/nsysx/nsysx/internal/testutil"
)

func TestMagicNsysProfile(t *testing.T) {
	testutil.FakeProfiler(t, testutil.Profile(t, "sync"))
	dir := t.TempDir()
	e := newEngine(t)
	rep := filepath.Join(dir, "run1")
	r := cell(t, e, "%nsys profile -t cuda -o "+rep+" -- echo training step")
	if out := r.Out.String(); !strings.Contains(out, "training step") || !strings.Contains(out, "Generated:") {
		t.Fatalf("streamed output %q", out)
	}
	if len(r.Displays) != 1 || !strings.HasPrefix(r.Displays[0].Data["text/plain"].(string), "run1 = ") {
		t.Fatalf("displays %v", r.Displays)
	}
	// the recorded profile is the session's: bound as run1 and used by %nsys without FILE
	if got := cell(t, e, "run1.Base()").result(t)["text/plain"]; got != "run1" {
		t.Errorf("bound variable: %v", got)
	}
	k := cell(t, e, "%nsys stats -r cuda_gpu_kern_sum")
	if len(k.Displays) == 0 {
		t.Errorf("no table from the recorded profile")
	}
}

func TestMagicNsysProfileWithoutNsys(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	e := newEngine(t)
	r := cell(t, e, "%nsys profile -- python3 train.py") // not an error: the notebook goes on
	if out := r.Out.String(); !strings.Contains(out, "not on PATH") || !strings.Contains(out, "install Nsight Systems") {
		t.Fatalf("output %q", out)
	}
	if _, err := tryCell(t, e, "%nsys profile -t cuda"); errName(err) != "UsageError" {
		t.Errorf("no command: %v", err)
	}
}
