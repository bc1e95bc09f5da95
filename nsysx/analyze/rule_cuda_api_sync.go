package analyze

func init() {
	register(&Report{Name: "cuda_api_sync", Title: "CUDA Synchronization APIs", Aliases: []string{"cuda-sync-api"}, Rule: true,
		Help: "cudaDeviceSynchronize and cudaStreamSynchronize calls, longest first: places where the host waits for the GPU.",
		Options: []Option{rowsOption,
			{Name: "process", Default: "-1", Help: "only this process ID (-1: all)"},
			{Name: "thread", Default: "-1", Help: "only this thread ID (-1: all)"}},
		Run: runCudaAPISync})
}

// runCudaAPISync lists the runtime calls whose name is LIKE
// cudaDeviceSynchronize% or cudaStreamSynchronize% (raw names, version suffix
// kept), by duration descending with ties in runtime row order (docs/stats.md §5.2).
func runCudaAPISync(c *Ctx) (*Result, error) {
	if r, skip := c.SkipNoStrings(); skip {
		return r, nil
	}
	if !c.Has(tRuntime) {
		return c.Skip(c.Path() + msgNoRuntime)
	}
	a, skip, err := ruleSetup(c, true, nil)
	if skip != nil || err != nil {
		return skip, err
	}
	sid, err := stringsLike(c, func(s string) bool {
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
	if err := needColumns(c, tRuntime, "start", "end", "globalTid", "nameId"); err != nil {
		return nil, err
	}
	calls, err := scanSyncCalls(c, newIDSet(sid))
	if err != nil {
		return nil, err
	}
	sortStablePDQ(calls, func(x, y syncCall) int { return -Compare(x.dur, y.dur) })
	for _, k := range calls[:a.limit(len(calls))] {
		pid, tid := Null, Null
		if k.gtid.Kind == IntKind {
			pid, tid = IntV(gPID(k.gtid.I)), IntV(gTID(k.gtid.I))
		}
		res.Add(k.dur, k.start, pid, tid, TextV(sid[k.name]), k.gtid, TextV("cuda"))
	}
	return res, nil
}

// syncCall is one runtime call of cuda_api_sync.
type syncCall struct {
	dur, start, gtid Value
	name             int64
}

// scanSyncCalls returns the (filtered) runtime calls whose nameId is in, in
// row order.
func scanSyncCalls(c *Ctx, in idSet) ([]syncCall, error) {
	var calls []syncCall
	sc, err := c.FilteredScanner(tRuntime, false, "start", "end", "globalTid", "nameId")
	if err != nil {
		return nil, err
	}
	add := func(_ int64, v RowVals) {
		name, null := sqlInt(v, 3)
		if null || !in.has(name) {
			return
		}
		k := syncCall{dur: Null, start: sqlValue(v, 0), gtid: sqlValue(v, 2), name: name}
		if s, sn := sqlInt(v, 0); !sn {
			if e, en := sqlInt(v, 1); !en {
				k.dur = IntV(e - s)
			}
		}
		calls = append(calls, k)
	}
	if ok, err := ScanGatedSQLite(sc, 3, in.has, add); ok || err != nil {
		return calls, err
	}
	return calls, sc.Run(add)
}
