package recipes

import (
	"context"
	"fmt"
	"sort"

	"github.com/nsysx/nsysx/nsysx/recipe"
	"github.com/nsysx/nsysx/nsysx/recipe/composite"
	"github.com/nsysx/nsysx/nsysx/recipe/pyframe"
)

func init() {
	registerHeatmap("gpu_metric_util_map", "GPU Metric Utilization Heatmap", "Per GPU, the mean SMs Active, SM Issue and Tensor Active metrics of each time bin, on a timeline aligned across reports.",
		heatmapOptions, 0, mapMetricUtil)
}

// metricBin accumulates one (GPU, bin) cell of gpu_metric_util_map.
type metricBin struct {
	gpu, bin int64
	sum      [3]float64
	n        int64
}

// mapMetricUtil is gpu_metric_util_map's mapper (derived from nsys's
// goldens and mapper, see composite/gpu_metrics.go): the filtered samples, shifted by
// the session offset, are kept on the session [offset, max]; each
// (timestamp, GPU) sample point carries the SMs Active, SM Issue and Tensor
// Active values (integers); a point falls in bin k when k·size < t ≤
// (k+1)·size (pandas' cut: right-closed, so t = 0 falls in none); per (GPU,
// bin) with points, ascending, the mean of each metric is rounded to one
// decimal. Duration is the bin's start, an ordered categorical of all the
// bin starts.
func mapMetricUtil(ctx context.Context, r *recipe.Report, o *recipe.Options, shared any) (*recipe.Part, error) {
	a, off, maxT, err := alignmentOf(shared, r)
	if err != nil {
		return nil, err
	}
	s, ok, err := composite.LoadMetricSamples(ctx, r, o)
	if err != nil || !ok {
		return noDataOr(o, r, err)
	}
	points, err := metricPoints(s, off, maxT)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", r.Path, err)
	}
	if len(points) == 0 {
		return noData(o, r)
	}
	cells := map[[2]int64]*metricBin{}
	var keys [][2]int64
	for k, v := range points {
		t := k.ts
		if t <= 0 || t > int64(a.Bins)*a.BinSize {
			continue
		}
		key := [2]int64{k.gpu, (t - 1) / a.BinSize}
		c := cells[key]
		if c == nil {
			c = &metricBin{gpu: key[0], bin: key[1]}
			cells[key] = c
			keys = append(keys, key)
		}
		for m := range v {
			c.sum[m] += float64(v[m])
		}
		c.n++
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i][0] != keys[j][0] {
			return uint64(keys[i][0]) < uint64(keys[j][0])
		}
		return keys[i][1] < keys[j][1]
	})
	return &recipe.Part{Frames: map[string]*pyframe.Frame{"analysis": metricFrame(a, cells, keys)}}, nil
}

// pointKey is one (timestamp, GPU) sample point.
type pointKey struct{ ts, gpu int64 }

// metricPoints pivots the samples on the session [off, maxT] into points
// holding the three metrics; a point that lacks one of them is an error, as
// nsys's integer cast of the pivot fails on it.
func metricPoints(s *composite.MetricSamples, off, maxT int64) (map[pointKey][3]int64, error) {
	present := map[string]bool{}
	for _, n := range s.Name {
		present[n] = true
	}
	var want [3]string
	var err error
	for m, names := range [][]string{composite.SmActiveNames, composite.SmIssueNames, composite.TensorActiveNames} {
		if want[m], err = composite.PickMetric(present, names, [...]string{"SMs Active", "SM Issue", "Tensor Active"}[m]); err != nil {
			return nil, err
		}
	}
	points := map[pointKey][3]int64{}
	seen := map[pointKey]uint8{}
	for i, t := range s.TS {
		t += off
		if t < off || t > maxT {
			continue
		}
		k := pointKey{t, s.GPU[i]}
		seen[k] |= 0 // a point of other metrics only counts as lacking them
		for m, n := range want {
			if s.Name[i] == n {
				v := points[k]
				v[m] = s.Value[i]
				points[k] = v
				seen[k] |= 1 << m
			}
		}
	}
	for k, bits := range seen {
		if bits != 7 {
			return nil, fmt.Errorf("GPU metrics sample at %d (GPU %d) lacks %s, %s or %s", k.ts, k.gpu, want[0], want[1], want[2])
		}
	}
	return points, nil
}

// metricFrame is one report's gpu_metric_util_map table.
func metricFrame(a *Alignment, cells map[[2]int64]*metricBin, keys [][2]int64) *pyframe.Frame {
	n := len(keys)
	dur, gpu := make([]int64, n), make([]int64, n)
	var means [3][]float64
	for m := range means {
		means[m] = make([]float64, n)
	}
	for i, k := range keys {
		c := cells[k]
		dur[i], gpu[i] = c.bin*a.BinSize, c.gpu
		for m := range means {
			means[m][i] = pyframe.Round(c.sum[m] / float64(c.n))
		}
	}
	d := pyframe.NewInts("Duration", pyframe.Category, dur, nil)
	d.Cats = binStarts(a.Bins, a.BinSize)
	return &pyframe.Frame{Index: pyframe.RangeIndex, Cols: []*pyframe.Column{d,
		pyframe.NewFloats("SMs Active", means[0], nil), pyframe.NewFloats("SM Issue", means[1], nil),
		pyframe.NewFloats("Tensor Active", means[2], nil), pyframe.NewInts("GPU", pyframe.Uint64, gpu, nil)}}
}
