package recipe

import (
	"context"
	"fmt"
	"path/filepath"
)

// summaryOptions are the option keys of the filtered summary recipes, in
// nsys's registration order (the .nsys-analysis Options between
// force_overwrite and mode).
var summaryOptions = []string{"input", "start", "end", "csv", "filter_time", "filter_nvtx"}

// statsNotebook is the notebook every summary recipe writes.
const statsNotebook = "stats.ipynb"

// The summary recipes of docs/recipes.md §2: each writes statsNotebook and
// merges its parts with StatsReduce; Map is in the recipe's own file.
func init() {
	for _, r := range []*Recipe{
		{Name: "cuda_api_sum", DisplayName: "CUDA API Summary", Map: mapAPISum,
			Options: summaryOptions,
			Help:    "Per-rank and overall statistics of CUDA runtime and driver API call durations, by API name."},
		{Name: "cuda_gpu_kern_sum", DisplayName: "CUDA GPU Kernel Summary", Map: mapKernSum,
			Options: summaryOptions,
			Help:    "Per-rank and overall statistics of CUDA kernel durations, by kernel (short) name and by device."},
		{Name: "cuda_gpu_mem_size_sum", DisplayName: "CUDA GPU MemOps Summary (by Size)", Map: mapMemSizeSum,
			// No filter at all: not even the default time window.
			Options: []string{"input", "csv"},
			Help:    "Per-rank and overall statistics of GPU memcpy/memset sizes, by operation and by device."},
		{Name: "cuda_gpu_mem_time_sum", DisplayName: "CUDA GPU MemOps Summary (by Time)", Map: mapMemTimeSum,
			Options: summaryOptions,
			Help:    "Per-rank and overall statistics of GPU memcpy/memset durations, by operation and by device."},
		{Name: "mpi_sum", DisplayName: "MPI Summary", Map: mapMPISum,
			Options: summaryOptions,
			Help:    "Per-rank and overall statistics of MPI call durations (point-to-point, start/wait, collectives, other), by function name."},
		{Name: "nccl_gpu_proj_sum", DisplayName: "NCCL GPU Projection Summary", Map: mapNCCLProjSum,
			Options: summaryOptions,
			Help:    "Per-rank and overall statistics of NCCL ranges projected onto the GPU: the span of the GPU work each NCCL call launched."},
		{Name: "nccl_sum", DisplayName: "NCCL Summary", Map: mapNCCLSum,
			// No filter-* option; the deprecated --start/--end still filter.
			Options: []string{"input", "start", "end", "csv"},
			Help:    "Per-rank and overall statistics of the NCCL domain's NVTX ranges, by range name."},
		{Name: "nvtx_sum", DisplayName: "NVTX Range Summary", Map: mapNVTXSum,
			Options: summaryOptions,
			Help:    "Per-rank and overall statistics of NVTX range durations (all domains and types), by range text."},
		{Name: "osrt_sum", DisplayName: "OS Runtime Summary", Map: mapOSRTSum,
			Options: summaryOptions,
			Help:    "Per-rank and overall statistics of OS runtime library call durations, by function name."},
	} {
		r.Notebook, r.Reduce = statsNotebook, StatsReduce
		Register(r)
	}
}

// noData is a mapper's answer for a report without data for the recipe:
// nothing, and a notice.
func noData(o *Options, r *Report) (*Part, error) {
	if o.Log != nil {
		o.Log(fmt.Sprintf("%s was successfully processed, but no data was found.", filepath.Base(r.Path)))
	}
	return nil, nil
}

// positive returns the rows of keep whose end−start is positive; the
// summaries keep only those (docs/recipes.md §2.1).
func positive(s Span, keep []int) []int {
	out := keep[:0:0]
	for _, i := range keep {
		if s.End[i]-s.Start[i] > 0 {
			out = append(out, i)
		}
	}
	return out
}

// durations is end−start of rows as an int64 column, or as a float64 one
// when asFloat (pandas holds a column with NULLs as float64, and so the
// difference; docs/recipes.md §1.2).
func durations(s Span, rows []int, asFloat bool) *Column {
	if asFloat {
		v := make([]float64, len(rows))
		for k, i := range rows {
			v[k] = float64(s.End[i]) - float64(s.Start[i])
		}
		return NewFloats("duration", v, nil)
	}
	v := make([]int64, len(rows))
	for k, i := range rows {
		v[k] = s.End[i] - s.Start[i]
	}
	return NewInts("duration", Int64, v, nil)
}

// nameCol is the rows of a resolved string column as a String column.
func nameCol(name string, v []string, valid Mask, rows []int) *Column {
	c := NewStrings(name, pickStrs(v, rows), valid.pick(rows))
	if c.Valid != nil && allTrue(c.Valid) {
		c.Valid = nil
	}
	return c
}

// apiSum describes the positive durations of a (nameId, start, end) table's
// filtered rows by name, index Name (cuda_api_sum, osrt_sum). A report
// without the table has no data.
func apiSum(ctx context.Context, r *Report, o *Options, table string) (*Part, error) {
	t, err := loadTable(ctx, r.Profile, table, []string{"start", "end", "nameId"}, nil)
	if err != nil {
		return nil, err
	}
	var s Span
	s.Start, s.StartValid = ints(t, "start")
	s.End, s.EndValid = ints(t, "end")
	keep, err := FilterRows(ctx, r.Profile, o, s, nil)
	if err != nil {
		return nil, err
	}
	if len(keep) == 0 {
		return noData(o, r)
	}
	names, valid := strs(ctx, r.Profile, t, "nameId")
	rows := positive(s, keep)
	name := nameCol("Name", names, valid, rows)
	return StatsPart(Describe([]*Column{name}, durations(s, rows, false)), nil), nil
}
