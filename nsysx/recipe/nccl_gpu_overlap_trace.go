package recipe

import (
	"context"
	"sort"
)

func init() {
	Register(&Recipe{
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
func mapNCCLOverlap(ctx context.Context, r *Report, o *Options, _ any) (*Part, error) {
	if noNCCL(ctx, r.Profile) {
		return noData(o, r)
	}
	k, keep, err := filteredKernels(ctx, r, o, nil, kernelShort|kernelPid)
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
		comm = append(append(comm, OverlapSum(ns, nil)...), OverlapSum(cs, ns)...)
		comp = append(append(comp, OverlapSum(ns, cs)...), OverlapSum(cs, nil)...)
	}
	f := &Frame{Index: NamedIndex, IndexCols: []string{"Name"}, Cols: []*Column{
		NewInts("Start", Int64, pick(k.Start, rows), nil),
		NewInts("End", Int64, pick(k.End, rows), nil),
		NewInts("PID", Uint64, pick(k.PID, rows), nil),
		NewInts("DeviceID", Uint32, pick(k.DeviceID, rows), nil),
		NewFloats("CommSum", comm, nil),
		NewFloats("CompSum", comp, nil),
		nameCol("Name", k.ShortName, k.ShortValid, rows),
	}}
	return &Part{Frames: map[string]*Frame{"trace": f}}, nil
}

// reduceNCCLOverlap turns the sums into percentages of each kernel's
// duration (rank_trace) and, per kernel name over all ranks, of the names'
// total duration (grouped_trace).
func reduceNCCLOverlap(_ context.Context, parts []*Part, _ *Options, _ any) (*Output, error) {
	all := concatRanksConsume(partFrames(parts, "trace")) // the parts are not read again
	start, end := all.Col("Start").Ints, all.Col("End").Ints
	comm, comp := all.Col("CommSum").Floats, all.Col("CompSum").Floats
	commPct, compPct := make([]float64, len(start)), make([]float64, len(start))
	for i := range start {
		d := float64(end[i] - start[i])
		commPct[i], compPct[i] = Round(comm[i]/d*100), Round(comp[i]/d*100)
	}
	trace := &Frame{Index: NamedIndex, IndexCols: []string{"Name"}}
	for _, c := range all.Cols {
		switch c.Name {
		case "CommSum":
			c = NewFloats("Communication Overlap", commPct, nil)
		case "CompSum":
			c = NewFloats("Compute Overlap", compPct, nil)
		}
		trace.Cols = append(trace.Cols, c)
	}
	return &Output{Tables: []Table{
		{Name: "rank_trace", Frame: trace},
		{Name: "grouped_trace", Frame: groupedTrace(all)},
		{Name: "files", Frame: FilesFrame(Stems(parts))},
	}}, nil
}

// groupedTrace is grouped_trace: per kernel name (ascending; NULL names
// left out), the number of kernels and ΣCommSum/ΣDuration·100 and
// ΣCompSum/ΣDuration·100, rounded.
func groupedTrace(all *Frame) *Frame {
	type acc struct {
		n          int64
		comm, comp float64
		dur        int64
	}
	name := all.Col("Name")
	start, end := all.Col("Start").Ints, all.Col("End").Ints
	comm, comp := all.Col("CommSum").Floats, all.Col("CompSum").Floats
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
		cm[j], cp[j] = Round(a.comm/float64(a.dur)*100), Round(a.comp/float64(a.dur)*100)
	}
	return &Frame{Index: NamedIndex, IndexCols: []string{"Name"}, Cols: []*Column{
		NewInts("Count", Int64, count, nil),
		NewFloats("Communication Overlap", cm, nil),
		NewFloats("Compute Overlap", cp, nil),
		NewStrings("Name", names, nil),
	}}
}
