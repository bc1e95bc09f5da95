package recipes

import (
	"context"

	"github.com/nsysx/nsysx/nsysx"
	"github.com/nsysx/nsysx/nsysx/recipe"
	"github.com/nsysx/nsysx/nsysx/recipe/composite"
	"github.com/nsysx/nsysx/nsysx/recipe/pyframe"
)

// projOptions are the option keys of nvtx_gpu_proj_sum (docs/recipes.md
// §2.7), in nsys's registration order.
var projOptions = []string{"input", "start", "end", "csv", "filter_time", "filter_nvtx", "filter_projected_nvtx"}

// projSource says what a projection recipe projects and onto which CUDA
// rows: NVTX rows (keep selects some; nil = all), CUDA_COMBINED with or
// without the CUDA graph rows, grouped by keys (nil = one group).
type projSource struct {
	nv     *composite.NVTX // the projected ranges
	filter *composite.NVTX // the full NVTX composite, for --filter-nvtx (nil: loaded)
	keep   []bool
	graphs bool
	keys   func(*cudaRows) [][]int64
	hier   bool
	cuda   *cudaRows // the CUDA side when the caller read it (rangeCUDA), else loaded
}

// projectReport loads the CUDA side, filters it on its GPU times (the NVTX
// side is not filtered) and runs P (docs/recipes.md §2.7 steps 1–3). It
// returns nil when either side is empty or nothing projects.
func projectReport(ctx context.Context, p *nsysx.Profile, o *recipe.Options, s projSource) (*Projection, error) {
	if s.nv.Len() == 0 {
		return nil, nil
	}
	c := s.cuda
	switch {
	case c != nil: // read by the caller
	case s.graphs:
		var err error
		if c, err = loadProjCUDA(ctx, p); err != nil {
			return nil, err
		}
	default:
		comb, err := composite.LoadCombined(ctx, p, nil)
		if err != nil {
			return nil, err
		}
		c = combinedCUDA(comb)
	}
	rows, err := composite.FilterRows(ctx, p, o, c.span(), s.filter)
	if err != nil || len(rows) == 0 {
		return nil, err
	}
	var keys [][]int64
	if s.keys != nil {
		keys = s.keys(c)
	}
	pr := Project(projNVTX(s.nv, s.keep), projCUDA(c, rows, keys), s.hier)
	if pr.Len() == 0 {
		return nil, nil
	}
	return pr, nil
}

// projText is the projected rows' NVTX text as a String column.
func projText(name string, nv *composite.NVTX, pr *Projection, rows []int) *pyframe.Column {
	v := make([]string, len(rows))
	var valid pyframe.Mask
	for k, i := range rows {
		r := pr.NVTXRow[i]
		if !nv.TextValid.Valid(r) {
			valid = pyframe.SetNull(valid, len(rows), k)
			continue
		}
		v[k] = nv.Text[r]
	}
	return pyframe.NewStrings(name, v, valid)
}

// projDurations returns the projected rows with a positive duration and
// their durations (int64: GPU times).
func projDurations(pr *Projection) ([]int, *pyframe.Column) {
	var rows []int
	var d []int64
	for i := range pr.Start {
		if v := pyframe.Elapsed(pr.End[i], pr.Start[i]); v > 0 {
			rows = append(rows, i)
			d = append(d, v)
		}
	}
	return rows, pyframe.NewInts("duration", pyframe.Int64, d, nil)
}

// describeProjected is the projection summaries' per-rank frame: the
// positive projected durations described by text.
func describeProjected(nv *composite.NVTX, pr *Projection) *pyframe.Frame {
	rows, dur := projDurations(pr)
	return pyframe.Describe([]*pyframe.Column{projText("Text", nv, pr, rows)}, dur)
}
