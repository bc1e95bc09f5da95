package recipe

import (
	"context"
	"slices"
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
func requireName(_ context.Context, _ []*Report, o *Options) (any, error) {
	if o.Name == "" {
		return nil, Usagef("the following arguments are required: --name")
	}
	return nil, nil
}

// pacePart is a pace mapper's result: the per-rank stats of the durations
// (keyed by a column named key holding the name) and the iterations'
// start and end (end float64 when endFloat, as pandas holds it).
func pacePart(name, key string, start, end []int64, endFloat bool) *Part {
	n := len(start)
	dur := make([]int64, n)
	for i := range dur {
		dur[i] = end[i] - start[i]
	}
	var d *Column
	endCol := NewInts("end", Int64, slices.Clone(end), nil)
	if endFloat {
		fd := make([]float64, n)
		fe := make([]float64, n)
		for i := range fd {
			fd[i], fe[i] = float64(dur[i]), float64(end[i])
		}
		d, endCol = NewFloats("duration", fd, nil), NewFloats("end", fe, nil)
	} else {
		d = NewInts("duration", Int64, dur, nil)
	}
	names := make([]string, n)
	for i := range names {
		names[i] = name
	}
	rows := &Frame{Index: NoIndex, Cols: []*Column{NewInts("start", Int64, slices.Clone(start), nil), endCol}}
	return &Part{Frames: map[string]*Frame{
		framePaceStats: Describe([]*Column{NewStrings(key, names, nil)}, d),
		framePaceRows:  rows,
	}}
}

// reducePace writes stats (the aggregate of the per-rank stats, no Rank),
// the pace_* files with the ranks aligned on the earliest session start
// (docs/recipes.md §1.5: start and end only), pace_delta_stats and files.
func reducePace(_ context.Context, parts []*Part, _ *Options, _ any) (*Output, error) {
	stats := make([]*Frame, len(parts))
	series := make([]*PaceSeries, len(parts))
	minUTC := parts[0].UTC
	for _, p := range parts {
		minUTC = min(minUTC, p.UTC)
	}
	for i, p := range parts {
		stats[i] = p.Frames[framePaceStats]
		rows := p.Frames[framePaceRows]
		end := rows.Col("end")
		endV := end.Ints
		if end.Kind == Float64 {
			endV = make([]int64, len(end.Floats))
			for k, v := range end.Floats {
				endV[k] = int64(v)
			}
		}
		series[i] = ComputePace(rows.Col("start").Ints, endV, end.Kind == Float64)
		series[i].Shift(p.UTC - minUTC)
	}
	agg, err := Aggregate(ConcatRanks(stats))
	if err != nil {
		return nil, err
	}
	out := &Output{Tables: []Table{{Name: "stats", Frame: agg}}}
	out.Tables = append(out.Tables, PaceTables(series)...)
	out.Tables = append(out.Tables,
		Table{Name: "pace_delta_stats", Frame: PaceDeltaStats(series), NoCSV: true},
		Table{Name: "files", Frame: FilesFrame(Stems(parts))})
	return out, nil
}
