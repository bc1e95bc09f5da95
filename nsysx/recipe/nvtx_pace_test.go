package recipe

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// TestNVTXPaceGolden reproduces nvtx_pace --name forward on rank0+rank1:
// stats, every pace file, pace_delta_stats, files and the .nsys-analysis.
func TestNVTXPaceGolden(t *testing.T) {
	o := Defaults()
	o.Name = "forward"
	res := runOn(t, "nvtx_pace", o, "rank0", "rank1")
	compareWritten(t, res, "rank0+rank1", "nvtx_pace", "stats", "pace_start", "pace_end", "pace_duration",
		"pace_duration_accum", "pace_delta", "pace_delta_accum", "pace_delta_stats", "files")
}

// TestPaceNameRequired: every pace recipe refuses to run without --name,
// as a usage error.
func TestPaceNameRequired(t *testing.T) {
	for _, name := range []string{"nvtx_pace", "nvtx_gpu_proj_pace", "cuda_gpu_kern_pace"} {
		r, err := Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		o := Defaults()
		o.Input = []string{"unused.sqlite"}
		_, err = Run(context.Background(), r, o, nil)
		if !errors.Is(err, ErrUsage) || !strings.Contains(err.Error(), "--name") {
			t.Errorf("%s without --name: %v", name, err)
		}
	}
}
