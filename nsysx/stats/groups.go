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
	g := &Groups[IDKey]{TrackRows: spec.TrackRows}
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
	cols, sub, where, val := spec.columns(idCol)
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
	g := &Groups[IDKey]{TrackRows: spec.TrackRows}
	row := -1
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
		row++
		if where >= 0 && (f.Null&(1<<where) != 0 || f.I[where] != spec.Is) {
			return nil
		}
		null := f.Null&3 != 0
		if spec.Keep != nil && (null || !spec.Keep(row, f.I[0], f.I[1])) {
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
	})
	if err != nil {
		return nil, false
	}
	return g, true
}
