package recipes

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/nsysx/nsysx/internal/testutil"
	"github.com/nsysx/nsysx/nsysx/recipe"
	"github.com/nsysx/nsysx/nsysx/recipe/pyframe"
)

// goldenRun describes one nsys run of the recipe goldens: the recipe's
// declared options (docs/recipes.md §2), notebooks and the command line's
// values.
type goldenRun struct {
	dir, display string
	keys         []string
	notebooks    []string
	set          func(o *recipe.Options)
}

var (
	rank01     = []string{"rank0.nsys-rep", "rank1.nsys-rep"}
	trainFixed = []string{"/tmp/res/train.nsys-rep", "/tmp/res/fixed.nsys-rep"}
	statsKeys  = []string{"input", "start", "end", "csv", "filter_time", "filter_nvtx"}
	ruleKeys   = []string{"input", "start", "end", "nvtx", "rows", "filter_time"}
	mapKeys    = []string{"input", "start", "end", "bins", "disable_alignment", "filter_time", "filter_nvtx"}
)

func goldenRuns() []goldenRun {
	in := func(paths []string) func(o *recipe.Options) { return func(o *recipe.Options) { o.Input = paths } }
	return []goldenRun{
		{"bt/gpu_metric_util_map", "GPU Metric Utilization Heatmap", mapKeys, []string{"heatmap.ipynb"}, in([]string{"bt.nsys-rep"})},
		{"bt/gpu_metric_util_sum", "GPU Metrics Utilization Summary",
			[]string{"per_projected_nvtx", "per_kernel", "input", "match_ranges", "longest_n", "csv", "filter_time", "filter_nvtx", "filter_projected_nvtx"},
			[]string{"stats.ipynb"}, func(o *recipe.Options) {
				o.Input = []string{"bt.nsys-rep"}
				o.Values = map[string]any{"per_projected_nvtx": false, "per_kernel": false, "match_ranges": nil, "longest_n": 100}
			}},
		{"rank0+rank1/cuda_gpu_kern_sum", "CUDA GPU Kernel Summary", statsKeys, []string{"stats.ipynb"}, in(rank01)},
		{"rank0+rank1/cuda_gpu_time_util_map", "CUDA GPU Time Utilization Heatmap",
			[]string{"input", "start", "end", "bins", "disable_alignment", "cumulative", "filter_time", "filter_nvtx"}, []string{"heatmap.ipynb"}, in(rank01)},
		{"rank0+rank1/nccl_gpu_overlap_trace", "NCCL GPU Overlap Trace", statsKeys, []string{"trace.ipynb"}, in(rank01)},
		{"rank0+rank1/nccl_gpu_proj_sum", "NCCL GPU Projection Summary", statsKeys, []string{"stats.ipynb"}, in(rank01)},
		{"rank0+rank1/nccl_gpu_time_util_map", "NCCL GPU Time Utilization Heatmap", mapKeys, []string{"heatmap.ipynb"}, in(rank01)},
		{"rank0+rank1/nccl_sum", "NCCL Summary", []string{"input", "start", "end", "csv"}, []string{"stats.ipynb"}, in(rank01)},
		{"rank0+rank1/nvtx_gpu_proj_trace", "NVTX GPU Projection Trace",
			[]string{"input", "start", "end", "csv", "per_gpu", "per_stream", "filter_time", "filter_nvtx", "filter_projected_nvtx"}, []string{"trace.ipynb"}, in(rank01)},
		{"rank0+rank1/nvtx_pace", "NVTX Pacing", []string{"input", "name", "start", "end", "filter_time", "filter_nvtx"}, []string{"pace.ipynb"},
			func(o *recipe.Options) { o.Input, o.Name = rank01, "forward" }},
		{"train+fixed/cuda_api_sync", "CUDA Synchronization APIs", ruleKeys, []string{"analysis.ipynb"}, in(trainFixed)},
		{"train+fixed/cuda_gpu_kern_sum", "CUDA GPU Kernel Summary", statsKeys, []string{"stats.ipynb"}, in(trainFixed)},
		{"train+fixed/cuda_gpu_time_util_map", "CUDA GPU Time Utilization Heatmap",
			[]string{"input", "start", "end", "bins", "disable_alignment", "cumulative", "filter_time", "filter_nvtx"}, []string{"heatmap.ipynb"}, in(trainFixed)},
		{"train+fixed/cuda_memcpy_async", "CUDA Async Memcpy with Pageable Memory", ruleKeys, []string{"analysis.ipynb"}, in(trainFixed)},
		{"train+fixed/gpu_time_util", "GPU Time Utilization", append(append([]string{}, ruleKeys...), "threshold", "chunks"), []string{"analysis.ipynb"}, in(trainFixed)},
		{"train+fixed/nvtx_gpu_proj_sum", "NVTX GPU Projection Summary",
			[]string{"input", "start", "end", "csv", "filter_time", "filter_nvtx", "filter_projected_nvtx"}, []string{"stats.ipynb", "topN.ipynb"}, in(trainFixed)},
	}
}

// volatile matches the run-dependent values of an .nsys-analysis file.
var volatile = regexp.MustCompile(`("(?:RecipeVersion|StartTime|EndTime)": )"[^"]*"`)

