package composite

import (
	"context"
	"fmt"

	"github.com/nsysx/nsysx/nsysx"
	"github.com/nsysx/nsysx/nsysx/events"
	"github.com/nsysx/nsysx/nsysx/recipe"
)

// This file reads the GPU metrics samples that gpu_metric_util_map and
// gpu_metric_util_sum summarize. docs/recipes.md has no section on these two
// recipes; what follows was derived from nsys's goldens on the bt profile
// (testdata/golden/recipes/bt) against its GPU_METRICS and
// TARGET_INFO_GPU_METRICS tables, and from the shape of nsys's mapper:
//
//   - A sample is a GPU_METRICS row (timestamp, typeId, metricId, value);
//     its GPU is typeId & 0xFF, and its metric name comes from
//     TARGET_INFO_GPU_METRICS joined on (typeId, metricId) (inner join).
//   - The frame filter (§1.4) treats the timestamp as both start and end,
//     so the default window drops samples with a negative timestamp: bt's
//     first sample (timestamp −51 782) is the one missing from the 4 182
//     of every metric in gpu_metric_util_sum (Count 4 181).
//   - Four metric names lose their " [Throughput %]" suffix in the output
//     (SMs Active, SM Issue, Tensor Active, Unallocated Warps in Active
//     SMs); rows are still ordered by the original names, which is why
//     "Unallocated Warps in Active SMs" follows its "[Avg…]" siblings.

// TableGPUMetrics and TableGPUMetricNames are the GPU metrics tables.
const (
	TableGPUMetrics     = events.TableGPUMetrics
	TableGPUMetricNames = events.TableTargetInfoGPUMetrics
)

// MetricSamples are a report's GPU metric samples, in table order, that
// pass the frame filter, with their metric names resolved.
type MetricSamples struct {
	TS, GPU, Value []int64
	Name           []string
}

// LoadMetricSamples reads the samples; ok is false when the report has no
// GPU metrics tables or no samples.
func LoadMetricSamples(ctx context.Context, r *recipe.Report, o *recipe.Options) (*MetricSamples, bool, error) {
	p := r.Profile
	g, err := LoadTable(ctx, p, TableGPUMetrics, []string{"timestamp", "typeId", "metricId", "value"}, nil)
	if err != nil || g == nil {
		return nil, false, err
	}
	names, err := metricNames(ctx, p)
	if err != nil || names == nil {
		return nil, false, err
	}
	ts, tsValid := Ints(g, "timestamp")
	typ, _ := Ints(g, "typeId")
	mid, _ := Ints(g, "metricId")
	val, _ := Ints(g, "value")
	keep, err := FilterRows(ctx, p, o, Span{Start: ts, End: ts, StartValid: tsValid, EndValid: tsValid}, nil)
	if err != nil {
		return nil, false, err
	}
	s := &MetricSamples{}
	for _, i := range keep {
		n, ok := names[[2]int64{typ[i], mid[i]}]
		if !ok {
			continue
		}
		s.TS, s.GPU, s.Value = append(s.TS, ts[i]), append(s.GPU, typ[i]&0xFF), append(s.Value, val[i])
		s.Name = append(s.Name, n)
	}
	return s, len(s.TS) > 0, nil
}

// metricNames maps (typeId, metricId) to the metric name.
func metricNames(ctx context.Context, p *nsysx.Profile) (map[[2]int64]string, error) {
	t, err := LoadTable(ctx, p, TableGPUMetricNames, []string{"typeId", "metricId", "metricName"}, nil)
	if err != nil || t == nil {
		return nil, err
	}
	typ, _ := Ints(t, "typeId")
	mid, _ := Ints(t, "metricId")
	name := t.Col("metricName")
	out := make(map[[2]int64]string, t.N)
	for i := 0; i < t.N; i++ {
		if !name.IsNull(i) {
			out[[2]int64{typ[i], mid[i]}] = name.Str(i)
		}
	}
	return out, nil
}

// Metric names, as the outputs call them, and the report names each may
// have (the first present is used).
var (
	SmActiveNames     = []string{"SMs Active [Throughput %]", "SM Active [Throughput %]", "SM Active"}
	SmIssueNames      = []string{"SM Issue [Throughput %]", "SM Issue"}
	TensorActiveNames = []string{"Tensor Active [Throughput %]", "Tensor Active"}
	unallocatedNames  = []string{"Unallocated Warps in Active SMs [Throughput %]"}
)

// MetricRenames maps a report's metric name to the output's.
var MetricRenames = map[string]string{
	SmActiveNames[0]: "SMs Active", SmActiveNames[1]: "SMs Active",
	SmIssueNames[0]: "SM Issue", TensorActiveNames[0]: "Tensor Active",
	unallocatedNames[0]: "Unallocated Warps in Active SMs",
}

// PickMetric returns the first of names that the samples have.
func PickMetric(present map[string]bool, names []string, what string) (string, error) {
	for _, n := range names {
		if present[n] {
			return n, nil
		}
	}
	return "", fmt.Errorf("no %s metric among the GPU metrics (looked for %q)", what, names)
}
