package nsysx_test

import (
	"strings"
	"testing"

	"github.com/nsysx/nsysx/internal/nsysxtest"
	"github.com/nsysx/nsysx/internal/testutil"
	"github.com/nsysx/nsysx/internal/testutil/sqlitecopy"
	"github.com/nsysx/nsysx/nsysx"
)

// goldenFilters reads a profile's filters.txt: golden base name -> the nsys
// arguments it was made with ("--filter-nvtx 'x'", "-r 'rule:opts'").
func goldenFilters(t *testing.T, prof string) map[string]string {
	txt, ok := testutil.Golden(t, prof, "filters.txt")
	if !ok {
		t.Fatalf("no filters.txt for %s", prof)
	}
	args := map[string]string{}
	for _, l := range strings.Split(txt, "\n") {
		if name, arg, ok := strings.Cut(l, ": "); ok {
			args[name] = arg
		}
	}
	return args
}

// filterArgs are the --filter-nvtx and --filter-time arguments a profile's
// filter_* goldens were made with.
func filterArgs(t *testing.T, prof string) (nvtx, time string) {
	args := goldenFilters(t, prof)
	nvtx, _ = strings.CutPrefix(args["filter_nvtx"], "--filter-nvtx ")
	time, _ = strings.CutPrefix(args["filter_time"], "--filter-time ")
	return strings.Trim(nvtx, "'"), strings.Trim(time, "'")
}

// TestFilterGolden runs the reports nsys was run on with --filter-nvtx and
// --filter-time (filter_<kind>_<report>.csv), under one Filter per kind and
// profile shared by all the reports, as the CLI does.
func TestFilterGolden(t *testing.T) {
	for _, prof := range testutil.Profiles {
		t.Run(prof, func(t *testing.T) {
			p := nsysxtest.Open(t, testutil.Profile(t, prof))
			nv, tm := filterArgs(t, prof)
			fn, err := nsysx.ParseNVTXFilter(nv)
			if err != nil {
				t.Fatal(err)
			}
			ft, err := nsysx.ParseTimeFilter(tm)
			if err != nil {
				t.Fatal(err)
			}
			for _, kind := range []struct {
				name string
				f    *nsysx.Filter
			}{{"nvtx", fn}, {"time", ft}} {
				for _, rep := range []string{"nvtx_sum", "cuda_api_sum", "cuda_gpu_kern_sum", "cuda_gpu_trace"} {
					want, ok := testutil.Golden(t, prof, "filter_"+kind.name+"_"+rep+".csv")
					if !ok {
						if kind.name == "time" && rep == "cuda_gpu_trace" {
							continue // nsys was not run on this pair
						}
						t.Fatalf("no golden filter_%s_%s", kind.name, rep)
					}
					r := runSpec(t, p, rep, kind.f)
					if d := testutil.Diff(statsCSV(t, r), want); d != "" {
						t.Errorf("%s under --filter-%s (skipped %q): %s", rep, kind.name, r.Skipped, d)
					}
				}
			}
		})
	}
}

