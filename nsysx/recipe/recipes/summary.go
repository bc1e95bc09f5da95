package recipes

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/nsysx/nsysx/nsysx/recipe"
	"github.com/nsysx/nsysx/nsysx/recipe/composite"
	"github.com/nsysx/nsysx/nsysx/recipe/pyframe"
	"github.com/nsysx/nsysx/nsysx/stats"
)

// summaryOptions are the option keys of the filtered summary recipes, in
// nsys's registration order (the .nsys-analysis Options between
// force_overwrite and mode).
var summaryOptions = []string{"input", "start", "end", "csv", "filter_time", "filter_nvtx"}

// statsNotebook is the notebook every summary recipe writes.
const statsNotebook = "stats.ipynb"

// summaryRecipes are the summary recipes of docs/recipes.md §2, one row
// each: name, display name, mapper (in the recipe's own file), what the
// statistics are of (Help is "Per-rank and overall statistics of WHAT.")
// and the options, nil for summaryOptions, and the map's cost (Recipe.MapCost;
// 0 for the default of 1). cuda_gpu_mem_size_sum has no
// filter at all, not even the default time window; nccl_sum has no
// filter-* option, but the deprecated --start/--end still filter.
var summaryRecipes = []struct {
	name, display string
	mapper        func(ctx context.Context, r *recipe.Report, o *recipe.Options, shared any) (*recipe.Part, error)
	of            string
	options       []string
	cost          float64
}{
	{"cuda_api_sum", "CUDA API Summary", mapAPISum, "CUDA runtime and driver API call durations, by API name", nil, cudaTableCost},
	{"cuda_gpu_kern_sum", "CUDA GPU Kernel Summary", mapKernSum, "CUDA kernel durations, by kernel (short) name and by device", nil, cudaTableCost},
	{"cuda_gpu_mem_size_sum", "CUDA GPU MemOps Summary (by Size)", mapMemSizeSum, "GPU memcpy/memset sizes, by operation and by device", []string{"input", "csv"}, cudaTableCost},
	{"cuda_gpu_mem_time_sum", "CUDA GPU MemOps Summary (by Time)", mapMemTimeSum, "GPU memcpy/memset durations, by operation and by device", nil, cudaTableCost},
	{"mpi_sum", "MPI Summary", mapMPISum, "MPI call durations (point-to-point, start/wait, collectives, other), by function name", nil, cudaTableCost},
	{"nccl_gpu_proj_sum", "NCCL GPU Projection Summary", mapNCCLProjSum, "NCCL ranges projected onto the GPU: the span of the GPU work each NCCL call launched", nil, ncclScanCost},
	{"nccl_sum", "NCCL Summary", mapNCCLSum, "the NCCL domain's NVTX ranges, by range name", []string{"input", "start", "end", "csv"}, ncclScanCost},
	{"nvtx_sum", "NVTX Range Summary", mapNVTXSum, "NVTX range durations (all domains and types), by range text", nil, nvtxSumCost},
	{"osrt_sum", "OS Runtime Summary", mapOSRTSum, "OS runtime library call durations, by function name", nil, cudaTableCost},
}

// cudaTableCost is the map cost of a summary of one CUDA (or OS runtime,
// MPI) table: the table is a part of the export, most of which is NVTX in
// the profiles of PyTorch training (a real 188 MB capture: NVTX_EVENTS
// 135 MB, the kernel table 13 MB), so a map holds well under the report's size.
const cudaTableCost = 0.5

// nvtxSumCost is the map cost of nvtx_sum: without an NVTX filter its map
// keeps every range of positive duration with its text, sorted in blocks,
// then the part's frame of one row per distinct text. A PyTorch capture's
// texts are nearly one per range (a real 165 MB capture: 1.63 M ranges,
// 1.62 M texts), so a map peaks at about 2.5 bytes a byte of SQLite export,
// and two such maps fit the in-flight budget (docs/performance.md, "Recipe
// nvtx_sum: maps in flight by their memory").
const nvtxSumCost = 2.5

// ncclScanCost is the map cost of nccl_sum and nccl_gpu_proj_sum before
// they find an NCCL domain: a gated scan of NVTX_EVENTS that keeps nothing
// (a report with the domain grows its share, composite.LoadNCCLFor), so
// that eight reports without NCCL map at once, as many as the budget's
// floor lets (recipe.MaxMapsInFlight), rather than five at the default of
// one byte a byte.
const ncclScanCost = 0.25

