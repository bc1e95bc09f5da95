package stats

import "github.com/nsysx/nsysx/nsysx/model"

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
	return summaryByNameID(c, tRuntime, "Num Calls", stripV)
}

// summaryByNameID is summarizeByID of table's start, end and nameId,
// streamed from a SQLite export where it can be (streamByID), else loaded.
func summaryByNameID(c *Ctx, table, countLabel string, name func(Value) Value) (*Result, error) {
	if aggs, keys, ok := streamByID(c, table, "nameId"); ok {
		return summarizeGroups(c, aggs, keys, countLabel, name), nil
	}
	t, err := c.Load(table, "start", "end", "nameId")
	if err != nil {
		return nil, err
	}
	return summarizeByID(c, t, "nameId", countLabel, name)
}

// streamByID is groupByID of table's durations by idCol, read row by row
// from a SQLite export without loading the table: the same groups, keys
// and durations in the same order. ok is false, with nothing returned,
// when the scan does not apply (intStream) or a row needs the load's
// conversions or overflows (the load then reports what it reports).
func streamByID(c *Ctx, table, idCol string) (aggs []Agg, keys []Value, ok bool) {
	cols := []string{"start", "end", idCol}
	d, ok := intStream(c, table, cols...)
	if !ok {
		return nil, nil, false
	}
	byID, null := map[int64]int{}, -1
	err := d.Run(c.Context, cols, func(_ int64, f *model.Fields) error {
		v, vok, err := streamDuration(f)
		if err != nil {
			return err
		}
		var g int
		var found bool
		if f.Null&4 != 0 {
			g, found = null, null >= 0
		} else {
			g, found = byID[f.I[2]]
		}
		if !found {
			g = len(aggs)
			if f.Null&4 != 0 {
				null = g
				keys = append(keys, Null)
			} else {
				byID[f.I[2]] = g
				keys = append(keys, IntV(f.I[2]))
			}
			aggs = append(aggs, Agg{})
		}
		addSample(&aggs[g], v, vok)
		return nil
	})
	if err != nil {
		return nil, nil, false
	}
	return aggs, keys, true
}

// summarizeByID groups rows by an integer id column (NULL ids form one group),
// giving STATS(d, count) and the StringIds name; natural order is by id.
func summarizeByID(c *Ctx, t *Table, idCol, countLabel string, name func(Value) Value) (*Result, error) {
	st, en, id := t.Col("start"), t.Col("end"), t.Col(idCol)
	aggs, keys := groupByID(t.N, id, func(a *Agg, i int) {
		if d, ok := dur(st, en, i); ok {
			a.Add(d)
		} else {
			a.AddNull()
		}
	})
	return summarizeGroups(c, aggs, keys, countLabel, name), nil
}

// summarizeGroups is summarizeByID's result from its groups and their keys.
func summarizeGroups(c *Ctx, aggs []Agg, keys []Value, countLabel string, name func(Value) Value) *Result {
	var grand int64
	for i := range aggs {
		grand = addInt(grand, aggs[i].Total())
	}
	res := NewResult(c.Report.Name, c.Report.Title, append(SummaryCols(countLabel), "Name", "_id")...)
	for g, k := range keys {
		n := Null
		if k.Kind == IntKind {
			if s, ok := c.String(k.I); ok {
				n = name(TextV(s))
			}
		}
		res.Add(append(aggs[g].Summary(grand), n, k)...)
	}
	sortRows(res, byKeys(9))
	sortRows(res, byKeys(-2))
	res.Cols = res.Cols[:9]
	return res
}

// groupByID hands rows 0..n-1 to add with their group's Agg, grouping by
// the value of col (NULL is one group); an integer column keys a map of
// integers instead of hashing Values. It returns the groups and their keys,
// in order of first appearance.
func groupByID(n int, col *Column, add func(a *Agg, i int)) ([]Agg, []Value) {
	var aggs []Agg
	var keys []Value
	if col == nil || col.Type != Int {
		byKey := map[Value]int{}
		for i := 0; i < n; i++ {
			k := nv(col, i)
			g, ok := byKey[k]
			if !ok {
				g = len(aggs)
				byKey[k] = g
				aggs, keys = append(aggs, Agg{}), append(keys, k)
			}
			add(&aggs[g], i)
		}
		return aggs, keys
	}
	byID, null := map[int64]int{}, -1
	for i := 0; i < n; i++ {
		var g int
		var ok bool
		if col.IsNull(i) {
			g, ok = null, null >= 0
		} else {
			g, ok = byID[col.Ints[i]]
		}
		if !ok {
			g = len(aggs)
			k := nv(col, i)
			if k.Kind == NullKind {
				null = g
			} else {
				byID[k.I] = g
			}
			aggs, keys = append(aggs, Agg{}), append(keys, k)
		}
		add(&aggs[g], i)
	}
	return aggs, keys
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
