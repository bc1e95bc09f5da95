package nsysxengine

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/nsysx/nsysx/internal/testutil"
)

// The idle breakdown and the kernel stacks in cells: reports through
// %nsys stats, charts through %plot, the pprof file through %nsys export.
func TestMagicIdleAndStacks(t *testing.T) {
	e := newEngine(t)
	cell(t, e, "%open "+gz("sync"))
	cell(t, e, "%open "+gz("bt"))
	for _, code := range []string{"%nsys stats -r gpu_idle_breakdown sync", "%nsys stats -r gpu_idle_breakdown:view=evidence sync",
		"%nsys stats -r cuda_kern_stack_sum:noruntime:foldpy bt"} {
		r := cell(t, e, code)
		if len(r.Displays) == 0 || r.Displays[len(r.Displays)-1].Data[ResultMIME] == nil {
			t.Errorf("%s: no result table (%d displays)", code, len(r.Displays))
		}
	}
	for _, code := range []string{"%plot idle sync", "%plot stacks bt"} {
		r := cell(t, e, code)
		if len(r.Displays) != 1 || r.Displays[0].Data["image/png"] == nil {
			t.Errorf("%s: %d displays", code, len(r.Displays))
		}
	}
	base := filepath.Join(t.TempDir(), "bt")
	cell(t, e, "%nsys export -t pprof -o "+base+" bt")
	if prof := testutil.ReadPprof(t, base+".pb.gz"); prof.DefaultSampleType != "gpu_time" {
		t.Errorf("pprof file: sample type %q, want gpu_time", prof.DefaultSampleType)
	}
	if r := cell(t, e, "%nsys export -t pprof -o "+base+"2 sync"); !strings.Contains(r.Out.String(), "SKIPPED: ") {
		t.Errorf("no stacks: %q", r.Out.String())
	}
}
