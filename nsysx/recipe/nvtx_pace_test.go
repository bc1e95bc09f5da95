package recipe

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

// TestNVTXPaceGolden reproduces nvtx_pace --name forward on rank0+rank1.
func TestNVTXPaceGolden(t *testing.T) {
	o := Defaults()
	o.Name = "forward"
	res := runOn(t, "nvtx_pace", o, "rank0", "rank1")
	dir := goldenDir("rank0+rank1", "nvtx_pace")
	for _, tb := range []string{"stats", "pace_start", "pace_end", "pace_duration", "pace_duration_accum",
		"pace_delta", "pace_delta_accum", "pace_delta_stats", "files"} {
		compareGolden(t, filepath.Join(dir, tb+".parquet"), res.Output.Table(tb))
	}
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
