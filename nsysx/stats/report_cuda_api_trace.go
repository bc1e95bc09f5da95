package stats

import "github.com/nsysx/nsysx/nsysx/events"

// runAPITrace lists every CUDA runtime/driver API call in start order, one
// row per (call, name of its thread): ThreadNames may hold several names for
// one thread, and a thread without one gives a row with NULL names. The rows
// are computed from the loaded columns as they are written (no copy).
func runAPITrace(c *Ctx) (*Result, error) {
	if r, skip := c.SkipNoStrings(); skip {
		return r, nil
	}
	if !c.Has(events.TableThreadNames) {
		return c.Skip(c.Path() + " file does not contain ThreadNames table.")
	}
	if !c.Has(tRuntime) {
		return c.Skip(c.Path() + " does not contain CUDA trace data.")
	}
	t, err := apiCalls(c).Load("start", "end", "nameId", "returnValue", "correlationId", "globalTid")
	if err != nil {
		return nil, err
	}
	threads, err := threadNames(c)
	if err != nil {
		return nil, err
	}
	rows, names := apiTraceRows(t, threads)
	return apiTraceResult(c, t, rows, names, threads), nil
}

// threadName is one ThreadNames row: its priority and name.
type threadName struct{ pri, name Value }

// threadNames lists each thread's ThreadNames rows, by globalTid, in rowid order.
func threadNames(c *Ctx) (map[int64][]threadName, error) {
	tn, err := c.LoadRaw(events.TableThreadNames, "nameId", "priority", "globalTid")
	if err != nil {
		return nil, err
	}
	threads := map[int64][]threadName{}
	g := tn.Col("globalTid")
	for i := 0; i < tn.N; i++ {
		if !g.IsNull(i) {
			threads[g.Ints[i]] = append(threads[g.Ints[i]], threadName{nv(tn.Col("priority"), i), c.Str(tn.Col("nameId"), i)})
		}
	}
	return threads, nil
}

// apiTraceRows returns the output rows as (call row, thread name index or
// -1): names is nil when every thread has at most one name (then the index
// is 0 or -1, looked up from the call's thread).
func apiTraceRows(t *Table, threads map[int64][]threadName) (rows, names []int32) {
	order := sortedByStart(t)
	g := t.Col("globalTid")
	multi := false
	for _, ths := range threads {
		multi = multi || len(ths) > 1
	}
	rows = make([]int32, 0, len(order))
	for _, i := range order {
		n := 0
		if !g.IsNull(i) {
			n = len(threads[g.Ints[i]])
		}
		if !multi || n <= 1 {
			rows = append(rows, int32(i))
			if multi {
				names = append(names, int32(n-1))
			}
			continue
		}
		for k := 0; k < n; k++ {
			rows = append(rows, int32(i))
			names = append(names, int32(k))
		}
	}
	return rows, names
}

// apiTraceResult makes the computed columns of the trace.
func apiTraceResult(c *Ctx, t *Table, rows, names []int32, threads map[int64][]threadName) *Result {
	st, en, g, nameID := t.Col("start"), t.Col("end"), t.Col("globalTid"), t.Col("nameId")
	calls := map[int64]Value{} // API names without their version suffix, made up front: cells are computed concurrently
	for i := 0; i < t.N; i++ {
		if !nameID.IsNull(i) {
			if _, ok := calls[nameID.Int(i)]; !ok {
				calls[nameID.Int(i)] = stripV(c.Str(nameID, i))
			}
		}
	}
	thread := func(k int) (threadName, bool) {
		i := int(rows[k])
		if g.IsNull(i) {
			return threadName{}, false
		}
		ths, x := threads[g.Ints[i]], 0
		if names != nil {
			x = int(names[k])
		}
		if x < 0 || x >= len(ths) {
			return threadName{}, false
		}
		return ths[x], true
	}
	res := &Result{Report: c.Report.Name, Title: c.Report.Title}
	add := func(name string, kind Kind, fn func(k, i int) Value) {
		res.Cols = append(res.Cols, ComputedCol(name, kind, len(rows), func(k int) Value { return fn(k, int(rows[k])) }))
	}
	gtid := func(f func(int64) int64) func(k, i int) Value {
		return func(_, i int) Value {
			if g.IsNull(i) {
				return Null
			}
			return IntV(f(g.Ints[i]))
		}
	}
	add("Start:ts_ns", IntKind, func(_, i int) Value { return nv(st, i) })
	add("Duration:dur_ns", IntKind, func(_, i int) Value {
		if v, ok := dur(st, en, i); ok {
			return IntV(v)
		}
		return Null
	})
	add("Name", TextKind, func(_, i int) Value {
		if nameID.IsNull(i) {
			return Null
		}
		return calls[nameID.Int(i)]
	})
	add("Result", IntKind, func(_, i int) Value { return nv(t.Col("returnValue"), i) })
	add("CorrID", IntKind, func(_, i int) Value { return nv(t.Col("correlationId"), i) })
	add("Pid", IntKind, gtid(gPID))
	add("Tid", IntKind, gtid(gTID))
	add("T-Pri", IntKind, func(k, _ int) Value { th, _ := thread(k); return th.pri })
	add("Thread Name", TextKind, func(k, _ int) Value { th, _ := thread(k); return th.name })
	return res
}
