package plots

import (
	"context"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/nsysx/nsysx/internal/testutil"
	"github.com/nsysx/nsysx/nsysx/recipe"
)

// recipeGoldens are the golden recipe outputs that have charts, with the
// recipe name (the directory's base).
var recipeGoldens = []string{
	"rank0+rank1/cuda_gpu_kern_sum", "train+fixed/cuda_gpu_kern_sum", "rank0+rank1/nccl_sum", "rank0+rank1/nccl_gpu_proj_sum",
	"train+fixed/nvtx_gpu_proj_sum", "rank0+rank1/cuda_gpu_time_util_map", "train+fixed/cuda_gpu_time_util_map",
	"rank0+rank1/nccl_gpu_time_util_map", "rank0+rank1/nvtx_pace", "bt/gpu_metric_util_map",
}

func goldenCharts(t testing.TB, rel string) []*Chart {
	t.Helper()
	cs, err := RecipeCharts(filepath.Base(rel), goldenOutput(t, rel))
	if err != nil {
		t.Fatalf("%s: %v", rel, err)
	}
	return cs
}

// The box chart's boxes are the all_stats rows (read from the golden
// Parquet by the test), the largest Sum first; the per-rank data are the
// rank_stats rows.
func TestRecipeStatsBoxes(t *testing.T) {
	for _, rel := range []string{"rank0+rank1/cuda_gpu_kern_sum", "rank0+rank1/nccl_sum", "train+fixed/nvtx_gpu_proj_sum"} {
		cs := goldenCharts(t, rel)
		if len(cs) != 2 {
			t.Fatalf("%s: %d charts", rel, len(cs))
		}
		d := cs[0].data.(*StatsData)
		all := goldenFrame(t, rel+"/all_stats.parquet")
		key := firstCol(all, "Name", "Text")
		if d.Names != all.Rows() || len(d.Boxes) != min(all.Rows(), maxStatBoxes) {
			t.Errorf("%s: %d names, %d boxes; all_stats has %d rows", rel, d.Names, len(d.Boxes), all.Rows())
		}
		for k, b := range d.Boxes {
			if k > 0 && b.Sum > d.Boxes[k-1].Sum {
				t.Errorf("%s: box %d out of order", rel, k)
			}
			i := slices.Index(key.Strs, b.Name)
			if i < 0 {
				t.Fatalf("%s: box %q not in all_stats", rel, b.Name)
			}
			want := []float64{cellFloat(all.Find("Min"), i), cellFloat(all.Find("Q1 (approx)"), i), cellFloat(all.Find("Median (approx)"), i),
				cellFloat(all.Find("Q3 (approx)"), i), cellFloat(all.Find("Max"), i), cellFloat(all.Find("Mean"), i)}
			got := []float64{b.Min, b.Q1, b.Median, b.Q3, b.Max, b.Mean}
			for j := range want {
				if !sameFloat(got[j], want[j], 0) {
					t.Errorf("%s %s: stat %d = %v, all_stats %v", rel, b.Name, j, got[j], want[j])
				}
			}
		}
		rs := goldenFrame(t, rel+"/rank_stats.parquet")
		rkey := firstCol(rs, "Name", "Text")
		n := 0
		for _, rows := range d.Ranks {
			n += len(rows)
			for _, r := range rows {
				found := false
				for i := 0; i < rs.Rows(); i++ {
					if rkey.Strs[i] == r.Name && int64(cellFloat(rs.Find("Rank"), i)) == r.Rank {
						found = sameFloat(r.Median, cellFloat(rs.Find("Median"), i), 0) && sameFloat(r.Max, cellFloat(rs.Find("Max"), i), 0)
					}
				}
				if !found {
					t.Errorf("%s: rank row %s/%d not as in rank_stats", rel, r.Name, r.Rank)
				}
			}
		}
		want := 0 // the rank rows of the names shown (all of them: Ranks has no others)
		for i := 0; i < rs.Rows(); i++ {
			if slices.ContainsFunc(d.Boxes, func(b StatBox) bool { return b.Name == rkey.Strs[i] }) {
				want++
			}
		}
		if n != want {
			t.Errorf("%s: %d rank rows, rank_stats has %d of the names shown", rel, n, want)
		}
	}
}

