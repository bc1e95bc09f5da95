package recipe

import (
	"context"
	"slices"

	"github.com/nsysx/nsysx/internal/testutil"
	"path/filepath"
	"testing"
)

// TestNVTXGPUProjTraceGolden reproduces nvtx_gpu_proj_trace on
// rank0+rank1: trace (680 rows) and files.
func TestNVTXGPUProjTraceGolden(t *testing.T) {
	res := runOn(t, "nvtx_gpu_proj_trace", Defaults(), "rank0", "rank1")
	dir := goldenDir("rank0+rank1", "nvtx_gpu_proj_trace")
	for _, tb := range []string{"trace", "files"} {
		compareGolden(t, filepath.Join(dir, tb+".parquet"), res.Output.Table(tb))
	}
}

// TestNVTXGPUProjTracePerGPU: each rank of rank0+rank1 runs on one GPU, so
// the per-GPU trace is nsys's trace with a Device ID column (that rank's
// device) before Rank.
func TestNVTXGPUProjTracePerGPU(t *testing.T) {
	o := Defaults()
	o.PerGPU = true
	f := runOn(t, "nvtx_gpu_proj_trace", o, "rank0", "rank1").Output.Table("trace")
	gold := goldenTrace(t)
	want := []string{"Text", "Start", "End", "PID", "TID", "Stack Level", "Children Count", "Range ID", "Parent ID",
		"Range Stack", "Device ID", "Rank", LevelIndexName}
	if !slices.Equal(f.Names(), want) {
		t.Fatalf("columns %v", f.Names())
	}
	for _, name := range want {
		if name == "Device ID" {
			continue
		}
		c := f.Col(name)
		if c.Len() != len(gold[name]) {
			t.Fatalf("%s: %d rows, golden %d", name, c.Len(), len(gold[name]))
		}
		for i, g := range gold[name] {
			if v := frameValue(c, i); v != g {
				t.Fatalf("%s[%d] = %v, golden %v", name, i, v, g)
			}
		}
	}
	dev := f.Col("Device ID")
	for i, r := range f.Col("Rank").Ints {
		if dev.Kind != Uint32 || dev.Ints[i] != r { // rank0 ran on GPU 0, rank1 on GPU 1
			t.Fatalf("row %d: Device ID %d (%v), rank %d", i, dev.Ints[i], dev.Kind, r)
		}
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
	nv, err := LoadNVTX(ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	src := projSource{nv: nv, filter: nv, graphs: true, hier: true}
	whole, err := projectReport(ctx, p, Defaults(), src)
	if err != nil {
		t.Fatal(err)
	}
	src.keys = func(c *cudaRows) [][]int64 { return [][]int64{c.Device, c.Stream} }
	split, err := projectReport(ctx, p, Defaults(), src)
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
	r, err := Lookup("nvtx_gpu_proj_trace")
	if err != nil {
		b.Fatal(err)
	}
	o := Defaults()
	o.Input = []string{testutil.Profile(b, "train")}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Run(context.Background(), r, o, nil); err != nil {
			b.Fatal(err)
		}
	}
}
