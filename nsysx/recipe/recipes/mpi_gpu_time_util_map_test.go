package recipes

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/nsysx/nsysx/nsysx/recipe"
	"github.com/nsysx/nsysx/nsysx/recipe/pyframe"
)

// mustFixtures runs a recipe over testdata/fixtures/<name>.sqlite files
// (strict: any failed report fails the test).
func mustFixtures(t *testing.T, rname string, o *recipe.Options, names ...string) *recipe.Result {
	t.Helper()
	o.Input, o.Strict = nil, true
	res, err := runFixtures(t, rname, o, names...)
	if err != nil {
		t.Fatalf("%s: %v", rname, err)
	}
	return res
}

// N is a NULL bin in the expected tables.
var N = math.NaN()

// heatRows renders a heatmap table's rows as "Rank/label: v v v" per
// group (bins consecutive rows), NULL as N, for comparison with
// hand-computed tables.
func heatRows(f *pyframe.Frame, bins int, label []string, values []string) []string {
	var out []string
	for i := 0; i < f.Rows(); i += bins {
		var b strings.Builder
		fmt.Fprintf(&b, "%d", f.Find("Rank").IntVals[i])
		for _, l := range label {
			fmt.Fprintf(&b, "/%d", f.Find(l).IntVals[i])
		}
		for _, v := range values {
			b.WriteString(" " + v + ":")
			for k := i; k < i+bins; k++ {
				x := f.Find(v).FloatVals[k]
				if math.IsNaN(x) {
					b.WriteString(" N")
				} else {
					fmt.Fprintf(&b, " %g", x)
				}
			}
		}
		out = append(out, b.String())
	}
	return out
}

func checkRows(t *testing.T, got []string, want ...string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestMPIHeatmap checks mpi_gpu_time_util_map on the two MPI fixtures
// (testdata/fixtures/make_mpi_heatmap.py) against bins computed by hand:
// 4 bins of 250 ns (the later session ends at 500+500 ns on the common
// timeline); pids in CPython's set order 10, 3, 5; zero bins for a
// missing column; NULL bins before mpi_late's session.
func TestMPIHeatmap(t *testing.T) {
	o := recipe.Defaults()
	o.Bins = 4
	f := mustFixtures(t, "mpi_gpu_time_util_map", o, "mpi_early", "mpi_late").Output.Table("analysis")
	if got := fmt.Sprint(f.Names()); got != "[Duration Kernel MPI Overlap PID Rank __index_level_0__]" {
		t.Fatalf("columns %s", got)
	}
	if fmt.Sprint(f.Find("Duration").IntVals[:4], f.Find(pyframe.LevelIndexName).IntVals[10:14]) != "[0 250 500 750] [10 11 0 1]" {
		t.Errorf("Duration %v, index %v", f.Find("Duration").IntVals, f.Find(pyframe.LevelIndexName).IntVals)
	}
	checkRows(t, heatRows(f, 4, []string{"PID"}, []string{"Kernel", "MPI", "Overlap"}),
		"0/10 Kernel: 60 60 0 0 MPI: 0 0 0 0 Overlap: 0 0 0 0",
		"0/3 Kernel: 40 0 0 0 MPI: 60 100 40 0 Overlap: 20 0 0 0",
		"0/5 Kernel: 0 0 0 0 MPI: 0 0 20 60 Overlap: 0 0 0 0",
		"1/7 Kernel: N N 40 0 MPI: N N 20 60 Overlap: N N 0 0")

	o = recipe.Defaults()
	o.Bins, o.DisableAlignment = 4, true
	f = mustFixtures(t, "mpi_gpu_time_util_map", o, "mpi_early", "mpi_late").Output.Table("analysis")
	checkRows(t, heatRows(f, 4, []string{"PID"}, []string{"Kernel", "MPI", "Overlap"})[3:],
		"1/7 Kernel: 40 0 0 N MPI: 20 60 0 N Overlap: 0 0 0 N")
}

// TestCudaHeatmapOptions checks cuda_gpu_time_util_map's --cumulative and
// --disable-alignment on the same fixtures against hand-computed bins.
func TestCudaHeatmapOptions(t *testing.T) {
	run := func(cumulative, disable bool) []string {
		o := recipe.Defaults()
		o.Bins, o.Cumulative, o.DisableAlignment = 4, cumulative, disable
		f := mustFixtures(t, "cuda_gpu_time_util_map", o, "mpi_early", "mpi_late").Output.Table("analysis")
		return heatRows(f, 4, []string{"PID", "Device ID"}, []string{"Kernel"})
	}
	checkRows(t, run(false, false), "0/3/0 Kernel: 40 0 0 0", "0/10/0 Kernel: 60 60 0 0", "1/7/1 Kernel: N N 40 0")
	// Cumulative: pid 10's kernels [100,300] and [200,400] both count.
	checkRows(t, run(true, false), "0/3/0 Kernel: 40 0 0 0", "0/10/0 Kernel: 80 80 0 0", "1/7/1 Kernel: N N 40 0")
	checkRows(t, run(false, true), "0/3/0 Kernel: 40 0 0 0", "0/10/0 Kernel: 60 60 0 0", "1/7/1 Kernel: 40 0 0 N")
}
