package recipes

import (
	"context"
	"sort"

	"github.com/nsysx/nsysx/nsysx/recipe"
	"github.com/nsysx/nsysx/nsysx/recipe/composite"
	"github.com/nsysx/nsysx/nsysx/recipe/pyframe"
)

func init() {
	recipe.Register(&recipe.Recipe{
		Name:        "nccl_gpu_overlap_trace",
		DisplayName: "NCCL GPU Overlap Trace",
		Help:        "Every kernel of reports with NCCL kernels, with the share of its time overlapped by NCCL (communication) and by compute kernels.",
		Options:     summaryOptions,
		Notebook:    "trace.ipynb",
		Map:         mapNCCLOverlap,
		Reduce:      reduceNCCLOverlap,
	})
}

// mapNCCLOverlap lists, per (pid, device) group in key order, the group's
// NCCL kernels and then its compute kernels (each in row order), with the
// time each overlaps NCCL kernels (CommSum) and compute kernels (CompSum),
// as nsys's overlap sums (docs/recipes.md §1.10, §2.22). Times stay in the
// report's own base. A report without NCCL kernels yields nothing.
func mapNCCLOverlap(ctx context.Context, r *recipe.Report, o *recipe.Options, _ any) (*recipe.Part, error) {
	if noNCCL(ctx, r.Profile) {
		return noData(o, r)
	}
	k, keep, err := composite.FilteredKernels(ctx, r, o, nil, composite.KernelShort|composite.KernelPid)
	if err != nil {
		return nil, err
	}
	if n, _ := splitNCCL(k, keep); len(n) == 0 {
		return noData(o, r)
	}
	var rows []int
	var comm, comp []float64
	keys, groups := byDevice(k.PID, k.DeviceID, keep)
	for _, key := range keys {
		n, c := splitNCCL(k, groups[key])
		ns, cs := shifted(k, n, 0), shifted(k, c, 0)
		rows = append(append(rows, n...), c...)
		comm = append(append(comm, composite.OverlapSum(ns, nil)...), composite.OverlapSum(cs, ns)...)
		comp = append(append(comp, composite.OverlapSum(ns, cs)...), composite.OverlapSum(cs, nil)...)
	}
	f := &pyframe.Frame{Index: pyframe.NamedIndex, IndexCols: []string{"Name"}, Cols: []*pyframe.Column{
		pyframe.NewInts("Start", pyframe.Int64, pyframe.Pick(k.Start, rows), nil),
		pyframe.NewInts("End", pyframe.Int64, pyframe.Pick(k.End, rows), nil),
		pyframe.NewInts("PID", pyframe.Uint64, pyframe.Pick(k.PID, rows), nil),
		pyframe.NewInts("DeviceID", pyframe.Uint32, pyframe.Pick(k.DeviceID, rows), nil),
		pyframe.NewFloats("CommSum", comm, nil),
		pyframe.NewFloats("CompSum", comp, nil),
		nameCol("Name", k.ShortName, k.ShortValid, rows),
	}}
	return &recipe.Part{Frames: map[string]*pyframe.Frame{"trace": f}}, nil
}

// reduceNCCLOverlap turns the sums into percentages of each kernel's
// duration (rank_trace) and, per kernel name over all ranks, of the names'
// total duration (grouped_trace).
func reduceNCCLOverlap(_ context.Context, parts []*recipe.Part, _ *recipe.Options, _ any) (*recipe.Output, error) {
	all := recipe.ConcatRanksConsume(recipe.PartFrames(parts, "trace")) // the parts are not read again
	start, end := all.Find("Start").IntVals, all.Find("End").IntVals
	comm, comp := all.Find("CommSum").FloatVals, all.Find("CompSum").FloatVals
	commPct, compPct := make([]float64, len(start)), make([]float64, len(start))
	for i := range start {
		d := float64(end[i] - start[i])
		commPct[i], compPct[i] = pyframe.Round(comm[i]/d*100), pyframe.Round(comp[i]/d*100)
	}
	trace := &pyframe.Frame{Index: pyframe.NamedIndex, IndexCols: []string{"Name"}}
	for _, c := range all.Cols {
		switch c.Name {
		case "CommSum":
			c = pyframe.NewFloats("Communication Overlap", commPct, nil)
		case "CompSum":
			c = pyframe.NewFloats("Compute Overlap", compPct, nil)
		}
		trace.Cols = append(trace.Cols, c)
	}
	return &recipe.Output{Tables: []recipe.Table{
		{Name: "rank_trace", Frame: trace},
		{Name: "grouped_trace", Frame: groupedTrace(all)},
		{Name: "files", Frame: recipe.FilesFrame(recipe.Stems(parts))},
	}}, nil
}

// groupedTrace is grouped_trace: per kernel name (ascending; NULL names
// left out), the number of kernels and ΣCommSum/ΣDuration·100 and
// ΣCompSum/ΣDuration·100, rounded.
func groupedTrace(all *pyframe.Frame) *pyframe.Frame {
	type acc struct {
		n          int64
		comm, comp float64
		dur        int64
	}
	name := all.Find("Name")
	start, end := all.Find("Start").IntVals, all.Find("End").IntVals
	comm, comp := all.Find("CommSum").FloatVals, all.Find("CompSum").FloatVals
	m := map[string]*acc{}
	var names []string
	for i := range start {
		if name.IsNull(i) {
			continue
		}
		a := m[name.Strs[i]]
		if a == nil {
			a = &acc{}
			m[name.Strs[i]] = a
			names = append(names, name.Strs[i])
		}
		a.n++
		a.comm += comm[i]
		a.comp += comp[i]
		a.dur += end[i] - start[i]
	}
	sort.Strings(names)
	count := make([]int64, len(names))
	cm, cp := make([]float64, len(names)), make([]float64, len(names))
	for j, n := range names {
		a := m[n]
		count[j] = a.n
		cm[j], cp[j] = pyframe.Round(a.comm/float64(a.dur)*100), pyframe.Round(a.comp/float64(a.dur)*100)
	}
	return &pyframe.Frame{Index: pyframe.NamedIndex, IndexCols: []string{"Name"}, Cols: []*pyframe.Column{
		pyframe.NewInts("Count", pyframe.Int64, count, nil),
		pyframe.NewFloats("Communication Overlap", cm, nil),
		pyframe.NewFloats("Compute Overlap", cp, nil),
		pyframe.NewStrings("Name", names, nil),
	}}
}
