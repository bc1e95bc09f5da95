package stats

import (
	"errors"
	"slices"
	"strings"

	"github.com/nsysx/nsysx/nsysx/load"
	"github.com/nsysx/nsysx/nsysx/model"
)

// errStreamOff stops a streamed scan whose rows need what a load does (a
// value to convert, a duration that overflows): the caller loads instead.
var errStreamOff = errors.New("stream: load the table instead")

// intStream reports whether cols of table can be streamed straight from a
// SQLite export as a load would give them: no filter, every column present
// and INTEGER in the schema, none of them loaded already (reusing the
// loaded columns is cheaper). It returns the export's scan.
func intStream(c *Ctx, table string, cols ...string) (DirectScan, bool) {
	if c.Filter != nil {
		return DirectScan{}, false
	}
	return intStreamUnder(c, table, cols...)
}

// intStreamUnder is intStream whatever c's filter: the caller applies it.
func intStreamUnder(c *Ctx, table string, cols ...string) (DirectScan, bool) {
	if _, ok := c.P.Source().(model.RecordScanner); !ok {
		return DirectScan{}, false
	}
	ts := c.P.Schema(table)
	have := c.P.Loaded(table)
	for _, col := range cols {
		isInt := false
		for j, name := range ts.Columns {
			if strings.EqualFold(name, col) {
				isInt = ts.Types[j] == Int
			}
		}
		if !isInt || (have != nil && have.Col(col) != nil) {
			return DirectScan{}, false
		}
	}
	d, ok := DirectOf(c.P, ts.Name, load.ReleaseEvery)
	return d, ok && d.Has
}

// streamAPICalls is addAPICalls over the runtime table read row by row,
// without loading it (no columns built, copied nor kept), in ranges on
// every core the context allows (GatedCores). ns must be empty; ok is
// false, and ns left empty, when the scan does not apply or a row needs the
// load's conversions: then call addAPICalls.
//
// Each range groups its rows by stripped name, the groups in the order of
// their first rows and each group's values in table order; appending the
// ranges' groups in range order then gives the groups, their order and
// their values' order of one pass over the table (the order matters to the
// standard deviation's last bits: docs/performance.md, "CUDA API calls
// streamed in ranges").
func (ns *namedSamples) streamAPICalls(c *Ctx) (ok bool) {
	cols := []string{"start", "end", "nameId"}
	d, ok := intStream(c, tRuntime, cols...)
	if !ok || len(ns.keys) > 0 {
		return false
	}
	var parts []*apiPart
	_, err := d.RunParts(c.Context, cols, GatedCores(c.Context), func(int) func(int64, *model.Fields) error {
		p := &apiPart{byID: map[int64]*Agg{}, byName: map[Value]*Agg{}}
		parts = append(parts, p)
		return func(_ int64, f *model.Fields) error {
			v, vok, err := streamDuration(f)
			if err != nil {
				return err
			}
			var a *Agg
			if f.Null&4 != 0 {
				a = p.group(stripV(Null))
			} else if a = p.byID[f.I[2]]; a == nil {
				a = p.group(stripV(strV(c, f.I[2])))
				p.byID[f.I[2]] = a
			}
			addSample(a, v, vok)
			return nil
		}
	})
	if err != nil {
		return false
	}
	total := map[Value]int{}
	for _, p := range parts {
		for i, name := range p.names {
			total[name] += len(p.aggs[i].vals)
		}
	}
	for _, p := range parts {
		for i, name := range p.names {
			a := ns.group(name, "CUDA_API")
			if a.vals == nil {
				a.vals = make([]int64, 0, total[name])
			}
			a.vals = append(a.vals, p.aggs[i].vals...)
			a.nulls += p.aggs[i].nulls
		}
	}
	return true
}

// apiPart is what one range of the streamed runtime calls gives: a group
// per stripped name, in the order of their first rows, and each nameId's
// group.
type apiPart struct {
	byID   map[int64]*Agg
	byName map[Value]*Agg
	names  []Value
	aggs   []*Agg
}

// group returns the range's group of name, starting it when it is new.
func (p *apiPart) group(name Value) *Agg {
	a := p.byName[name]
	if a == nil {
		a = &Agg{}
		p.byName[name] = a
		p.names = append(p.names, name)
		p.aggs = append(p.aggs, a)
	}
	return a
}

// streamDuration is end - start of a streamed row whose fields 0, 1 and 2
// are start, end and an id, as the load and dur give it (ok false when
// start or end is NULL), or errStreamOff when one of the three needs the
// load's conversions (not an INTEGER) or the duration overflows (subInt).
func streamDuration(f *model.Fields) (v int64, ok bool, err error) {
	if (f.Text|f.Blob|f.Real)&7 != 0 {
		return 0, false, errStreamOff
	}
	v, ok = f.I[1]-f.I[0], f.Null&3 == 0
	if ok && (v < f.I[1]) != (f.I[0] > 0) {
		return 0, false, errStreamOff
	}
	return v, ok, nil
}

