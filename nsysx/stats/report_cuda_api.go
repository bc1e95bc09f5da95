package stats

func init() {
	register(&Report{Name: "cuda_api_sum", Title: "CUDA API Summary", Aliases: []string{"cudaapisum"},
		Help: "CUDA runtime and driver API calls grouped by function: share of API time, call counts and duration statistics.",
		Run:  runAPISum})
	register(&Report{Name: "cuda_api_trace", Title: "CUDA API Trace", Aliases: []string{"cudaapitrace"},
		Help: "Every CUDA API call in start order, with its result code, correlation id, process, thread and thread name.",
		Run:  runAPITrace})
}

func runAPISum(c *Ctx) (*Result, error) {
	if r, skip := c.SkipNoStrings(); skip {
		return r, nil
	}
	if !c.Has(tRuntime) {
		return c.Skip(c.Path() + " does not contain CUDA trace data.")
	}
	return summaryByNameID(c, tRuntime, "Num Calls", stripV, ValueSpec{})
}

// summaryByNameID summarises table's durations by nameId (ValuesByID;
// spec picks the rows), giving STATS(d, count) and the StringIds name
// (NULL ids one group); natural order is by id.
func summaryByNameID(c *Ctx, table, countLabel string, name func(Value) Value, spec ValueSpec) (*Result, error) {
	g, err := ValuesByID(c, table, "nameId", spec)
	if err != nil {
		return nil, err
	}
	var grand int64
	for i := range g.Aggs {
		grand = addInt(grand, g.Aggs[i].Total())
	}
	res := NewResult(c.Report.Name, c.Report.Title, append(SummaryCols(countLabel), "Name", "_id")...)
	for i, k := range g.Keys {
		n := Null
		if k.ID.Kind == IntKind {
			if s, ok := c.String(k.ID.I); ok {
				n = name(TextV(s))
			}
		}
		res.Add(append(g.Aggs[i].Summary(grand), n, k.ID)...)
	}
	sortRows(res, byKeys(9))
	sortRows(res, byKeys(-2))
	res.Cols = res.Cols[:9]
	return res, nil
}

// sortedByStart returns row indexes ordered by start (stable: rowid order on ties).
func sortedByStart(t *Table) []int {
	st := t.Col("start")
	order := make([]int, t.N)
	sorted := true
	for i := range order {
		order[i] = i
		if i > 0 && st.Ints[i] < st.Ints[i-1] {
			sorted = false
		}
	}
	if !sorted {
		sortStable(order, func(a, b int) bool { return st.Ints[a] < st.Ints[b] })
	}
	return order
}
