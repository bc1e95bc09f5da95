package recipes

import (
	"slices"
	"testing"

	"github.com/nsysx/nsysx/nsysx/recipe"
	"github.com/nsysx/nsysx/nsysx/recipe/pyframe"
)

// TestKernHistRealProfiles checks analysis.parquet on rank0+rank1 against
// the raw kernel tables: every kernel with a positive duration, its short
// name, its rank, labelled by its row.
func TestKernHistRealProfiles(t *testing.T) {
	res := runOn(t, "cuda_gpu_kern_hist", recipe.Defaults(), "rank0", "rank1")
	f := res.Output.Table("analysis")
	if want := []string{"Duration", "Name", "Rank", pyframe.LevelIndexName}; !slices.Equal(f.Names(), want) {
		t.Fatalf("columns %v, want %v", f.Names(), want)
	}
	var dur, rank, label []int64
	var name []string
	for r, prof := range []string{"rank0", "rank1"} {
		for i, k := range rawKernels(t, prof) {
			if k.end-k.start > 0 {
				dur, name = append(dur, k.end-k.start), append(name, k.name)
				rank, label = append(rank, int64(r)), append(label, int64(i))
			}
		}
	}
	if !slices.Equal(f.Find("Duration").IntVals, dur) || !slices.Equal(f.Find("Name").Strs, name) ||
		!slices.Equal(f.Find("Rank").IntVals, rank) || !slices.Equal(f.Find(pyframe.LevelIndexName).IntVals, label) {
		t.Fatalf("analysis differs from the raw kernels (%d rows, want %d)", f.Rows(), len(dur))
	}
	if f.Find("Duration").Type != pyframe.Int64 || f.Find("Name").Type != pyframe.String {
		t.Errorf("kinds %v %v", f.Find("Duration").Type, f.Find("Name").Type)
	}
}

// TestKernHistFilteredLabels: a time window drops the early kernels; the
// rest keep their table rows as labels (one rank: still stored).
func TestKernHistFilteredLabels(t *testing.T) {
	raw := rawKernels(t, "rank0")
	s := raw[len(raw)/2].end
	o := recipe.Defaults()
	o.FilterTime = &recipe.TimeRange{Start: &s}
	f := runOn(t, "cuda_gpu_kern_hist", o, "rank0").Output.Table("analysis")
	var label []int64
	for i, k := range raw {
		if k.end >= s && k.start >= 0 && k.end > k.start {
			label = append(label, int64(i))
		}
	}
	if f.Index != pyframe.LevelIndex || !slices.Equal(f.Find(pyframe.LevelIndexName).IntVals, label) {
		t.Fatalf("index %v labels %d, want %d from row %d", f.Index, f.Rows(), len(label), label[0])
	}
	// Unfiltered, one rank: pandas keeps the RangeIndex.
	if f := runOn(t, "cuda_gpu_kern_hist", recipe.Defaults(), "rank0").Output.Table("analysis"); f.Index != pyframe.RangeIndex || f.Rows() != len(raw) {
		t.Errorf("one rank unfiltered: index %v, %d rows", f.Index, f.Rows())
	}
}