// The heatmap cells are the analysis rows, labelled Rank/Device/PID in
// natural order; the summary is the mean over the labels of each bin,
// computed here from the golden rows.
func TestRecipeHeatmap(t *testing.T) {
	rel := "rank0+rank1/nccl_gpu_time_util_map"
	d := goldenCharts(t, rel)[0].data.(*HeatmapData)
	f := goldenFrame(t, rel+"/analysis.parquet")
	if strings.Join(d.Columns, ",") != "All,NCCL,Compute,Overlap" {
		t.Fatalf("columns %v", d.Columns)
	}
	cells := 0
	for _, r := range d.Rows {
		cells += len(r.Starts)
	}
	if cells != f.Rows() {
		t.Errorf("%d cells, %d analysis rows", cells, f.Rows())
	}
	sums, counts := map[int64]float64{}, map[int64]float64{}
	for i := 0; i < f.Rows(); i++ {
		lbl := trimFloat(cellFloat(f.Find("Rank"), i)) + "/" + trimFloat(cellFloat(f.Find("Device ID"), i)) + "/" + trimFloat(cellFloat(f.Find("PID"), i))
		row := heatRow(d, lbl)
		if row == nil {
			t.Fatalf("no row %s", lbl)
		}
		dur := int64(cellFloat(f.Find("Duration"), i))
		k := slices.Index(row.Starts, dur)
		if k < 0 || !sameFloat(row.Values[1][k], cellFloat(f.Find("NCCL"), i), 0) {
			t.Errorf("%s at %d: cell not the NCCL value %v", lbl, dur, cellFloat(f.Find("NCCL"), i))
		}
		if v := cellFloat(f.Find("NCCL"), i); !math.IsNaN(v) {
			sums[dur] += v
			counts[dur]++
		}
	}
	for k, at := range d.SummaryAt {
		if want := sums[at] / counts[at]; math.Abs(d.Summary[1][k]-want) > 1e-9 {
			t.Errorf("summary at %d: %v, want %v", at, d.Summary[1][k], want)
		}
	}
	for i := 1; i < len(d.Rows); i++ {
		if !naturalLess(d.Rows[i-1].Label, d.Rows[i].Label) {
			t.Errorf("labels out of order: %s, %s", d.Rows[i-1].Label, d.Rows[i].Label)
		}
	}
}

func heatRow(d *HeatmapData, label string) *HeatRow {
	for i := range d.Rows {
		if d.Rows[i].Label == label {
			return &d.Rows[i]
		}
	}
	return nil
}

// The pace lines are the pace tables' columns; the delta boxes are
// pace_delta_stats from row 1.
func TestRecipePace(t *testing.T) {
	rel := "rank0+rank1/nvtx_pace"
	cs := goldenCharts(t, rel)
	if len(cs) != 2 {
		t.Fatalf("%d charts", len(cs))
	}
	d := cs[0].data.(*PaceData)
	for _, m := range paceMetrics {
		f := goldenFrame(t, rel+"/pace_"+m+".parquet")
		for r, name := range f.Names() {
			for i := 0; i < f.Rows(); i++ {
				if !sameFloat(d.Series[m][r][i], cellFloat(f.Find(name), i), 0) {
					t.Fatalf("%s rank %s iteration %d: %v", m, name, i, d.Series[m][r][i])
				}
			}
		}
	}
	ds := goldenFrame(t, rel+"/pace_delta_stats.parquet")
	if len(d.Delta) != ds.Rows()-1 {
		t.Fatalf("%d delta boxes, %d rows", len(d.Delta), ds.Rows())
	}
	for k, b := range d.Delta {
		if b.Rank != int64(k+1) || b.Median != cellFloat(ds.Find("Median"), k+1) || b.Min != cellFloat(ds.Find("Min"), k+1) {
			t.Errorf("delta box %d: %+v", k, b)
		}
	}
	// two ranks: the variance of delta is ± half their difference
	for i := 1; i < d.Iters; i++ {
		a, b := d.Series["delta"][0][i], d.Series["delta"][1][i]
		if v := d.Series[deltaVariance][0][i]; math.Abs(v-(a-b)/2) > 1e-6 {
			t.Errorf("variance of delta %d: %v, want %v", i, v, (a-b)/2)
		}
	}
}

// K3 recipes have no chart; the kinds follow the recipe names, else the
// tables.
func TestRecipeKinds(t *testing.T) {
	if cs, err := RecipeCharts("cuda_api_sync", goldenOutput(t, "train+fixed/cuda_api_sync")); err != nil || len(cs) != 0 {
		t.Errorf("cuda_api_sync: %v, %v", cs, err)
	}
	for name, want := range map[string]PlotKind{"nvtx_sum": KindPres, "osrt_sum": KindStats, "gpu_gaps": KindTable, "cuda_gpu_kern_pace": KindPace} {
		if k := RecipeKind(name, nil); k != want {
			t.Errorf("%s: %s, want %s", name, k, want)
		}
	}
	if k := RecipeKind("some_new_map", goldenOutput(t, "rank0+rank1/cuda_gpu_time_util_map")); k != KindHeatmap {
		t.Errorf("heatmap by shape: %s", k)
	}
	if !naturalLess("2/0/9", "10/0/1") || naturalLess("10/0/1", "2/0/9") || !naturalLess("1/0/658", "1/1/658") {
		t.Error("natural order")
	}
}

