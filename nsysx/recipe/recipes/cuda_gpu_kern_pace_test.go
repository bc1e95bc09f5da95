package recipes

import (
	"math"
	"reflect"
	"slices"
	"testing"

	"github.com/nsysx/nsysx/nsysx/recipe"
	"github.com/nsysx/nsysx/nsysx/recipe/pyframe"
)

// TestKernPaceRealProfiles paces the kernel Kernel2 on rank0+rank1 and
// checks every pace file, the stats and pace_delta_stats against values
// recomputed from the raw kernel tables.
func TestKernPaceRealProfiles(t *testing.T) {
	const kernel = "Kernel2"
	res := runPace(t, "cuda_gpu_kern_pace", kernel, "rank0", "rank1")
	profiles := []string{"rank0", "rank1"}
	minUTC := min(rawUTC(t, "rank0"), rawUTC(t, "rank1"))
	total := 0
	var deltas [][]float64
	for r, prof := range profiles {
		var start, dur, delta []float64
		prevEnd := int64(0)
		off := rawUTC(t, prof) - minUTC
		for _, k := range rawKernels(t, prof) {
			if k.name != kernel {
				continue
			}
			start = append(start, float64(k.start+off))
			dur = append(dur, float64(k.end-k.start))
			delta = append(delta, float64(k.start-prevEnd))
			prevEnd = k.end
		}
		if len(start) == 0 {
			t.Fatalf("%s has no %s kernels", prof, kernel)
		}
		total += len(start)
		deltas = append(deltas, delta)
		col := func(table string) []float64 { return floatsOf(res.Output.Table(table).Cols[r]) }
		for name, want := range map[string][]float64{"pace_start": start, "pace_duration": dur, "pace_delta": delta} {
			if got := col(name); !slices.Equal(got, want) {
				t.Errorf("rank %d %s: %d values, want %d (first %v, want %v)", r, name, len(got), len(want), got[:1], want[:1])
			}
		}
		if k := res.Output.Table("pace_start").Cols[r].Type; k != pyframe.Int64 {
			t.Errorf("pace_start kind %v, want int64 (equal iteration counts)", k)
		}
	}
	st := res.Output.Table("stats")
	if !slices.Equal(st.IndexCols, []string{"Shortname"}) || st.Find("Shortname").Strs[0] != kernel {
		t.Fatalf("stats index %v", st.IndexCols)
	}
	if got := st.Find("Count").IntVals[0]; got != int64(total) {
		t.Errorf("stats Count %d, want %d kernels", got, total)
	}
	ds := res.Output.Table("pace_delta_stats")
	for i := range deltas[0] {
		a, b := deltas[0][i], deltas[1][i]
		m := (a + b) / 2
		want := map[string]float64{"Count": 2, "Mean": m, "Min": min(a, b), "Max": max(a, b), "Sum": a + b,
			"Std": math.Sqrt((m-a)*(m-a) + (m-b)*(m-b))}
		for name, w := range want {
			if got := ds.Find(name).FloatVals[i]; got != w {
				t.Fatalf("pace_delta_stats %s[%d] = %v, want %v", name, i, got, w)
			}
		}
	}
}

// TestKernPaceAlignsSurvivors: fixed has no Kernel2 and started earlier
// than rank0 and rank1; it gets no Rank, and the offsets are taken over the
// surviving reports only, so the result is that of rank0+rank1.
func TestKernPaceAlignsSurvivors(t *testing.T) {
	with := runPace(t, "cuda_gpu_kern_pace", "Kernel2", "fixed", "rank0", "rank1")
	if rawUTC(t, "fixed") >= min(rawUTC(t, "rank0"), rawUTC(t, "rank1")) {
		t.Fatal("bad test: fixed must start first")
	}
	without := runPace(t, "cuda_gpu_kern_pace", "Kernel2", "rank0", "rank1")
	if !slices.Equal(with.Files, []string{"rank0", "rank1"}) {
		t.Fatalf("files %v", with.Files)
	}
	for r := range 2 {
		a, b := with.Output.Table("pace_start").Cols[r].IntVals, without.Output.Table("pace_start").Cols[r].IntVals
		if !slices.Equal(a, b) {
			t.Errorf("rank %d: pace_start with fixed differs", r)
		}
	}
}

// mapKernPace (the kernel table streamed, the rows of --name's id kept)
// gives the pace frames of the kernel composite's path (every kernel
// loaded with its short name, compared by text), with and without the
// filters.
func TestKernPaceStreamMatchesComposite(t *testing.T) {
	window := recipe.Defaults()
	window.FilterTime = &recipe.TimeRange{Start: new(int64(3e8)), End: new(int64(9e8))}
	nvtx := recipe.Defaults()
	nvtx.FilterNVTX = &recipe.NVTXRange{Range: "forward"}
	for _, prof := range []string{"rank0", "rank1", "train"} {
		for name, o := range map[string]*recipe.Options{"all": recipe.Defaults(), "window": window, "nvtx": nvtx} {
			for _, kernel := range []string{"Kernel2", "no such kernel"} {
				o := *o
				o.Name = kernel
				want, werr := mapKernPaceComposite(t.Context(), &recipe.Report{Path: prof, Stem: prof, Profile: openProfile(t, prof)}, &o)
				got, gerr := mapKernPace(t.Context(), &recipe.Report{Path: prof, Stem: prof, Profile: openProfile(t, prof)}, &o, nil)
				if (werr == nil) != (gerr == nil) || werr != nil && werr.Error() != gerr.Error() {
					t.Errorf("%s %s %s: error %v, want %v", prof, name, kernel, gerr, werr)
					continue
				}
				if werr != nil || got == nil && want == nil {
					continue
				}
				if got == nil || want == nil || !reflect.DeepEqual(got.Frames, want.Frames) {
					t.Errorf("%s %s %s: the pace frames differ from the composite's", prof, name, kernel)
				}
			}
		}
	}
}