// TestAnalysisMatchesGoldens rebuilds each golden run's .nsys-analysis and
// compares it byte for byte with nsys's, except the run-date values.
func TestAnalysisMatchesGoldens(t *testing.T) {
	for _, g := range goldenRuns() {
		name := filepath.Base(g.dir)
		t.Run(g.dir, func(t *testing.T) {
			o := recipe.Defaults()
			g.set(o)
			r := &recipe.Recipe{Name: name, DisplayName: g.display, Options: g.keys, Notebook: g.notebooks[0], MoreNotebooks: g.notebooks[1:]}
			res := &recipe.Result{Recipe: r, Opts: o, Output: &recipe.Output{},
				Start: time.Date(2026, 3, 4, 5, 6, 7, 891011000, time.Local), End: time.Date(2026, 3, 4, 5, 6, 8, 0, time.Local)}
			js, err := res.AnalysisJSON("rec/" + name)
			if err != nil {
				t.Fatal(err)
			}
			got := string(js)
			for _, want := range []string{`"RecipeVersion": "2026.3"`, `"StartTime": "2026-03-04 05:06:07.891011"`, `"EndTime": "2026-03-04 05:06:08.000000"`} {
				if !strings.Contains(got, want) {
					t.Errorf("missing %s in\n%s", want, got)
				}
			}
			raw, err := os.ReadFile(filepath.Join(testutil.Root(), "testdata", "golden", "recipes", g.dir, name+".nsys-analysis"))
			if err != nil {
				t.Fatal(err)
			}
			if gk, wk := orderedKeys(t, js), orderedKeys(t, raw); gk != wk {
				t.Errorf("key order\n got %s\nwant %s", gk, wk)
			}
			want := volatile.ReplaceAllString(string(raw), `$1"X"`)
			if got := volatile.ReplaceAllString(got, `$1"X"`); got != want {
				t.Errorf("differs from the golden:\n%s", testutil.Diff(got, want))
			}
		})
	}
}

// TestOptionsJSONValues checks the recorded values of the options the
// goldens leave at their defaults, against hand-written Python output.
func TestOptionsJSONValues(t *testing.T) {
	dom, idx := "NCCL", 2
	o := recipe.Defaults()
	o.Input = []string{"r\u00e9p/a.nsys-rep", "\U0001F600.nsys-rep"}
	o.FilterTime = &recipe.TimeRange{Start: i64(100), End: nil}
	o.Start, o.End = i64(5), i64(6) // overridden by --filter-time
	o.FilterNVTX = &recipe.NVTXRange{Range: "step", Domain: &dom, Index: &idx}
	o.PerGPU, o.PerStream, o.Mode, o.ForceOverwrite = true, true, "dask-futures", true
	r := &recipe.Recipe{Name: "nvtx_gpu_proj_trace", Options: []string{"input", "start", "end", "per_gpu", "per_stream", "filter_time", "filter_nvtx", "filter_projected_nvtx"}}
	kv, err := recipe.OptionsJSON(r, o, "out")
	if err != nil {
		t.Fatal(err)
	}
	got, _ := pyframe.PyJSON(kv, -1)
	want := `{"output": "out", "force_overwrite": true, "input": ["r\u00e9p/a.nsys-rep", "\ud83d\ude00.nsys-rep"], ` +
		`"start": 100, "end": null, "per_gpu": ["deviceId"], "per_stream": ["deviceId", "streamId"], ` +
		`"filter_time": [100, null], "filter_nvtx": ["step", "NCCL", 2], "filter_projected_nvtx": null, "mode": "dask_futures"}`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}

	// nccl_sum has start/end but no filter_time: the pair is appended
	// after mode.
	o = recipe.Defaults()
	o.Input, o.Start, o.Mode = []string{"a.nsys-rep"}, i64(7), "none"
	r = &recipe.Recipe{Name: "nccl_sum", Options: []string{"input", "start", "end", "csv"}}
	kv, err = recipe.OptionsJSON(r, o, nil)
	if err != nil {
		t.Fatal(err)
	}
	got, _ = pyframe.PyJSON(kv, -1)
	want = `{"output": null, "force_overwrite": false, "input": ["a.nsys-rep"], "start": 7, "end": null, "csv": false, "mode": "none", "filter_time": [7, null]}`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}

	r.Options = append(r.Options, "no_such_option")
	if _, err := recipe.OptionsJSON(r, o, nil); err == nil || !strings.Contains(err.Error(), "no_such_option") {
		t.Errorf("an option without a value: err = %v", err)
	}
}

func TestPyJSONIndent(t *testing.T) {
	v := []pyframe.KV{{Key: "a", Value: []any{}}, {Key: "b", Value: []pyframe.KV{}}, {Key: "c", Value: []any{1, 2.5, "x\"\\\n\t\x01\x7f"}}, {Key: "d", Value: 1e-05}, {Key: "e", Value: true}}
	got, err := pyframe.PyJSON(v, 4)
	if err != nil {
		t.Fatal(err)
	}
	// json.dumps(v, indent=4) in Python 3.
	want := "{\n    \"a\": [],\n    \"b\": {},\n    \"c\": [\n        1,\n        2.5,\n        \"x\\\"\\\\\\n\\t\\u0001\\u007f\"\n    ],\n    \"d\": 1e-05,\n    \"e\": true\n}"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func i64(v int64) *int64 { return &v }
