package stats

import (
	"context"
	"runtime"
	"slices"
	"testing"

	"github.com/nsysx/nsysx/internal/testutil"
)

// TestGroupKernGeomChunks: with the kernels cut into 64 chunks (so that
// later chunks meet groups the earlier ones did not), groupKernGeom gives the groups of one pass over
// the kernels, written out here (a group per name and launch geometry, in
// the order of its first kernel), each with its kernels' durations in
// table order and its NULLs; by name alone too.
func TestGroupKernGeomChunks(t *testing.T) {
	defer func(n, procs int) { kernChunkRows = n; runtime.GOMAXPROCS(procs) }(kernChunkRows, runtime.GOMAXPROCS(64))
	kernChunkRows = 50
	p, err := Open(testutil.Profile(t, "train"))
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	c := &Ctx{Context: context.Background(), P: p}
	names, skip, err := kernelNames(c)
	if err != nil || skip != nil {
		t.Fatal(err, skip)
	}
	geom := []string{"gridX", "gridY", "gridZ", "blockX", "blockY", "blockZ"}
	k, err := p.Load(context.Background(), tKernel, append([]string{"start", "end"}, geom...)...)
	if err != nil {
		t.Fatal(err)
	}
	if k.N < 64*kernChunkRows {
		t.Fatalf("%d kernels: too few for 64 chunks", k.N)
	}
	for _, gb := range []bool{true, false} {
		var dims []*Column
		if gb {
			for _, n := range geom {
				dims = append(dims, k.Col(n))
			}
		}
		var wantKeys []kernGeomKey
		want := map[kernGeomKey]*Agg{}
		for i := 0; i < k.N; i++ {
			kk := kernGeomKey{name: names.ids[i]}
			for j, col := range dims {
				if !col.IsNull(i) {
					kk.dim[j] = col.Ints[i]
				}
			}
			a := want[kk]
			if a == nil {
				a = &Agg{}
				want[kk] = a
				wantKeys = append(wantKeys, kk)
			}
			d, ok := dur(k.Col("start"), k.Col("end"), i)
			addSample(a, d, ok)
		}
		keys, aggs := groupKernGeom(k, names, dims)
		if !slices.Equal(keys, wantKeys) || len(wantKeys) < 2 {
			t.Fatalf("gb %v: %d groups %v, want %d %v", gb, len(keys), keys, len(wantKeys), wantKeys)
		}
		for g, kk := range keys {
			if !slices.Equal(aggs[g].vals, want[kk].vals) || aggs[g].nulls != want[kk].nulls {
				t.Errorf("gb %v, group %d: %d values, %d NULLs; want %d, %d (or another order)", gb, g, len(aggs[g].vals), aggs[g].nulls, len(want[kk].vals), want[kk].nulls)
			}
		}
	}
}