// The nvtx_edge fixture (make_fixtures.py): worker thread W = 100/101, main
// thread 100/100. Expected sums are worked out from its rows.
func TestFilterFixture(t *testing.T) {
	p := openFixture(t, "nvtx_edge")
	nvtxF := func(s string) *nsysx.Filter {
		f, err := nsysx.ParseNVTXFilter(s)
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	for _, miss := range []string{"nothing", "inner", "step/5", "step/x", "outer@MyDom"} {
		wantSkip(t, p, "nvtx_sum", nvtxF(miss), "NVTX range '"+miss+"' could not be found in <f>.")
	}
	// A push/pop range: window [1000, 9000), the worker thread only. The
	// domain creation row falls outside, so "inner" loses its prefix.
	outer := nvtxF("outer")
	wantRows(t, p, "nvtx_sum", outer,
		"43.2|8000|1|8000.0|8000.0|8000|8000|0.0|PushPop|:outer",
		"29.7|5500|1|5500.0|5500.0|5500|5500|0.0|StartEnd|:cross",
		"16.2|3000|1|3000.0|3000.0|3000|3000|0.0|PushPop|:inner",
		"10.8|2000|1|2000.0|2000.0|2000|2000|0.0|PushPop|:reg")
	// The same filter on the kernels: k3's call is on the main thread, so
	// it has none; k4 and k5 are outside the window.
	wantRows(t, p, "nvtx_kern_sum", outer,
		"||||0|1|300|300.0|300.0|300|300|0.0|kC",
		":inner|PushPop|100|101|1|1|400|400.0|400.0|400|400|0.0|kA",
		":inner|PushPop|100|101|1|1|100|100.0|100.0|100|100|0.0|kB",
		":outer|PushPop|100|101|1|2|500|250.0|250.0|100|400|212.1|kA",
		":outer|PushPop|100|101|1|1|100|100.0|100.0|100|100|0.0|kB",
		":reg|PushPop|100|101|1|1|100|100.0|100.0|100|100|0.0|kA")
	// name@domain; window [2000, 5000).
	inner := []string{
		"48.5|8000|1|8000.0|8000.0|8000|8000|0.0|PushPop|:outer",
		"33.3|5500|1|5500.0|5500.0|5500|5500|0.0|StartEnd|:cross",
		"18.2|3000|1|3000.0|3000.0|3000|3000|0.0|PushPop|:inner"}
	wantRows(t, p, "nvtx_sum", nvtxF("inner@MyDom"), inner...)
	// The index picks the third "step": the open range before it has no end
	// and does not start in the window, so it is dropped.
	wantRows(t, p, "nvtx_sum", nvtxF("step/2"), "100.0|500|1|500.0|500.0|500|500|0.0|PushPop|:step")
	// A start/end range on the main thread (PID = TID) keeps the whole process.
	wantRows(t, p, "nvtx_sum", nvtxF("se"),
		"24.7|9000|1|9000.0|9000.0|9000|9000|0.0|StartEnd|:se",
		"24.7|9000|1|9000.0|9000.0|9000|9000|0.0|StartEnd|:se2",
		"21.9|8000|1|8000.0|8000.0|8000|8000|0.0|PushPop|:outer",
		"15.1|5500|1|5500.0|5500.0|5500|5500|0.0|StartEnd|:cross",
		"8.2|3000|1|3000.0|3000.0|3000|3000|0.0|PushPop|:inner",
		"5.5|2000|1|2000.0|2000.0|2000|2000|0.0|PushPop|:reg")
	// A time window [0, 2500), every thread; the open range's end becomes the
	// latest timestamp among the rows kept (9500).
	early := []string{
		"35.3|9000|1|9000.0|9000.0|9000|9000|0.0|StartEnd|:se",
		"31.4|8000|1|8000.0|8000.0|8000|8000|0.0|PushPop|:outer",
		"21.6|5500|1|5500.0|5500.0|5500|5500|0.0|StartEnd|:cross",
		"11.8|3000|1|3000.0|3000.0|3000|3000|0.0|PushPop|:inner"}
	ft, err := nsysx.ParseTimeFilter("0/2500")
	if err != nil {
		t.Fatal(err)
	}
	wantRows(t, p, "nvtx_sum", ft, early...)
	// Report options do the same; next to nvtx= (or the caller's NVTX
	// filter) they replace the range's bounds and keep its thread.
	wantRows(t, p, "nvtx_sum:start=0:end=2500", nil, early...)
	wantRows(t, p, "nvtx_sum:nvtx=outer:end=4000", nil, inner...)
	wantRows(t, p, "nvtx_sum:start=0:end=2500", outer, inner...)
	wantRows(t, p, "nvtx_sum:nvtx=se:start=0:end=2500", ft, early...)
	wantSkip(t, p, "nvtx_sum:start=5000:end=100", nil, "The start time cannot be greater than the end time.")
	if _, err := p.Stats(t.Context(), "nvtx_sum:start=x"); err == nil {
		t.Error("start=x accepted")
	}
}

// TestFilterKernelNVTXNames runs cuda_gpu_kern_sum:nvtx-name under each
// profile's --filter-time: the kernels named after their NVTX ranges are
// the filtered kernels, as many and as long as SQLite selects (the
// overlapping rows), whatever their names.
func TestFilterKernelNVTXNames(t *testing.T) {
	for _, prof := range []string{"train", "cnn"} {
		path := testutil.Profile(t, prof)
		p := nsysxtest.Open(t, path)
		_, tm := filterArgs(t, prof)
		f, err := nsysx.ParseTimeFilter(tm)
		if err != nil {
			t.Fatal(err)
		}
		r := runSpec(t, p, "cuda_gpu_kern_sum:nvtx-name", f)
		var n, total int64
		for i := 0; i < r.Len(); i++ {
			n += r.Col("Instances").Value(i).I
			total += r.Col("Total Time").Value(i).I
		}
		s, e, _ := strings.Cut(tm, "/")
		where := " FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE (start >= " + s + " AND start < " + e + ") OR (end >= " + s +
			" AND end < " + e + ") OR (start < " + s + " AND end >= " + e + ")"
		wn, wt := sqlitecopy.Int64(t, path, "SELECT count(*)"+where), sqlitecopy.Int64(t, path, "SELECT sum(end - start)"+where)
		if n != wn || total != wt || wn == 0 {
			t.Errorf("%s: %d kernels, %d ns; SQLite %d, %d", prof, n, total, wn, wt)
		}
	}
}