// Each summary recipe writes statsNotebook and merges its parts with
// StatsReduce (statsReduceConsume: the parts are the run's own), which
// takes them spilled (SpillStats).
func init() {
	for _, s := range summaryRecipes {
		opts := s.options
		if opts == nil {
			opts = summaryOptions
		}
		recipe.Register(&recipe.Recipe{Name: s.name, DisplayName: s.display, Map: s.mapper, Options: opts,
			Help:     "Per-rank and overall statistics of " + s.of + ".",
			Notebook: statsNotebook, Reduce: recipe.StatsReduceConsume, MapCost: s.cost, SpillStats: true})
	}
}

// noData is a mapper's answer for a report without data for the recipe:
// nothing, and a notice.
func noData(o *recipe.Options, r *recipe.Report) (*recipe.Part, error) {
	if o.Log != nil {
		o.Log(fmt.Sprintf("%s was successfully processed, but no data was found.", filepath.Base(r.Path)))
	}
	return nil, nil
}

// noDataOr returns err, or the no-data answer when err is nil.
func noDataOr(o *recipe.Options, r *recipe.Report, err error) (*recipe.Part, error) {
	if err != nil {
		return nil, err
	}
	return noData(o, r)
}

// filteredPositive returns the positive rows (positive) of those of s that
// pass the filters (FilterRows, with the NVTX ranges nv); ok is false when
// none passes them: the report has no data.
func filteredPositive(ctx context.Context, r *recipe.Report, o *recipe.Options, s composite.Span, nv *composite.NVTX) (rows []int, ok bool, err error) {
	keep, err := composite.FilterRows(ctx, r.Profile, o, s, nv)
	if err != nil || len(keep) == 0 {
		return nil, false, err
	}
	return positive(s, keep), true, nil
}

// positive returns the rows of keep whose end−start is positive; the
// summaries keep only those (docs/recipes.md §2.1).
func positive(s composite.Span, keep []int) []int {
	out := keep[:0:0]
	for _, i := range keep {
		if pyframe.Elapsed(s.End[i], s.Start[i]) > 0 {
			out = append(out, i)
		}
	}
	return out
}

// durations is end−start of rows as an int64 column, or as a float64 one
// when asFloat (pandas holds a column with NULLs as float64, and so the
// difference; docs/recipes.md §1.2).
func durations(s composite.Span, rows []int, asFloat bool) *pyframe.Column {
	if asFloat {
		v := make([]float64, len(rows))
		for k, i := range rows {
			v[k] = float64(s.End[i]) - float64(s.Start[i])
		}
		return pyframe.NewFloats("duration", v, nil)
	}
	v := make([]int64, len(rows))
	for k, i := range rows {
		v[k] = pyframe.Elapsed(s.End[i], s.Start[i])
	}
	return pyframe.NewInts("duration", pyframe.Int64, v, nil)
}

// nameCol is the rows of a resolved string column as a String column.
func nameCol(name string, v []string, valid pyframe.Mask, rows []int) *pyframe.Column {
	c := pyframe.NewStrings(name, pyframe.Pick(v, rows), valid.Pick(rows))
	if c.Valid != nil && composite.AllTrue(c.Valid) {
		c.Valid = nil
	}
	return c
}

// apiSum describes the positive durations of a (nameId, start, end) table's
// filtered rows by name, index Name (cuda_api_sum, osrt_sum), grouped by
// the reports' aggregation (groupValues). A report without the table has
// no data.
func apiSum(ctx context.Context, r *recipe.Report, o *recipe.Options, table string) (*recipe.Part, error) {
	keep, err := rowKeep(ctx, r, o, tableSpan(ctx, r, table))
	if err != nil {
		return nil, err
	}
	// The groups' rows are recorded only when two ids share a name (a
	// second scan): without them a map holds just the values.
	spec := stats.ValueSpec{Keep: keep(0), KeepAnyRow: keepAnyRow(o)}
	g, err := groupValuesAs(ctx, r, table, "nameId", spec)
	if err != nil {
		return nil, err
	}
	if g == nil || len(g.Keys) == 0 { // with Keep, a group has a row
		return noData(o, r)
	}
	if err := composite.NamesErr(ctx, r.Profile); err != nil {
		return nil, err
	}
	ng := nameGroups(len(g.Keys), func(k int) int { return g.Aggs[k].N() }, idName(ctx, r, g))
	if ng.shared() {
		spec.TrackRows = true
		if g, err = groupValuesAs(ctx, r, table, "nameId", spec); err != nil {
			return nil, err
		}
		ng = nameGroups(len(g.Keys), func(k int) int { return g.Aggs[k].N() }, idName(ctx, r, g))
	}
	return recipe.StatsPart(describeGroups(valueSource{g}, ng.name, len(ng.names), []*pyframe.Column{ng.nameColumn("Name", ng.names)}, pyframe.Int64), nil), nil
}
