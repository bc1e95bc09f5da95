package recipes

import (
	"context"
	"slices"

	"github.com/nsysx/nsysx/nsysx/recipe"
	"github.com/nsysx/nsysx/nsysx/recipe/pyframe"
)

// paceOptions are the option keys of nvtx_pace and cuda_gpu_kern_pace
// (docs/recipes.md §2.10, §2.11), in nsys's registration order.
var paceOptions = []string{"input", "name", "start", "end", "filter_time", "filter_nvtx"}

// paceNotebook is the notebook the pace recipes write.
const paceNotebook = "pace.ipynb"

// The frames a pace mapper returns.
const (
	framePaceStats = "stats" // describe(duration by name)
	framePaceRows  = "pace"  // start and end of the iterations, in order
)

// requireName is the pace recipes' Prepare: --name is required.
func requireName(_ context.Context, _ []*recipe.Report, o *recipe.Options) (any, error) {
	if o.Name == "" {
		return nil, recipe.Usagef("the following arguments are required: --name")
	}
	return nil, nil
}

// pacePart is a pace mapper's result: the per-rank stats of the durations
// (keyed by a column named key holding the name) and the iterations'
// start and end (end float64 when endFloat, as pandas holds it).
func pacePart(name, key string, start, end []int64, endFloat bool) *recipe.Part {
	n := len(start)
	dur := make([]int64, n)
	for i := range dur {
		dur[i] = end[i] - start[i]
	}
	var d *pyframe.Column
	endCol := pyframe.NewInts("end", pyframe.Int64, slices.Clone(end), nil)
	if endFloat {
		fd := make([]float64, n)
		fe := make([]float64, n)
		for i := range fd {
			fd[i], fe[i] = float64(dur[i]), float64(end[i])
		}
		d, endCol = pyframe.NewFloats("duration", fd, nil), pyframe.NewFloats("end", fe, nil)
	} else {
		d = pyframe.NewInts("duration", pyframe.Int64, dur, nil)
	}
	names := make([]string, n)
	for i := range names {
		names[i] = name
	}
	rows := &pyframe.Frame{Index: pyframe.NoIndex, Cols: []*pyframe.Column{pyframe.NewInts("start", pyframe.Int64, slices.Clone(start), nil), endCol}}
	return &recipe.Part{Frames: map[string]*pyframe.Frame{
		framePaceStats: pyframe.Describe([]*pyframe.Column{pyframe.NewStrings(key, names, nil)}, d),
		framePaceRows:  rows,
	}}
}

// reducePace writes stats (the aggregate of the per-rank stats, no Rank),
// the pace_* files with the ranks aligned on the earliest session start
// (docs/recipes.md §1.5: start and end only), pace_delta_stats and files.
func reducePace(_ context.Context, parts []*recipe.Part, _ *recipe.Options, _ any) (*recipe.Output, error) {
	stats := make([]*pyframe.Frame, len(parts))
	series := make([]*PaceSeries, len(parts))
	minUTC := parts[0].UTC
	for _, p := range parts {
		minUTC = min(minUTC, p.UTC)
	}
	for i, p := range parts {
		stats[i] = p.Frames[framePaceStats]
		rows := p.Frames[framePaceRows]
		end := rows.Find("end")
		endV := end.IntVals
		if end.Type == pyframe.Float64 {
			endV = make([]int64, len(end.FloatVals))
			for k, v := range end.FloatVals {
				endV[k] = int64(v)
			}
		}
		series[i] = ComputePace(rows.Find("start").IntVals, endV, end.Type == pyframe.Float64)
		series[i].Shift(p.UTC - minUTC)
	}
	agg, err := recipe.Aggregate(recipe.ConcatRanks(stats))
	if err != nil {
		return nil, err
	}
	out := &recipe.Output{Tables: []recipe.Table{{Name: "stats", Frame: agg}}}
	out.Tables = append(out.Tables, PaceTables(series)...)
	out.Tables = append(out.Tables,
		recipe.Table{Name: "pace_delta_stats", Frame: PaceDeltaStats(series), NoCSV: true},
		recipe.Table{Name: "files", Frame: recipe.FilesFrame(recipe.Stems(parts))})
	return out, nil
}
