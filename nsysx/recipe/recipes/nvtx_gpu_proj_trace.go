package recipes

import (
	"context"
	"slices"

	"github.com/nsysx/nsysx/nsysx"
	"github.com/nsysx/nsysx/nsysx/recipe"
	"github.com/nsysx/nsysx/nsysx/recipe/composite"
	"github.com/nsysx/nsysx/nsysx/recipe/pyframe"
)

func init() {
	recipe.Register(&recipe.Recipe{
		Name:        "nvtx_gpu_proj_trace",
		DisplayName: "NVTX GPU Projection Trace",
		Help: "Every NVTX range projected onto the GPU, with its nesting (parent, level, range stack, children), " +
			"optionally per GPU or per stream.",
		Options:  []string{"input", "start", "end", "csv", "per_gpu", "per_stream", "filter_time", "filter_nvtx", "filter_projected_nvtx"},
		Notebook: "trace.ipynb",
		Prepare:  checkPerGroup,
		Map:      mapNVTXProjTrace,
		MapCost:  2, // the NVTX spans, the CUDA side and the projection, then the projected rows' text: peak live about 0.7 byte a byte of SQLite export (rank0 of /tmp/real/large: 135 MB of a 189 MB report); 2 lets two large reports map at once under the 1 GB budget (1.5, three at once, peaked at 1.19-1.31 GB RSS on the eight large reports, 2 at 1.09-1.19)
		Reduce:   reduceFrames("trace", "trace"),
	})
}

// checkPerGroup refuses --per-gpu together with --per-stream, as nsys's
// argument parser does.
func checkPerGroup(_ context.Context, _ []*recipe.Report, o *recipe.Options) (any, error) {
	if o.PerGPU && o.PerStream {
		return nil, recipe.Usagef("argument --per-stream: not allowed with argument --per-gpu")
	}
	return nil, nil
}

// mapNVTXProjTrace projects every NVTX range with the hierarchy, grouped
// per GPU or per stream when asked (docs/recipes.md §2.8).
func mapNVTXProjTrace(ctx context.Context, r *recipe.Report, o *recipe.Options, _ any) (*recipe.Part, error) {
	nv, spans, err := loadTraceNVTX(ctx, r.Profile, o)
	if err != nil {
		return nil, err
	}
	src := projSource{nv: nv, filter: nv, graphs: true, hier: true}
	switch {
	case o.PerStream:
		src.keys = func(c *cudaRows) [][]int64 { return [][]int64{c.Device, c.Stream} }
	case o.PerGPU:
		src.keys = func(c *cudaRows) [][]int64 { return [][]int64{c.Device} }
	}
	pr, err := projectReport(ctx, r.Profile, o, src)
	if err != nil {
		return nil, err
	}
	if pr == nil {
		return noData(o, r)
	}
	var text *pyframe.Column
	if spans == nil {
		text = projText("Text", nv, pr, pyframe.Seq(pr.Len()))
	} else {
		// P's inputs are not read again: their tables can go before the
		// text is read.
		rowids := spans.RowIDs
		r.Profile.Forget()
		if text, err = projRowsText(ctx, r.Profile, rowids, pr); err != nil {
			return nil, err
		}
	}
	return &recipe.Part{Frames: map[string]*pyframe.Frame{"trace": traceFrame(text, pr)}}, nil
}

// loadTraceNVTX is the NVTX composite the trace projects: without text
// (and the table, for projRowsText) unless an NVTX filter needs it.
func loadTraceNVTX(ctx context.Context, p *nsysx.Profile, o *recipe.Options) (*composite.NVTX, *nsysx.Table, error) {
	if needsNVTXText(o) {
		nv, err := composite.LoadNVTX(ctx, p)
		return nv, nil, err
	}
	return loadNVTXSpans(ctx, p)
}

// traceFrame is one rank's trace.parquet rows, numbered 0..n−1; text is
// the rows' Text column.
func traceFrame(text *pyframe.Column, pr *Projection) *pyframe.Frame {
	parent := pyframe.NewInts("Parent ID", pyframe.Int64, pr.Parent, pyframe.Mask(pr.ParentValid))
	if !slices.Contains(pr.ParentValid, false) {
		parent.Valid = nil
	}
	f := &pyframe.Frame{Index: pyframe.RangeIndex, Cols: []*pyframe.Column{
		text,
		pyframe.NewInts("Start", pyframe.Int64, pr.Start, nil),
		pyframe.NewInts("End", pyframe.Int64, pr.End, nil),
		pyframe.NewInts("PID", pyframe.Uint64, composite.Derive(pr.GlobalTid, composite.PidOf), nil),
		pyframe.NewInts("TID", pyframe.Uint64, composite.Derive(pr.GlobalTid, composite.TidOf), nil),
		pyframe.NewInts("Stack Level", pyframe.Int64, pr.Level, nil),
		pyframe.NewInts("Children Count", pyframe.Int64, pr.Children, nil),
		pyframe.NewInts("Range ID", pyframe.Int64, pr.RangeID, nil),
		parent,
		{Name: "Range Stack", Type: pyframe.ListInt64, Lists: pr.Stack},
	}}
	switch len(pr.Keys) {
	case 1: // --per-gpu: nsys writes int64 here (its golden), not the kernel table's uint32
		f.Cols = append(f.Cols, pyframe.NewInts("Device ID", pyframe.Int64, pr.Keys[0], nil))
	case 2:
		f.Cols = append(f.Cols, pyframe.NewInts("Device ID", pyframe.Uint32, pr.Keys[0], nil))
	}
	if len(pr.Keys) > 1 {
		f.Cols = append(f.Cols, pyframe.NewInts("Stream ID", pyframe.Uint64, pr.Keys[1], nil))
	}
	return f
}

// reduceFrames concatenates the parts' frame named frame, with Rank, into
// the output table named table, followed by files.
func reduceFrames(frame, table string) func(context.Context, []*recipe.Part, *recipe.Options, any) (*recipe.Output, error) {
	return func(_ context.Context, parts []*recipe.Part, _ *recipe.Options, _ any) (*recipe.Output, error) {
		f := recipe.ConcatRanksConsume(recipe.PartFrames(parts, frame)) // the parts are not read again
		if f == nil {
			return nil, recipe.ErrNoData
		}
		return &recipe.Output{Tables: []recipe.Table{{Name: table, Frame: f}, {Name: "files", Frame: recipe.FilesFrame(recipe.Stems(parts))}}}, nil
	}
}
