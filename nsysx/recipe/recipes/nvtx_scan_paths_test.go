package recipes

import (
	"context"
	"reflect"
	"runtime"
	"slices"
	"testing"

	"github.com/nsysx/nsysx/internal/testutil"
	"github.com/nsysx/nsysx/nsysx/recipe"
	"github.com/nsysx/nsysx/nsysx/recipe/composite"
)

// TestLoadNCCLAllMatchesNCCL: the NCCL composite read with the domain
// probe first is the one taken from the whole NVTX composite, on every
// real profile (with and without an NCCL domain), and the NVTX composite
// comes back exactly when the profile has an NCCL domain.
func TestLoadNCCLAllMatchesNCCL(t *testing.T) {
	some := map[bool]bool{}
	for _, prof := range testutil.Profiles {
		p := openProfile(t, prof)
		full, err := composite.LoadNVTX(t.Context(), p)
		if err != nil {
			t.Fatal(err)
		}
		want := composite.NCCL(full)
		hasDomain := false
		for i := range full.Len() {
			hasDomain = hasDomain || (full.EventType[i] == composite.NVTXDomainCreate && full.RawTextValid.Valid(i) && full.RawText[i] == "NCCL")
		}
		got, all, err := composite.LoadNCCLAll(t.Context(), p)
		if err != nil {
			t.Fatal(err)
		}
		if (all != nil) != hasDomain {
			t.Errorf("%s: NVTX composite returned %v, the profile has an NCCL domain: %v", prof, all != nil, hasDomain)
		}
		if !slices.Equal(got.Start, want.Start) || !slices.Equal(got.End, want.End) || !slices.Equal(got.Text, want.Text) || !slices.Equal(got.Row, want.Row) {
			t.Errorf("%s: NCCL composite %d rows, want %d", prof, got.Len(), want.Len())
		}
		some[want.Len() > 0] = true
	}
	if !some[true] || !some[false] {
		t.Fatalf("profiles with and without NCCL ranges: %v", some)
	}
}

// TestNCCLMapsSkipNVTX: on a profile with NVTX ranges but no NCCL domain,
// nccl_sum's and nccl_gpu_proj_sum's maps allocate less than a quarter of
// what loading the NVTX composite does (they used to load it whole).
func TestNCCLMapsSkipNVTX(t *testing.T) {
	// a profile of its own for each measure: a profile keeps what it loaded
	p := openProfile(t, "train")
	var nv *composite.NVTX
	load := allocatedBy(func() {
		var err error
		if nv, err = composite.LoadNVTX(t.Context(), p); err != nil {
			t.Fatal(err)
		}
	})
	if nv.Len() < 1000 || composite.NCCL(nv).Len() != 0 {
		t.Fatalf("train: %d NVTX rows, %d NCCL ones: want many, none", nv.Len(), composite.NCCL(nv).Len())
	}
	for name, m := range map[string]func(context.Context, *recipe.Report, *recipe.Options, any) (*recipe.Part, error){"nccl_sum": mapNCCLSum, "nccl_gpu_proj_sum": mapNCCLProjSum} {
		r := &recipe.Report{Path: testutil.Profile(t, "train"), Stem: "train", Profile: openProfile(t, "train")}
		got := allocatedBy(func() {
			if _, err := m(t.Context(), r, recipe.Defaults(), nil); err != nil && err != recipe.ErrNoData {
				t.Fatal(err)
			}
		})
		if got > load/4 {
			t.Errorf("%s map allocated %d bytes, loading the NVTX composite %d", name, got, load)
		}
	}
}

// TestNVTXProjPaceScanMatchesLoad: the projection of the rows of --name
// that nvtx_gpu_proj_pace scans for is the projection of the whole NVTX
// composite with only those rows kept, for every distinct text (and one
// that is none) of the profiles.
func TestNVTXProjPaceScanMatchesLoad(t *testing.T) {
	for _, prof := range []string{"rank0", "train"} {
		p := openProfile(t, prof)
		nv, err := composite.LoadNVTX(t.Context(), p)
		if err != nil {
			t.Fatal(err)
		}
		names := someTexts(nv, 30)
		o := recipe.Defaults()
		projected := 0
		for name := range names {
			keep := make([]bool, nv.Len())
			for i := range keep {
				keep[i] = nv.TextValid.Valid(i) && nv.Text[i] == name
			}
			want, err := projectReport(t.Context(), p, o, projSource{nv: nv, filter: nv, keep: keep})
			if err != nil {
				t.Fatal(err)
			}
			sub, _, err := scanNamedNVTX(t.Context(), p, name)
			if err != nil {
				t.Fatal(err)
			}
			got, err := projectReport(t.Context(), p, o, projSource{nv: sub})
			if err != nil {
				t.Fatal(err)
			}
			if (got == nil) != (want == nil) || got != nil && (!slices.Equal(got.Start, want.Start) || !slices.Equal(got.End, want.End) || !slices.Equal(got.GlobalTid, want.GlobalTid)) {
				t.Errorf("%s %q: scanned projection %v, loaded %v", prof, name, got, want)
			}
			if want != nil {
				projected++
			}
		}
		if projected == 0 {
			t.Errorf("%s: no name projected anything", prof)
		}
	}
}