// strV is StringIds[id] as a value (NULL when absent), as Str gives it.
func strV(c *Ctx, id int64) Value {
	if s, ok := c.String(id); ok {
		return TextV(s)
	}
	return Null
}

// memPart is what one range of a streamed memcpy or memset table gives:
// each operation kind's values (bytes or durations) and NULLs, the kinds in
// the order of their first rows (a memset's kind is 0).
type memPart struct {
	order []int64
	kinds map[int64]*Agg
	// hint is the capacity of the first kind's values: the range's share
	// of the table's estimated rows (a memset table has one kind), so that
	// they do not grow by copies into fresh pages
	hint int
}

func (p *memPart) add(kind, v int64, ok bool) {
	a := p.kinds[kind]
	if a == nil {
		a = &Agg{}
		if len(p.order) == 0 {
			a.vals = make([]int64, 0, p.hint)
		}
		p.kinds[kind] = a
		p.order = append(p.order, kind)
	}
	addSample(a, v, ok)
}

// streamMemOps is memOps over the memcpy and memset tables read row by
// row, in ranges on every core the context allows (GatedCores: what a
// range keeps is its values, which the groups keep anyway), without
// loading them. ns is changed only once both tables are read: ok is false,
// and ns as it was, when a table cannot be streamed, a row needs the
// load's conversions or the scan fails; then memOps loads them. Range i's rows precede range
// i+1's, so appending the ranges' values in order gives each group its
// values, and the groups their first rows, in table order, as the load does
// (docs/performance.md, "Memory-operation summaries streamed in ranges").
func streamMemOps(c *Ctx, ns *namedSamples, size bool) (ok bool, err error) {
	cols := []string{"start", "end"}
	if size {
		cols = []string{"bytes"}
	}
	kindField := len(cols) // copyKind, after cols, in the memcpy table
	var names map[int64]string
	var tables [2][]*memPart // memcpy, memset
	for ti, table := range []string{tMemcpy, tMemset} {
		if !c.Has(table) {
			continue
		}
		read := cols
		if table == tMemcpy {
			read = append(slices.Clone(cols), "copyKind")
		}
		d, ok := intStream(c, table, read...)
		if !ok {
			return false, nil
		}
		if table == tMemcpy {
			if names, err = memcpyNames(c); err != nil {
				return false, err
			}
		}
		parts := GatedCores(c.Context)
		hint := min(d.EstimateRows()/parts+64, 1<<20) // a little over: a range's share varies
		_, err := d.RunParts(c.Context, read, parts, func(int) func(int64, *model.Fields) error {
			p := &memPart{kinds: map[int64]*Agg{}, hint: hint}
			tables[ti] = append(tables[ti], p)
			return func(_ int64, f *model.Fields) error {
				var kind int64
				if table == tMemcpy {
					switch bit := uint32(1) << kindField; {
					case f.Null&bit != 0:
						return nil // no kind, no group
					case (f.Text|f.Blob|f.Real)&bit != 0:
						return errStreamOff
					}
					kind = f.I[kindField]
				}
				if size {
					if (f.Text|f.Blob|f.Real)&1 != 0 {
						return errStreamOff
					}
					p.add(kind, f.I[0], f.Null&1 == 0)
					return nil
				}
				v, ok, err := streamDuration(f)
				if err != nil {
					return err
				}
				p.add(kind, v, ok)
				return nil
			}
		})
		if err != nil {
			// a row that needs the load's conversions, or a damaged table:
			// the load reads it again and reports the damage as every
			// report does, once (the profile keeps a table's load error)
			return false, nil
		}
	}
	for ti, parts := range tables {
		total := map[int64]int{}
		for _, p := range parts {
			for k, a := range p.kinds {
				total[k] += len(a.vals)
			}
		}
		groups := map[int64]*Agg{} // by kind; nil: not a named kind
		for _, p := range parts {
			for _, k := range p.order {
				a, seen := groups[k]
				if !seen {
					if ti == 0 {
						a = ns.memOpGroup(names, k)
					} else {
						a = ns.memOpGroup(nil, k)
					}
					if a != nil {
						a.vals = slices.Grow(a.vals, total[k])
					}
					groups[k] = a
				}
				if a != nil {
					a.vals = append(a.vals, p.kinds[k].vals...)
					a.nulls += p.kinds[k].nulls
				}
			}
		}
	}
	return true, nil
}
