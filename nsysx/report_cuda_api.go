package nsysx

func init() {
	register(&Report{Name: "cuda_api_sum", Title: "CUDA API Summary", Aliases: []string{"cudaapisum"},
		Help: "CUDA runtime and driver API calls grouped by function: share of API time, call counts and duration statistics.",
		run:  runAPISum})
	register(&Report{Name: "cuda_api_trace", Title: "CUDA API Trace", Aliases: []string{"cudaapitrace"},
		Help: "Every CUDA API call in start order, with its result code, correlation id, process, thread and thread name.",
		run:  runAPITrace})
}

func runAPISum(c *Ctx) (*Result, error) {
	if r, skip := c.skipNoStrings(); skip {
		return r, nil
	}
	if !c.Has(tRuntime) {
		return c.Skip(c.Path() + " does not contain CUDA trace data.")
	}
	t, err := c.Load(tRuntime, "start", "end", "nameId")
	if err != nil {
		return nil, err
	}
	return summarizeByID(c, t, "nameId", "Num Calls", stripV)
}

// summarizeByID groups rows by an integer id column (NULL ids form one group),
// giving STATS(d, count) and the StringIds name; natural order is by id.
func summarizeByID(c *Ctx, t *Table, idCol, countLabel string, name func(Value) Value) (*Result, error) {
	st, en, id := t.Col("start"), t.Col("end"), t.Col(idCol)
	groups := map[Value]*Agg{}
	for i := 0; i < t.N; i++ {
		k := nv(id, i)
		a := groups[k]
		if a == nil {
			a = &Agg{}
			groups[k] = a
		}
		if d, ok := dur(st, en, i); ok {
			a.Add(d)
		} else {
			a.AddNull()
		}
	}
	var grand int64
	for _, a := range groups {
		grand += a.Total()
	}
	res := NewResult(c.Report.Name, c.Report.Title, append(SummaryCols(countLabel), "Name", "_id")...)
	for k, a := range groups {
		n := Null
		if k.Kind == IntKind {
			if s, ok := c.P.String(c.ctx(), k.I); ok {
				n = name(TextV(s))
			}
		}
		res.Add(append(a.Summary(grand), n, k)...)
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
