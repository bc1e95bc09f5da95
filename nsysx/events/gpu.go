package events

import (
	"context"
	"slices"

	"github.com/nsysx/nsysx/nsysx/model"
)

// OpKind is the kind of a GPU operation.
type OpKind uint8

// Kinds of GPU operations, in the order GPUOps reads them.
const (
	OpKernel OpKind = iota
	OpMemcpy
	OpMemset
)

// GPUOp is one GPU operation of the trace: a kernel, a memory copy or a
// memset. Unknown values (a NULL cell, or a column the export lacks) read
// as 0, except Name.
type GPUOp struct {
	Kind       OpKind
	Start, End int64
	Device     int64
	Stream     int64
	Process    model.GlobalTid // the globalPid of the process that launched it
	Name       int64           // a kernel's short name (a StringIds id); -1 for none
}

// GPUOps reads the kernels, and with memory the memory copies and memsets,
// of p, kind by kind in table order; operations with a NULL start or end
// are left out. A table the export lacks has none.
func GPUOps(ctx context.Context, p *model.Profile, memory bool) ([]GPUOp, error) {
	tables := []string{TableKernel}
	if memory {
		tables = append(tables, TableMemcpy, TableMemset)
	}
	var out []GPUOp
	for k, tn := range tables {
		if !p.HasTable(tn) {
			continue
		}
		cols := []string{"start", "end"}
		opt := []string{"deviceId", "streamId", "globalPid"}
		if OpKind(k) == OpKernel {
			opt = append(opt, "shortName")
		}
		for _, c := range opt {
			if p.HasColumn(tn, c) {
				cols = append(cols, c)
			}
		}
		t, err := p.Load(ctx, tn, cols...)
		if err != nil {
			return nil, err
		}
		st, en := t.Col("start"), t.Col("end")
		dev, str, gp, sn := t.Col("deviceId"), t.Col("streamId"), t.Col("globalPid"), t.Col("shortName")
		out = slices.Grow(out, t.N) // appending row by row would allocate about 5 times the ops' size
		for i := 0; i < t.N; i++ {
			if st.IsNull(i) || en.IsNull(i) {
				continue
			}
			op := GPUOp{Kind: OpKind(k), Start: st.Int(i), End: en.Int(i), Name: -1}
			if dev != nil {
				op.Device = dev.Int(i)
			}
			if str != nil {
				op.Stream = str.Int(i)
			}
			if gp != nil && !gp.IsNull(i) {
				op.Process = model.GlobalTid(gp.Int(i))
			}
			if sn != nil && !sn.IsNull(i) {
				op.Name = sn.Int(i)
			}
			out = append(out, op)
		}
	}
	return out, nil
}
