package recipes

import (
	"context"

	"github.com/nsysx/nsysx/nsysx/recipe"
	"github.com/nsysx/nsysx/nsysx/recipe/composite"
	"github.com/nsysx/nsysx/nsysx/recipe/pyframe"
)

// cpuSumName is nvtx_gpu_proj_sum's extra column.
const cpuSumName = "Sum of NVTX Ranges on CPU"

func init() {
	recipe.Register(&recipe.Recipe{
		Name:        "nvtx_gpu_proj_sum",
		DisplayName: "NVTX GPU Projection Summary",
		Help: "Per-rank and overall statistics of NVTX ranges projected onto the GPU (the span of the GPU work " +
			"launched inside each range), next to the ranges' own CPU time.",
		Options:       projOptions,
		Notebook:      statsNotebook,
		MoreNotebooks: []string{"topN.ipynb"},
		Map:           mapNVTXProjSum,
		MapCost:       3, // the NVTX composite and the projection: peak heap about 3 bytes a byte of SQLite export (train tiled 24 times, GOGC 50)
		Reduce:        recipe.StatsReduceWith(recipe.AggExtra{Name: cpuSumName, Func: sumOf(cpuSumName)}),
	})
}

// mapNVTXProjSum projects every NVTX range onto CUDA_COMBINED with the CUDA
// graph rows, describes the positive projected durations by text and adds
// each text's CPU time (docs/recipes.md §2.7).
func mapNVTXProjSum(ctx context.Context, r *recipe.Report, o *recipe.Options, _ any) (*recipe.Part, error) {
	var nv, filter *composite.NVTX
	var err error
	if o.FilterNVTX == nil && o.FilterProjectedNVTX == nil && canScanNVTX(r.Profile) {
		nv, err = loadNVTXLean(ctx, r.Profile, true) // the columns P and the summary read
	} else {
		nv, err = composite.LoadNVTX(ctx, r.Profile)
		filter = nv
	}
	if err != nil {
		return nil, err
	}
	pr, err := projectReport(ctx, r.Profile, o, projSource{nv: nv, filter: filter, graphs: true})
	if err != nil {
		return nil, err
	}
	if pr == nil {
		return noData(o, r)
	}
	st := describeProjected(nv, pr)
	addCPUSum(st, nv)
	return recipe.StatsPart(st, nil), nil
}

// addCPUSum inserts, before the index, the sum of end−start of the
// unfiltered NVTX rows with a positive duration, per text (float64; NULL
// for a text without one).
func addCPUSum(st *pyframe.Frame, nv *composite.NVTX) {
	sum := map[string]float64{}
	for i := range nv.Start {
		if !nv.EndValid.Valid(i) || !nv.TextValid.Valid(i) {
			continue
		}
		if d := float64(nv.End[i]) - float64(nv.Start[i]); d > 0 {
			sum[nv.Text[i]] += d
		}
	}
	text := st.Find("Text")
	c := pyframe.NewFloats(cpuSumName, make([]float64, st.Rows()), nil)
	for i := range c.FloatVals {
		v, ok := sum[text.Strs[i]]
		if !ok || text.IsNull(i) {
			c.SetNull(i)
			continue
		}
		c.FloatVals[i] = v
	}
	at := len(st.Cols) - len(st.IndexCols)
	st.Cols = append(st.Cols[:at], append([]*pyframe.Column{c}, st.Cols[at:]...)...)
}

// sumOf is an all_stats extra: the sum of a per-rank column's non-NULL
// values (0 when all are NULL, as pandas sums).
func sumOf(name string) func(rank *pyframe.Frame, rows []int) (float64, bool) {
	return func(rank *pyframe.Frame, rows []int) (float64, bool) {
		c := rank.Find(name)
		s := 0.0
		for _, i := range rows {
			if !c.IsNull(i) {
				s += c.FloatVals[i]
			}
		}
		return s, true
	}
}
