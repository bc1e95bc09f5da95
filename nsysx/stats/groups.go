package stats

import (
	"github.com/nsysx/nsysx/nsysx/model"
)

// The summaries' aggregation (docs/architecture.md, "Recipes over the
// reports' aggregations"): values (durations, sizes) grouped by an integer
// key, the groups numbered in the order of their first rows and each
// group's values kept in row order. The stats reports summarise a group
// with Agg.Summary (SQLite's aggregates); the recipes that mirror them
// (cuda_api_sum, osrt_sum, cuda_gpu_kern_sum, the memory summaries) take
// the same groups from the same function (ValuesByID) and describe them
// the pandas way.

// Grouper numbers keys in the order they are first met. A key may carry a
// small integer (a name id, 0 ≤ small < 1<<16, or below Dense when set;
// −1 for none) that remembers its latest group, so that the map is hashed
// only when the key of that integer changes from one row to the next (a
// kernel name on another device, with another launch geometry).
type Grouper[K comparable] struct {
	Keys   []K
	Dense  int // the small integers are dense (a dictionary's indexes) below Dense
	index  map[K]int32
	latest []int32 // by small integer: its latest group + 1
}

// Group is k's group, a new one when k is new.
func (g *Grouper[K]) Group(k K, small int) int32 {
	if small >= max(g.Dense, 1<<16) {
		small = -1
	}
	if small >= 0 && small < len(g.latest) {
		if n := g.latest[small] - 1; n >= 0 && g.Keys[n] == k {
			return n
		}
	}
	n, seen := g.index[k]
	if !seen {
		if g.index == nil {
			g.index = map[K]int32{}
		}
		n = int32(len(g.Keys))
		g.index[k] = n
		g.Keys = append(g.Keys, k)
	}
	if small >= 0 {
		if small >= len(g.latest) {
			g.latest = append(g.latest, make([]int32, small+1-len(g.latest))...)
		}
		g.latest[small] = n + 1
	}
	return n
}

// Groups are values grouped by key (Grouper), each group an Agg; Of, when
// TrackRows is set, is each added value's group (NULLs left out), in the
// order added (the recipes regroup by it: by name across devices, by names
// two ids share).
type Groups[K comparable] struct {
	Grouper[K]
	Aggs      []Agg
	Of        []int32
	TrackRows bool
	// Read is the number of rows read, kept or not (ValuesByID: the rows
	// that pass the filter, the positions Keep is given).
	Read int
}

// group is k's group.
func (g *Groups[K]) group(k K, small int) int32 {
	n := g.Group(k, small)
	if int(n) == len(g.Aggs) {
		g.Aggs = append(g.Aggs, Agg{})
	}
	return n
}

// Add adds value v of a row keyed k.
func (g *Groups[K]) Add(k K, small int, v int64) {
	n := g.group(k, small)
	g.Aggs[n].Add(v)
	if g.TrackRows {
		g.Of = append(g.Of, n)
	}
}

// joinGroups joins the groups of a table's ranges, in range order, into
// those of one pass over the table: a key's group is numbered by its first
// range, its values and NULLs are the ranges' in order, and so is Of. Each
// group's values are copied once, into a slice of their total length.
func joinGroups[K comparable](parts []*Groups[K]) *Groups[K] {
	g := &Groups[K]{TrackRows: parts[0].TrackRows}
	to := make([][]int32, len(parts))
	var n []int // each group's values
	rows := 0
	for i, p := range parts {
		to[i] = make([]int32, len(p.Keys))
		for j, k := range p.Keys {
			at := g.Group(k, -1)
			if int(at) == len(n) {
				n = append(n, 0)
			}
			to[i][j] = at
			n[at] += len(p.Aggs[j].vals)
		}
		rows += len(p.Of)
	}
	g.Aggs = make([]Agg, len(g.Keys))
	for k := range g.Aggs {
		g.Aggs[k].vals = make([]int64, 0, n[k])
	}
	if g.TrackRows {
		g.Of = make([]int32, 0, rows)
	}
	for i, p := range parts {
		for j := range p.Keys {
			a := &g.Aggs[to[i][j]]
			a.vals = append(a.vals, p.Aggs[j].vals...)
			a.nulls += p.Aggs[j].nulls
		}
		for _, k := range p.Of {
			g.Of = append(g.Of, to[i][k])
		}
		g.Read += p.Read
	}
	return g
}

// AddNull adds a row keyed k whose value is NULL.
func (g *Groups[K]) AddNull(k K, small int) { g.Aggs[g.group(k, small)].AddNull() }

