package recipes

import (
	"context"
	"strings"

	"github.com/nsysx/nsysx/nsysx/recipe"
	"github.com/nsysx/nsysx/nsysx/recipe/composite"
	"github.com/nsysx/nsysx/nsysx/recipe/pyframe"
)

func init() {
	recipe.Register(&recipe.Recipe{
		Name:        "gpu_metric_util_sum",
		DisplayName: "GPU Metrics Utilization Summary",
		Help:        "Per rank, GPU and metric, statistics of the GPU metrics samples.",
		Options: []string{"per_projected_nvtx", "per_kernel", "input", "match_ranges", "longest_n", "csv",
			"filter_time", "filter_nvtx", "filter_projected_nvtx"},
		Notebook: statsNotebook,
		Prepare:  prepareMetricSum,
		Map:      mapMetricSum,
		Reduce:   reduceMetricSum,
	})
}

// metricSumDefaults are the values nsys records for
// gpu_metric_util_sum's own options when they are not given.
var metricSumDefaults = map[string]any{"per_projected_nvtx": false, "per_kernel": false, "match_ranges": nil, "longest_n": 100}

// prepareMetricSum records the defaults of the recipe's own options in
// o.Values and refuses the per-kernel and per-NVTX-range modes
// (--per-kernel, --per-projected-nvtx, --match-ranges), which nsysx does
// not implement: only the whole-report summary is computed.
func prepareMetricSum(_ context.Context, _ []*recipe.Report, o *recipe.Options) (any, error) {
	if o.Values == nil {
		o.Values = map[string]any{}
	}
	var bad []string
	for _, k := range []string{"per_projected_nvtx", "per_kernel", "match_ranges", "longest_n"} {
		v, ok := o.Values[k]
		if !ok {
			o.Values[k] = metricSumDefaults[k]
			continue
		}
		if k != "longest_n" && v != nil && v != false {
			bad = append(bad, "--"+strings.ReplaceAll(k, "_", "-"))
		}
	}
	if len(bad) > 0 {
		return nil, recipe.Usagef("gpu_metric_util_sum: %s not supported by nsysx (only the whole-report summary)", strings.Join(bad, ", "))
	}
	return nil, nil
}

// mapMetricSum describes every metric's filtered sample values by (GPU,
// metric name), keys ascending by the report's metric names, then renames
// the four throughput metrics (see composite/gpu_metrics.go). Values are float64, as
// in nsys's output; GPU ID is int64.
func mapMetricSum(ctx context.Context, r *recipe.Report, o *recipe.Options, _ any) (*recipe.Part, error) {
	s, ok, err := composite.LoadMetricSamples(ctx, r, o)
	if err != nil || !ok {
		return noDataOr(o, r, err)
	}
	vals := make([]float64, len(s.Value))
	for i, v := range s.Value {
		vals[i] = float64(v)
	}
	gpu := pyframe.NewInts("GPU ID", pyframe.Int64, s.GPU, nil)
	name := pyframe.NewStrings("Metric Name", s.Name, nil)
	f := pyframe.Describe([]*pyframe.Column{gpu, name}, pyframe.NewFloats("value", vals, nil))
	names := f.Find("Metric Name")
	for i, n := range names.Strs {
		if to, ok := composite.MetricRenames[n]; ok {
			names.Strs[i] = to
		}
	}
	return &recipe.Part{Frames: map[string]*pyframe.Frame{"stats": f}}, nil
}

// reduceMetricSum writes rank_stats (the ranks' statistics with Rank) and
// files; there is no all_stats.
func reduceMetricSum(_ context.Context, parts []*recipe.Part, _ *recipe.Options, _ any) (*recipe.Output, error) {
	return recipe.RanksAndFiles(parts, "stats", "rank_stats"), nil
}
