package events

import (
	"context"

	"github.com/nsysx/nsysx/nsysx/model"
)

// OpGraph is a whole CUDA graph execution (CUPTI_ACTIVITY_KIND_GRAPH_TRACE,
// nsys profile --cuda-graph-trace=graph) among LaunchedOps.
const OpGraph OpKind = OpMemset + 1

// LaunchedOp is one GPU operation with what ties it to the host: the
// correlation id of the API call that launched it. Name is a kernel's
// short name and Long its demangled one (StringIds ids, -1 for none); a
// graph execution's Name is its graph id. For a copy, Pageable tells that
// its host side is pageable memory (the host then waits for it) and
// CopyKind is ENUM_CUDA_MEMCPY_OPER.
type LaunchedOp struct {
	Kind        OpKind
	Pageable    bool
	Start, End  int64
	Process     model.GlobalTid
	Device      int64
	Stream      int64
	Correlation int64
	Name, Long  int64
	CopyKind    int64
}

// launchSpec is what LaunchedOps reads of one table: the columns after the
// common ones, and how they fill an operation.
type launchSpec struct {
	kind  OpKind
	table string
	extra []string
	fill  func(op *LaunchedOp, f *model.Fields)
}

var launchSpecs = []launchSpec{
	{OpKernel, TableKernel, []string{"shortName", "demangledName"}, func(op *LaunchedOp, f *model.Fields) {
		op.Name, op.Long = intOr(f, 6, -1), intOr(f, 7, -1)
	}},
	{OpMemcpy, TableMemcpy, []string{"copyKind", "srcKind", "dstKind"}, func(op *LaunchedOp, f *model.Fields) {
		op.CopyKind = intOr(f, 6, 0)
		op.Pageable = intOr(f, 7, -1) == memPageable || intOr(f, 8, -1) == memPageable
	}},
	{OpMemset, TableMemset, nil, func(*LaunchedOp, *model.Fields) {}},
	{OpGraph, TableGraphTrace, []string{"graphId"}, func(op *LaunchedOp, f *model.Fields) {
		op.Name = intOr(f, 6, -1)
	}},
}

// memPageable is ENUM_CUDA_MEM_KIND's pageable host memory.
const memPageable = 0

// LaunchedOps reads the kernels, memory copies, memsets and whole CUDA
// graph executions of p, kind by kind in table order; operations with a
// NULL start or end are left out, a table the export lacks has none.
func LaunchedOps(ctx context.Context, p *model.Profile) ([]LaunchedOp, error) {
	var out []LaunchedOp
	for _, s := range launchSpecs {
		cols := append([]string{"start", "end", "globalPid", "deviceId", "streamId", "correlationId"}, s.extra...)
		err := eachRow(ctx, p, s.table, cols, func(f *model.Fields) error {
			if isNull(f, 0) || isNull(f, 1) {
				return nil
			}
			op := LaunchedOp{Kind: s.kind, Start: f.I[0], End: f.I[1], Process: model.GlobalTid(intOr(f, 2, 0)),
				Device: intOr(f, 3, 0), Stream: intOr(f, 4, 0), Correlation: intOr(f, 5, 0), Name: -1, Long: -1}
			s.fill(&op, f)
			out = append(out, op)
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}