// Values are the values of a group, in row order (NULLs left out). The
// caller must not change them.
func (a *Agg) Values() []int64 { return a.vals }

// Nulls is the number of NULL values.
func (a *Agg) Nulls() int { return a.nulls }

// IDKey groups rows by an id column (a name id: an integer, or NULL) and,
// when ValueSpec.Sub names one, a second integer column (a device; NULL
// as 0).
type IDKey struct {
	ID  Value
	Sub int64
}

// small is the key's small integer for Grouper.Group.
func (k IDKey) small() int {
	if k.ID.Kind != IntKind || k.ID.I < 0 {
		return -1
	}
	return int(min(k.ID.I, 1<<16))
}

// ValueSpec says what ValuesByID groups.
type ValueSpec struct {
	// Sub is a second key column ("deviceId"), "" for none (Sub 0).
	Sub string
	// Value is the integer column whose values are grouped ("bytes"), ""
	// for the durations end − start.
	Value string
	// Keep, when set, keeps the rows with both times for which it is
	// true (row: the row's position in the table); other rows are left
	// out. nil keeps every row, a NULL time giving a NULL value.
	Keep func(row int, start, end int64) bool
	// KeepAnyRow says that Keep reads neither row nor any state it
	// changes: it may be called from several goroutines at once, for the
	// rows of ranges of the table read at once (row then means nothing).
	KeepAnyRow bool
	// NullAsZero reads a NULL value (of the Value column) as 0, as the
	// recipes' memory summaries read the bytes column.
	NullAsZero bool
	// Where, when set, is an integer column that must equal Is: other
	// rows (NULL ones too) are left out.
	Where string
	Is    int64
	// TrackRows records each kept row's group (Groups.Of).
	TrackRows bool
}

// columns are the columns ValuesByID reads: start, end, the id, then
// Sub, Where and Value where set; sub, where and val are their positions
// (−1: not read).
func (spec ValueSpec) columns(idCol string) (cols []string, sub, where, val int) {
	cols = []string{"start", "end", idCol}
	at := func(name string) int {
		if name == "" {
			return -1
		}
		cols = append(cols, name)
		return len(cols) - 1
	}
	sub = at(spec.Sub)
	where = at(spec.Where)
	val = at(spec.Value)
	return cols, sub, where, val
}

// ValuesByID groups the rows of table that pass c's filter by the column
// idCol (NULL ids one group), as spec says: streamed from a SQLite export
// where every column is INTEGER, the filter's row test applied as the rows
// are read (nothing is loaded), else loaded through the table's view
// (Ctx.View: the event layer's filtered rows).
// The groups, their order and each group's values are the same either
// way; a row's position (ValueSpec.Keep) counts the rows the filter keeps.
func ValuesByID(c *Ctx, table, idCol string, spec ValueSpec) (*Groups[IDKey], error) {
	cols, _, _, _ := spec.columns(idCol)
	if g, ok := streamValuesByID(c, table, idCol, spec); ok {
		return g, nil
	}
	t, err := c.View(table).Load(cols...)
	if err != nil {
		return nil, err
	}
	g := &Groups[IDKey]{TrackRows: spec.TrackRows, Read: t.N}
	st, en, id := t.Col("start"), t.Col("end"), t.Col(idCol)
	var sub, where, val *Column
	if spec.Sub != "" {
		sub = t.Col(spec.Sub)
	}
	if spec.Where != "" {
		where = t.Col(spec.Where)
	}
	if spec.Value != "" {
		val = t.Col(spec.Value)
	}
	for i := 0; i < t.N; i++ {
		if where != nil && (where.IsNull(i) || where.Int(i) != spec.Is) {
			continue
		}
		null := st.IsNull(i) || en.IsNull(i)
		if spec.Keep != nil && (null || !spec.Keep(i, st.Ints[i], en.Ints[i])) {
			continue
		}
		k := IDKey{ID: nv(id, i)}
		if sub != nil && !sub.IsNull(i) {
			k.Sub = sub.Int(i)
		}
		switch {
		case val != nil && val.IsNull(i) && !spec.NullAsZero:
			g.AddNull(k, k.small())
		case val != nil && val.IsNull(i):
			g.Add(k, k.small(), 0)
		case val != nil:
			g.Add(k, k.small(), val.Int(i))
		case null:
			g.AddNull(k, k.small())
		default:
			g.Add(k, k.small(), subInt(en.Ints[i], st.Ints[i]))
		}
	}
	return g, nil
}

