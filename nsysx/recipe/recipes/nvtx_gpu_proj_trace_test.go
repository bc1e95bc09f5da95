package recipes

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/nsysx/nsysx/internal/pqcompare"
	"github.com/nsysx/nsysx/internal/testutil"
	"github.com/nsysx/nsysx/nsysx/recipe"
	"github.com/nsysx/nsysx/nsysx/recipe/composite"
	"github.com/nsysx/nsysx/nsysx/recipe/pyframe"
)

// TestNVTXGPUProjTraceGolden reproduces nvtx_gpu_proj_trace on
// rank0+rank1: trace (680 rows), files and the .nsys-analysis.
func TestNVTXGPUProjTraceGolden(t *testing.T) {
	res := runOn(t, "nvtx_gpu_proj_trace", recipe.Defaults(), "rank0", "rank1")
	compareWritten(t, res, "rank0+rank1", "nvtx_gpu_proj_trace", "trace", "files")
}

// TestNVTXGPUProjTracePerGPU: each rank of rank0+rank1 runs on one GPU, so
// the per-GPU trace is nsys's trace with a Device ID column (that rank's
// device) before Rank.
func TestNVTXGPUProjTracePerGPU(t *testing.T) {
	o := recipe.Defaults()
	o.PerGPU = true
	f := runOn(t, "nvtx_gpu_proj_trace", o, "rank0", "rank1").Output.Table("trace")
	want := []string{"Text", "Start", "End", "PID", "TID", "Stack Level", "Children Count", "Range ID", "Parent ID",
		"Range Stack", "Device ID", "Rank", pyframe.LevelIndexName}
	if !slices.Equal(f.Names(), want) {
		t.Fatalf("columns %v", f.Names())
	}
	dev := f.Find("Device ID")
	for i, r := range f.Find("Rank").IntVals {
		if dev.Type != pyframe.Int64 || dev.IntVals[i] != r { // rank0 ran on GPU 0, rank1 on GPU 1; int64 as nsys writes it
			t.Fatalf("row %d: Device ID %d (%v), rank %d", i, dev.IntVals[i], dev.Type, r)
		}
	}
	rest := *f
	rest.Cols = slices.DeleteFunc(slices.Clone(f.Cols), func(c *pyframe.Column) bool { return c.Name == "Device ID" })
	path := filepath.Join(t.TempDir(), "trace.parquet")
	out, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := pyframe.WriteParquet(struct{ io.Writer }{out}, &rest); err != nil { // WriteParquet would close a Closer
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
	if err := pqcompare.Files(filepath.Join(goldenDir("rank0+rank1", "nvtx_gpu_proj_trace"), "trace.parquet"), path); err != nil {
		t.Error(err)
	}
}

// TestNVTXGPUProjTracePerStream checks invariants of the per-stream
// projection on real profiles: for every NVTX range, the span over its per-stream
// rows is its unsplit projection and each (range, stream) appears once.
func TestNVTXGPUProjTracePerStream(t *testing.T) {
	for _, prof := range []string{"rank0", "train", "sync"} {
		t.Run(prof, func(t *testing.T) { checkPerStream(t, prof) })
	}
}

func checkPerStream(t *testing.T, prof string) {
	p := openProfile(t, prof)
	ctx := context.Background()
	nv, err := composite.LoadNVTX(ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	src := projSource{nv: nv, filter: nv, graphs: true, hier: true}
	whole, err := projectReport(ctx, p, recipe.Defaults(), src)
	if err != nil {
		t.Fatal(err)
	}
	src.keys = func(c *cudaRows) [][]int64 { return [][]int64{c.Device, c.Stream} }
	split, err := projectReport(ctx, p, recipe.Defaults(), src)
	if err != nil {
		t.Fatal(err)
	}
	type span struct{ s, e int64 }
	union := map[int]span{}
	seen := map[[2]int64]bool{}
	for i, r := range split.NVTXRow {
		k := [2]int64{int64(r), split.Keys[1][i]}
		if seen[k] {
			t.Fatalf("range %d has two rows on stream %d", r, k[1])
		}
		seen[k] = true
		u, ok := union[r]
		if !ok {
			u = span{split.Start[i], split.End[i]}
		}
		union[r] = span{min(u.s, split.Start[i]), max(u.e, split.End[i])}
	}
	t.Logf("%d ranges, %d per-stream rows", whole.Len(), split.Len())
	if len(union) != whole.Len() || split.Len() < whole.Len() {
		t.Fatalf("%d ranges split into %d rows, unsplit %d", len(union), split.Len(), whole.Len())
	}
	for i, r := range whole.NVTXRow {
		if u := union[r]; u != (span{whole.Start[i], whole.End[i]}) {
			t.Fatalf("range %d: per-stream span %v, unsplit [%d,%d]", r, u, whole.Start[i], whole.End[i])
		}
	}
}

// BenchmarkNVTXGPUProjTrace runs nvtx_gpu_proj_trace on train (54 402 NVTX
// rows, 12 084 CUDA calls).
func BenchmarkNVTXGPUProjTrace(b *testing.B) {
	r, err := recipe.Lookup("nvtx_gpu_proj_trace")
	if err != nil {
		b.Fatal(err)
	}
	o := recipe.Defaults()
	o.Input = []string{testutil.Profile(b, "train")}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := recipe.Run(context.Background(), r, o, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// TestNVTXGPUProjTraceGraphs runs the trace on a hand-made export with
// CUDA graphs (testdata/fixtures/make_recipe_graph_fixture.py). By hand:
// "outer" widens over everything on streams 3 and 4; "inst" widens over
// the instantiated nodes and "launch" over the launch's kernels and its
// graph-trace row; "build" is innermost, so each GPU op of its graph
// originals is a row of its own (node 101 twice: through its instantiated
// copy and through the parameter update). Rows sort by (start ↑, end ↓,
// NVTX row ↑), then the stack walk nests them.
func TestNVTXGPUProjTraceGraphs(t *testing.T) {
	o := recipe.Defaults()
	o.Input = []string{filepath.Join(testutil.Root(), "testdata", "fixtures", "recipe_graph.sqlite")}
	r, err := recipe.Lookup("nvtx_gpu_proj_trace")
	if err != nil {
		t.Fatal(err)
	}
	o.Strict = true
	res, err := recipe.Run(context.Background(), r, o, nil)
	if err != nil {
		t.Fatal(err)
	}
	f := res.Output.Table("trace")
	want := map[string]string{
		"Text":           "[outer inst launch build build build]",
		"Start":          "[1000 1000 1000 1000 1100 1100]",
		"End":            "[2100 1200 1200 1100 1200 1200]",
		"Range ID":       "[0 1 2 3 4 5]",
		"Stack Level":    "[0 1 2 3 3 4]",
		"Children Count": "[1 1 2 0 1 0]",
		"Parent ID":      "[<nil> 0 1 2 2 4]",
		"Range Stack":    "[[0] [0 1] [0 1 2] [0 1 2 3] [0 1 2 4] [0 1 2 4 5]]",
		"PID":            "[10 10 10 10 10 10]",
		"TID":            "[11 11 11 11 11 11]",
	}
	for name, w := range want {
		c := f.Find(name)
		var got string
		if c.Type == pyframe.ListInt64 {
			got = fmt.Sprint(c.Lists)
		} else {
			var vals []any
			for i := 0; i < f.Rows(); i++ {
				vals = append(vals, frameValue(c, i))
			}
			got = fmt.Sprint(vals)
		}
		if got != w {
			t.Errorf("%s = %v, want %s", name, got, w)
		}
	}
}
