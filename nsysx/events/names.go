package events

import (
	"context"

	"github.com/nsysx/nsysx/nsysx/model"
)

// Labels reads a small id → text table of the export (an ENUM_ table, GPU
// or process names): empty when the table or a column is absent, the load's
// error when it cannot be read.
func Labels(ctx context.Context, p *model.Profile, table, idCol, textCol string) (map[int64]string, error) {
	out := map[int64]string{}
	if !p.HasColumn(table, idCol) || !p.HasColumn(table, textCol) {
		return out, nil
	}
	t, err := p.Load(ctx, table, idCol, textCol)
	if err != nil {
		return nil, err
	}
	ic, tc := t.Col(idCol), t.Col(textCol)
	for i := 0; i < t.N; i++ {
		out[ic.Int(i)] = tc.Str(i)
	}
	return out, nil
}

// MemcpyKinds names the memory copy kinds (ENUM_CUDA_MEMCPY_OPER: 1 is
// "Host-to-Device", ...).
func MemcpyKinds(ctx context.Context, p *model.Profile) (map[int64]string, error) {
	return Labels(ctx, p, TableEnumCUDAMemcpyOper, "id", "label")
}

// GPUNames names the GPUs by device id (TARGET_INFO_GPU).
func GPUNames(ctx context.Context, p *model.Profile) (map[int64]string, error) {
	return Labels(ctx, p, TableTargetInfoGPU, "id", "name")
}

// ProcessNames names the processes by pid (PROCESSES).
func ProcessNames(ctx context.Context, p *model.Profile) (map[int64]string, error) {
	return Labels(ctx, p, TableProcesses, "pid", "name")
}

// ThreadNames gives each named thread's name (ThreadNames, resolved through
// StringIds): empty when the table is absent.
func ThreadNames(ctx context.Context, p *model.Profile) (map[model.GlobalTid]string, error) {
	out := map[model.GlobalTid]string{}
	if !p.HasColumn(TableThreadNames, "globalTid") || !p.HasColumn(TableThreadNames, "nameId") {
		return out, nil
	}
	t, err := p.Load(ctx, TableThreadNames, "globalTid", "nameId")
	if err != nil {
		return nil, err
	}
	g, n := t.Col("globalTid"), t.Col("nameId")
	for i := 0; i < t.N; i++ {
		name, _ := p.String(ctx, n.Int(i))
		out[model.GlobalTid(g.Int(i))] = name
	}
	return out, nil
}