// TestNVTXProjPaceCUDAWithin: the projection of the rows of a text onto
// the CUDA rows their ranges can hold (rangeCUDA: gated scans of the
// runtime and GPU tables) is the projection onto the whole CUDA_COMBINED
// composite (LoadCombined), for every distinct text (and one that is none)
// of the real profiles with CUDA, with and without a time window that cuts
// the profile in the middle of its GPU work; and rangeCUDA keeps fewer
// rows than the composite has for some text.
func TestNVTXProjPaceCUDAWithin(t *testing.T) {
	projected, fewer := 0, false
	for _, prof := range testutil.Profiles {
		p := openProfile(t, prof)
		if !p.HasTable(composite.TableRuntime) || !canScanNVTX(p) {
			continue
		}
		nv, err := composite.LoadNVTX(t.Context(), p)
		if err != nil {
			t.Fatal(err)
		}
		comb, err := composite.LoadCombined(t.Context(), p, nil)
		if err != nil {
			t.Fatal(err)
		}
		names := someTexts(nv, 40)
		plain := recipe.Defaults()
		cut := recipe.Defaults()
		if comb.Len() > 0 {
			mid := comb.GPUStart[comb.Len()/2]
			cut.Start, cut.End = &comb.GPUStart[comb.Len()/4], &mid
		}
		for name := range names {
			sub, _, err := scanNamedNVTX(t.Context(), p, name)
			if err != nil {
				t.Fatal(err)
			}
			cuda, err := rangeCUDA(t.Context(), p, sub)
			if err != nil {
				t.Fatal(err)
			}
			fewer = fewer || sub.Len() > 0 && len(cuda.Start) < comb.Len()
			for _, o := range []*recipe.Options{plain, cut} {
				want, err := projectReport(t.Context(), p, o, projSource{nv: sub, cuda: combinedCUDA(comb)})
				if err != nil {
					t.Fatal(err)
				}
				got, err := projectReport(t.Context(), p, o, projSource{nv: sub, cuda: cuda})
				if err != nil {
					t.Fatal(err)
				}
				if (got == nil) != (want == nil) || got != nil && (!slices.Equal(got.Start, want.Start) || !slices.Equal(got.End, want.End) ||
					!slices.Equal(got.GlobalTid, want.GlobalTid) || !slices.Equal(got.NVTXRow, want.NVTXRow)) {
					t.Errorf("%s %q (window %v): projection onto the ranges' CUDA rows %v, onto the composite %v", prof, name, o.End != nil, got, want)
				}
				if want != nil {
					projected++
				}
			}
		}
	}
	if projected == 0 || !fewer {
		t.Errorf("%d projections, fewer CUDA rows read for some text: %v; want some, true", projected, fewer)
	}
}

// someTexts returns up to n distinct texts of nv's rows, one of them a
// text no row has.
func someTexts(nv *composite.NVTX, n int) map[string]bool {
	names := map[string]bool{"no such range": true}
	for i := range nv.Len() {
		if nv.TextValid.Valid(i) && len(names) < n {
			names[nv.Text[i]] = true
		}
	}
	return names
}