// streamValuesByID is ValuesByID read row by row from a SQLite export
// (intStream); ok is false, with nothing returned, when the scan does not
// apply or a row needs the load's conversions or overflows.
func streamValuesByID(c *Ctx, table, idCol string, spec ValueSpec) (*Groups[IDKey], bool) {
	cols, _, _, _ := spec.columns(idCol)
	// the view's filter, applied to the rows as they are read: what the
	// view's load keeps (the same row test, RowFilter.Keep)
	rf, err := c.View(table).RowFilter()
	if err != nil {
		return nil, false // the load reports it
	}
	thread := -1
	if rf != nil {
		if tc := rf.ThreadColumn(); tc != "" {
			cols = append(cols, tc)
			thread = len(cols) - 1
		}
	}
	d, ok := intStreamUnder(c, table, cols...)
	if !ok {
		return nil, false
	}
	if parts := GatedCores(c.Context); parts > 1 && rf == nil && (spec.Keep == nil || spec.KeepAnyRow) {
		return streamValuesByIDParts(c, d, cols, spec, parts)
	}
	g := &Groups[IDKey]{TrackRows: spec.TrackRows}
	row := -1
	add := spec.adder(g, cols, &row)
	err = d.Run(c.Context, cols, func(_ int64, f *model.Fields) error {
		if (f.Text|f.Blob|f.Real)&(1<<len(cols)-1) != 0 {
			return errStreamOff
		}
		if rf != nil {
			var gt int64
			gNull := true
			if thread >= 0 {
				gt, gNull = f.I[thread], f.Null&(1<<thread) != 0
			}
			if !rf.Keep(f.I[0], f.Null&1 != 0, f.I[1], f.Null&2 != 0, gt, gNull) {
				return nil
			}
		}
		return add(f)
	})
	if err != nil {
		return nil, false
	}
	g.Read = row + 1
	return g, true
}

// streamValuesByIDParts is streamValuesByID without a row filter over up
// to parts ranges of the table at once (DirectScan.RunParts), each
// grouping its rows (Keep, when set, is KeepAnyRow: it is not given the
// rows' positions in the table);
// the ranges' groups are then joined in range order (joinGroups), which
// gives the groups, their order and each group's values of one pass.
func streamValuesByIDParts(c *Ctx, d DirectScan, cols []string, spec ValueSpec, parts int) (*Groups[IDKey], bool) {
	var gs []*Groups[IDKey]
	_, err := d.RunParts(c.Context, cols, parts, func(int) func(int64, *model.Fields) error {
		g := &Groups[IDKey]{TrackRows: spec.TrackRows}
		gs = append(gs, g)
		add := spec.adder(g, cols, &g.Read) // the range's own count: KeepAnyRow's Keep does not read it
		return func(_ int64, f *model.Fields) error {
			if (f.Text|f.Blob|f.Real)&(1<<len(cols)-1) != 0 {
				return errStreamOff
			}
			return add(f)
		}
	})
	if err != nil || len(gs) == 0 {
		return nil, false
	}
	if len(gs) == 1 {
		return gs[0], true
	}
	return joinGroups(gs), true
}

// adder is the function that adds a streamed row of cols (ValueSpec.columns)
// to g as spec says; row counts the rows it is given (Keep's row).
func (spec ValueSpec) adder(g *Groups[IDKey], cols []string, row *int) func(f *model.Fields) error {
	_, sub, where, val := spec.columns(cols[2])
	return func(f *model.Fields) error {
		*row++
		if where >= 0 && (f.Null&(1<<where) != 0 || f.I[where] != spec.Is) {
			return nil
		}
		null := f.Null&3 != 0
		if spec.Keep != nil && (null || !spec.Keep(*row, f.I[0], f.I[1])) {
			return nil
		}
		k := IDKey{ID: Null}
		if f.Null&4 == 0 {
			k.ID = IntV(f.I[2])
		}
		if sub >= 0 && f.Null&(1<<sub) == 0 {
			k.Sub = f.I[sub]
		}
		switch {
		case val >= 0 && f.Null&(1<<val) != 0 && !spec.NullAsZero:
			g.AddNull(k, k.small())
		case val >= 0 && f.Null&(1<<val) != 0:
			g.Add(k, k.small(), 0)
		case val >= 0:
			g.Add(k, k.small(), f.I[val])
		case null:
			g.AddNull(k, k.small())
		default:
			v, _, err := streamDuration(f)
			if err != nil {
				return err
			}
			g.Add(k, k.small(), v)
		}
		return nil
	}
}
