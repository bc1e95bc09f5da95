package stats

import (
	"regexp"
	"sort"
	"strconv"
	"sync"
)

func init() {
	register(&Report{Name: "openmp_sum", Title: "OpenMP Summary", Aliases: []string{"openmpevtsum"},
		Help: "OpenMP events grouped by event kind table and name: share of OpenMP time, counts and duration statistics.",
		Run:  runOpenMPSum})
	register(&Report{Name: "openacc_sum", Title: "OpenACC Summary", Aliases: []string{"openaccsum"},
		Help: "OpenACC events grouped by name and, where known, source location (name@file:line): share of OpenACC time, " +
			"call counts and duration statistics.",
		Run: runOpenACCSum})
}

var (
	reOpenMP  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^OPENMP_EVENT_KIND_.+$`) })
	reOpenACC = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^CUPTI_ACTIVITY_KIND_OPENACC_.+$`) })
)

// durAgg adds a row's duration (or a NULL) to a.
func durAgg(a *Agg, st, en *Column, i int) {
	if d, ok := dur(st, en, i); ok {
		a.Add(d)
	} else {
		a.AddNull()
	}
}

// runOpenMPSum groups every OPENMP_EVENT_KIND_* table by nameId on its own
// and lists the groups of all tables together (docs/stats.md §4.17): one name in two
// tables gives two rows.
func runOpenMPSum(c *Ctx) (*Result, error) {
	tables, r, err := prologueTables(c, reOpenMP(), " does not contain OpenMP event data.")
	if r != nil || err != nil {
		return r, err
	}
	type group struct {
		id  Value
		agg *Agg
	}
	var groups []group
	var grand int64
	for _, tn := range tables {
		t, err := c.View(tn).Load("start", "end", "nameId")
		if err != nil {
			return nil, err
		}
		st, en, id := t.Col("start"), t.Col("end"), t.Col("nameId")
		byID := map[Value]*Agg{}
		var ids []Value
		for i := 0; i < t.N; i++ {
			durAgg(aggFor(byID, &ids, nv(id, i)), st, en, i)
		}
		sort.Slice(ids, func(i, j int) bool { return Compare(ids[i], ids[j]) < 0 })
		for _, k := range ids {
			groups = append(groups, group{k, byID[k]})
			grand = addInt(grand, byID[k].Total())
		}
	}
	sums := make([]Value, len(groups))
	for i, g := range groups {
		sums[i] = g.agg.Sum()
	}
	res := NewResult(c.Report.Name, c.Report.Title, append(SummaryCols("Count"), "Name")...)
	for _, i := range bySumDesc(sums) {
		res.Add(append(groups[i].agg.Summary(grand), strValue(c, groups[i].id))...)
	}
	return res, nil
}

// runOpenACCSum groups the union of the CUPTI_ACTIVITY_KIND_OPENACC_* tables
// by name@file:line, or the plain name for events without a source file
// (§4.18).
func runOpenACCSum(c *Ctx) (*Result, error) {
	tables, r, err := prologueTables(c, reOpenACC(), " does not contain OpenACC event data.")
	if r != nil || err != nil {
		return r, err
	}
	byName := map[Value]*Agg{}
	var names []Value
	for _, tn := range tables {
		t, err := c.View(tn).Load("start", "end", "nameId", "lineNo", "srcFile")
		if err != nil {
			return nil, err
		}
		st, en, id, line, file := t.Col("start"), t.Col("end"), t.Col("nameId"), t.Col("lineNo"), t.Col("srcFile")
		for i := 0; i < t.N; i++ {
			name := strValue(c, nv(id, i))
			if !file.IsNull(i) {
				f := strValue(c, nv(file, i))
				ln := nv(line, i)
				if name.IsNull() || f.IsNull() || ln.IsNull() {
					name = Null
				} else {
					name = TextV(name.S + "@" + f.S + ":" + sqlText(ln))
				}
			}
			durAgg(aggFor(byName, &names, name), st, en, i)
		}
	}
	sort.Slice(names, func(i, j int) bool { return Compare(names[i], names[j]) < 0 })
	var grand int64
	sums := make([]Value, len(names))
	for i, n := range names {
		grand = addInt(grand, byName[n].Total())
		sums[i] = byName[n].Sum()
	}
	res := NewResult(c.Report.Name, c.Report.Title, append(SummaryCols("Num Calls"), "Name")...)
	for _, i := range bySumDesc(sums) {
		res.Add(append(byName[names[i]].Summary(grand), names[i])...)
	}
	return res, nil
}

// prologueTables is prologue, then the profile's tables that re matches;
// without any the report is SKIPPED with the path and then missing.
func prologueTables(c *Ctx, re *regexp.Regexp, missing string) ([]string, *Result, error) {
	if r, err := prologue(c); r != nil || err != nil {
		return nil, r, err
	}
	tables := c.P.TablesMatching(re.MatchString)
	if len(tables) == 0 {
		r, err := c.Skip(c.Path() + missing)
		return nil, r, err
	}
	return tables, nil, nil
}

// aggFor returns m's Agg for k, adding an empty one (and k to *keys) the
// first time.
func aggFor(m map[Value]*Agg, keys *[]Value, k Value) *Agg {
	a := m[k]
	if a == nil {
		a = &Agg{}
		m[k] = a
		*keys = append(*keys, k)
	}
	return a
}

// bySumDesc returns the indexes of sums, largest sum first, ties in index
// order.
func bySumDesc(sums []Value) []int {
	order := make([]int, len(sums))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return Compare(sums[order[a]], sums[order[b]]) > 0 })
	return order
}

// sqlText is a value as SQLite's || operator spells it.
func sqlText(v Value) string {
	switch v.Kind {
	case IntKind:
		return strconv.FormatInt(v.I, 10)
	case FloatKind:
		return sqliteReal(v.F)
	}
	return v.S
}

// sqliteReal is SQLite's text of a real ("%!.15g", with ".0" when integral).
func sqliteReal(f float64) string {
	s := strconv.FormatFloat(f, 'g', 15, 64)
	for _, ch := range s {
		if ch == '.' || ch == 'e' || ch == 'n' || ch == 'I' {
			return s
		}
	}
	return s + ".0"
}
