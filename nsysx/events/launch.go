package events

import (
	"context"

	"github.com/nsysx/nsysx/nsysx/model"
)

// Launches gives each GPU operation of GPUOps(ctx, p, memory), in the same
// order, the start of the CUDA API call that launched it: the runtime call
// of the same process with the operation's correlation id; -1 where the
// export has no such call (or no runtime table, or no correlation ids).
func Launches(ctx context.Context, p *model.Profile, memory bool) ([]int64, error) {
	calls, err := runtimeStarts(ctx, p)
	if err != nil {
		return nil, err
	}
	tables := []string{TableKernel}
	if memory {
		tables = append(tables, TableMemcpy, TableMemset)
	}
	var out []int64
	for _, tn := range tables {
		if !p.HasTable(tn) {
			continue
		}
		cols := []string{"start", "end"}
		for _, c := range []string{"correlationId", "globalPid"} {
			if p.HasColumn(tn, c) {
				cols = append(cols, c)
			}
		}
		t, err := p.Load(ctx, tn, cols...)
		if err != nil {
			return nil, err
		}
		st, en, corr, gp := t.Col("start"), t.Col("end"), t.Col("correlationId"), t.Col("globalPid")
		for i := 0; i < t.N; i++ {
			if st.IsNull(i) || en.IsNull(i) { // GPUOps leaves these out
				continue
			}
			at := int64(-1)
			if corr != nil && gp != nil && !corr.IsNull(i) && !gp.IsNull(i) {
				if s, ok := calls[launchKey(model.GlobalTid(gp.Int(i)), corr.Int(i))]; ok {
					at = s
				}
			}
			out = append(out, at)
		}
	}
	return out, nil
}

// launchKey is a (process, correlation id) pair: correlation ids are
// unique only within a process.
func launchKey(g model.GlobalTid, corr int64) [2]int64 { return [2]int64{g.Process().Upper(), corr} }

// runtimeStarts maps each runtime call's (process, correlation id) to its
// start.
func runtimeStarts(ctx context.Context, p *model.Profile) (map[[2]int64]int64, error) {
	out := map[[2]int64]int64{}
	if !p.HasColumn(TableRuntime, "correlationId") || !p.HasColumn(TableRuntime, "globalTid") {
		return out, nil
	}
	t, err := p.Load(ctx, TableRuntime, "start", "correlationId", "globalTid")
	if err != nil {
		return nil, err
	}
	st, corr, gt := t.Col("start"), t.Col("correlationId"), t.Col("globalTid")
	for i := 0; i < t.N; i++ {
		if st.IsNull(i) || corr.IsNull(i) || gt.IsNull(i) {
			continue
		}
		out[launchKey(model.GlobalTid(gt.Int(i)), corr.Int(i))] = st.Int(i)
	}
	return out, nil
}
