package nsysx

import "slices"

func init() {
	register(&Report{Name: "cuda_api_sync", Title: "CUDA Synchronization APIs", Aliases: []string{"cuda-sync-api"}, Rule: true,
		Help: "cudaDeviceSynchronize and cudaStreamSynchronize calls, longest first: places where the host waits for the GPU.",
		Options: []Option{rowsOption,
			{Name: "process", Default: "-1", Help: "only this process ID (-1: all)"},
			{Name: "thread", Default: "-1", Help: "only this thread ID (-1: all)"}},
		run: runCudaAPISync})
}

// runCudaAPISync lists the runtime calls whose name is LIKE
// cudaDeviceSynchronize% or cudaStreamSynchronize% (raw names, version suffix
// kept), by duration descending with ties in runtime row order (§5.2).
func runCudaAPISync(c *Ctx) (*Result, error) {
	if r, skip := c.skipNoStrings(); skip {
		return r, nil
	}
	if !c.Has(tRuntime) {
		return c.Skip(c.Path() + msgNoRuntime)
	}
	a, skip, err := c.ruleSetup(true)
	if skip != nil || err != nil {
		return skip, err
	}
	sid, err := c.stringsLike(func(s string) bool {
		return likeASCII(s, "cudaDeviceSynchronize%") || likeASCII(s, "cudaStreamSynchronize%")
	})
	if err != nil {
		return nil, err
	}
	res := newRuleResult(c, a, adviceSyncAPI, noResultSyncAPI,
		"Duration:dur_ns", "Start:ts_ns", "PID", "TID", "API Name", "_Global ID", "_API")
	if len(sid) == 0 {
		return res, nil
	}
	t, err := c.Load(tRuntime, "start", "end", "globalTid", "nameId")
	if err != nil {
		return nil, err
	}
	st, en, g, name := t.Col("start"), t.Col("end"), t.Col("globalTid"), t.Col("nameId")
	var rows []int32
	for i := 0; i < t.N; i++ {
		if name.IsNull(i) || !a.keepThread(g, i) {
			continue
		}
		if _, ok := sid[name.Ints[i]]; ok {
			rows = append(rows, int32(i))
		}
	}
	slices.SortStableFunc(rows, func(x, y int32) int {
		return -Compare(nv2sub(en, st, int(x)), nv2sub(en, st, int(y)))
	})
	for _, r := range rows[:a.limit(len(rows))] {
		i := int(r)
		pid, tid := Null, Null
		if !g.IsNull(i) {
			pid, tid = IntV(gPID(g.Ints[i])), IntV(gTID(g.Ints[i]))
		}
		res.Add(nv2sub(en, st, i), nv(st, i), pid, tid, TextV(sid[name.Ints[i]]), nv(g, i), TextV("cuda"))
	}
	return res, nil
}