// TestNVTXSumTextColumns: the columns nvtx_sum and nvtx_gpu_proj_sum load
// without an NVTX filter are the NVTX composite's, on every real profile,
// and its map allocates less than the map over the whole composite: at
// least five 8-byte columns a range less (the composite also holds the
// type, thread, end thread, domain, pid, tid, row and inline text).
func TestNVTXSumTextColumns(t *testing.T) {
	for _, prof := range testutil.Profiles {
		p := openProfile(t, prof)
		if !canScanNVTX(p) {
			continue
		}
		nv, err := composite.LoadNVTX(t.Context(), p)
		if err != nil {
			t.Fatal(err)
		}
		got, err := loadNVTXLean(t.Context(), openProfile(t, prof), true)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got.Start, nv.Start) || !slices.Equal(got.End, nv.End) || !slices.Equal(got.EndValid, nv.EndValid) ||
			!slices.Equal(got.Text, nv.Text) || !slices.Equal(got.TextValid, nv.TextValid) || got.EndFloat != nv.EndFloat ||
			!slices.Equal(got.GlobalTid, nv.GlobalTid) || !slices.Equal(got.GlobalTidValid, nv.GlobalTidValid) ||
			!slices.Equal(got.EndGlobalTidValid, nv.EndGlobalTidValid) {
			t.Errorf("%s: the lean NVTX columns differ from the composite's", prof)
		}
	}
	var whole, now uint64
	ranges := 0
	for range 3 { // the least of three of each: a profile of its own each time
		r := &recipe.Report{Path: "train", Stem: "train", Profile: openProfile(t, "train")}
		w := allocatedBy(func() {
			nv, err := composite.LoadNVTX(t.Context(), r.Profile)
			if err != nil {
				t.Fatal(err)
			}
			ranges = nv.Len()
			if _, err := textSum(t.Context(), r, recipe.Defaults(), nvtxTextRows(nv), nv); err != nil {
				t.Fatal(err)
			}
		})
		r = &recipe.Report{Path: "train", Stem: "train", Profile: openProfile(t, "train")}
		n := allocatedBy(func() {
			if _, err := mapNVTXSum(t.Context(), r, recipe.Defaults(), nil); err != nil {
				t.Fatal(err)
			}
		})
		if whole == 0 || w < whole {
			whole = w
		}
		if now == 0 || n < now {
			now = n
		}
	}
	if now+uint64(40*ranges) > whole {
		t.Errorf("nvtx_sum map on train (%d ranges) allocated %d bytes, %d over the whole composite: want %d less at least", ranges, now, whole, 40*ranges)
	}
}

// allocatedBy is the heap bytes f allocates.
func allocatedBy(f func()) uint64 {
	var a, b runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&a)
	f()
	runtime.ReadMemStats(&b)
	return b.TotalAlloc - a.TotalAlloc
}

// TestNVTXSumScanMatchesComposite: the nvtx_sum map's scan by text
// (scanNVTXSum) gives the frame the composite path gives (the lean NVTX
// columns, FilterRows, GroupRows and Describe), on every real profile, with
// and without a time window, with the kept rows in blocks of 64 Ki and of 7
// (so that a text's rows span blocks that the merge puts back in order).
func TestNVTXSumScanMatchesComposite(t *testing.T) {
	defer func(b int) { nvtxSumBlock = b }(nvtxSumBlock)
	scanned := 0
	for k, prof := range append(slices.Clone(testutil.Profiles), testutil.Profiles...) {
		nvtxSumBlock = 64 << 10
		if k >= len(testutil.Profiles) {
			nvtxSumBlock = 7
		}
		p := openProfile(t, prof)
		if !canScanNVTX(p) {
			continue
		}
		nv, err := loadNVTXLean(t.Context(), p, false)
		if err != nil {
			t.Fatal(err)
		}
		// a window over the middle half of the ranges' starts
		lo, hi := slices.Min(nv.Start), slices.Max(nv.Start)
		from, to := lo+(hi-lo)/4, hi-(hi-lo)/4
		windowed := recipe.Defaults()
		windowed.FilterTime = &recipe.TimeRange{Start: &from, End: &to}
		for _, o := range []*recipe.Options{recipe.Defaults(), windowed} {
			r := &recipe.Report{Path: prof, Stem: prof, Profile: p}
			want, err := textSum(t.Context(), r, o, nvtxTextRows(nv), nil)
			if err != nil {
				t.Fatal(err)
			}
			got, ok, err := scanNVTXSum(t.Context(), r, o)
			if err != nil {
				t.Fatal(err)
			}
			if !ok {
				continue // left to the composite path
			}
			scanned++
			if (got == nil) != (want == nil) {
				t.Fatalf("%s: scanned part %v, composite %v", prof, got, want)
			}
			if got != nil && !reflect.DeepEqual(got.Frames[recipe.FrameStats], want.Frames[recipe.FrameStats]) {
				t.Errorf("%s (window %v, blocks of %d): the scanned frame differs from the composite's", prof, o.FilterTime != nil, nvtxSumBlock)
			}
		}
	}
	if scanned == 0 {
		t.Error("no profile took the scan")
	}
}