// The diff charts: the markers are DIR1's all_stats minus DIR2's by name
// (computed here from the two golden tables), a name missing from DIR2
// has none, and the charts render.
func TestRecipeDiff(t *testing.T) {
	out := diffOutput(t)
	cs, err := RecipeCharts(recipe.DiffName, out)
	if err != nil || len(cs) != 2 {
		t.Fatalf("%d charts, %v", len(cs), err)
	}
	d := cs[0].data.(*StatsData)
	a, b := goldenFrame(t, "train+fixed/cuda_gpu_kern_sum/all_stats.parquet"), goldenFrame(t, "rank0+rank1/cuda_gpu_kern_sum/all_stats.parquet")
	both, inA := 0, 0
	for i := range a.Find("Name").Strs {
		if slices.Index(b.Find("Name").Strs, a.Find("Name").Strs[i]) >= 0 {
			inA++
		}
	}
	for _, box := range d.Boxes {
		i, j := slices.Index(a.Find("Name").Strs, box.Name), slices.Index(b.Find("Name").Strs, box.Name)
		if i < 0 {
			t.Fatalf("%s not in DIR1", box.Name)
		}
		want := math.NaN()
		if j >= 0 {
			want = cellFloat(a.Find("Median (approx)"), i) - cellFloat(b.Find("Median (approx)"), j)
			both++
		}
		if !sameFloat(box.Median, want, 1e-6) {
			t.Errorf("%s: median diff %v, want %v", box.Name, box.Median, want)
		}
	}
	if both != len(d.Boxes) || both != min(inA, maxStatBoxes) || inA == 0 || inA == a.Rows() {
		t.Errorf("%d markers of %d names in both of %d (the test wants names of both kinds)", both, inA, a.Rows())
	}
	if _, err := WriteRecipeCharts(keptDir(t, ""), recipe.DiffName, out); err != nil {
		t.Fatal(err)
	}
}

// diffOutput runs the diff recipe on two golden kern_sum directories.
func diffOutput(t *testing.T) *recipe.Output {
	t.Helper()
	r, err := recipe.Lookup(recipe.DiffName)
	if err != nil {
		t.Fatal(err)
	}
	o := recipe.Defaults()
	o.Input = []string{testutil.GoldenRecipe("train+fixed", "cuda_gpu_kern_sum"), testutil.GoldenRecipe("rank0+rank1", "cuda_gpu_kern_sum")}
	res, err := recipe.Run(context.Background(), r, o, nil)
	if err != nil {
		t.Fatal(err)
	}
	return res.Output
}

// cuda_gpu_kern_sum's per-rank chart also has nsys's device selector:
// the rank_stats_by_device rows (Device ID, Rank, values as the golden
// file has them) and a Device ID drop-down with "all".
func TestRecipeStatsDevices(t *testing.T) {
	rel := "rank0+rank1/cuda_gpu_kern_sum"
	cs := goldenCharts(t, rel)
	d := cs[1].data.(*StatsData)
	f := goldenFrame(t, rel+"/rank_stats_by_device.parquet")
	n := 0
	for _, rows := range d.ByDevice {
		n += len(rows)
	}
	if n != f.Rows() {
		t.Fatalf("%d device rows, the file has %d", n, f.Rows())
	}
	for i := 0; i < f.Rows(); i++ {
		name, dev, rank := f.Find("Name").Strs[i], cellText(f.Find("Device ID"), i), int64(cellFloat(f.Find("Rank"), i))
		found := false
		for _, r := range d.ByDevice[name] {
			found = found || r.Device == dev && r.Rank == rank && r.Median == cellFloat(f.Find("Median"), i)
		}
		if !found {
			t.Errorf("%s device %s rank %d not in the chart data", name, dev, rank)
		}
	}
	js, err := cs[1].VegaLite()
	if err != nil || !strings.Contains(string(js), `"Device ID "`) || !strings.Contains(string(js), `"datum.name === pick \u0026\u0026 datum.device === device"`) {
		t.Errorf("no device selector in the Vega-Lite: %v", err)
	}
}
