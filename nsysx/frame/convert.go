package frame

import (
	"math"
	"strconv"
	"strings"
)

// Result is f as a report result (report: what computed it, e.g. "recipe";
// title: its display name, e.g. the output file's name), so
// that the formatters render it as they render a report's: its columns in
// the order pandas shows them (a named index first; the stored unnamed
// index __index_level_0__ is left out), each a computed column over f's
// own slices (no copy). Int64, Uint32 and Category cells are integers, a
// Uint64 cell past the int64 range a float; Float64 cells are floats (NaN
// is NULL); String cells text; a ListInt64 cell is the text Python prints
// of the list ("[0, 1]"); an all-NULL column and a NULL row are NULL.
func (f *Frame) Result(report, title string) *Result {
	r := &Result{Report: report, Title: title}
	n := f.Rows()
	for _, c := range f.displayCols() {
		r.Cols = append(r.Cols, ComputedCol(c.Name, c.valueKind(), n, c.value))
	}
	return r
}

// displayCols orders f's columns as pandas shows them: a named index
// first, then the data; the stored unnamed index is left out.
func (f *Frame) displayCols() []*Column {
	var idx, data []*Column
	isIdx := map[string]bool{}
	if f.Index == NamedIndex {
		for _, n := range f.IndexCols {
			isIdx[n] = true
		}
	}
	for _, c := range f.Cols {
		switch {
		case f.Index == LevelIndex && c.Name == LevelIndexName:
		case isIdx[c.Name]:
			idx = append(idx, c)
		default:
			data = append(data, c)
		}
	}
	return append(idx, data...)
}

// valueKind is the Kind of c's non-NULL cells as Result cells.
func (c *Column) valueKind() Kind {
	switch c.Type {
	case Float64:
		return FloatKind
	case String, ListInt64:
		return TextKind
	case AllNull:
		return NullKind
	}
	return IntKind
}

// value is row i of c as a Result cell (see Frame.Result).
func (c *Column) value(i int) Value {
	if c.IsNull(i) {
		return Null
	}
	switch c.Type {
	case Float64:
		if v := c.FloatVals[i]; !math.IsNaN(v) {
			return FloatV(v)
		}
		return Null
	case String:
		return TextV(c.Strs[i])
	case ListInt64:
		parts := make([]string, len(c.Lists[i]))
		for k, v := range c.Lists[i] {
			parts[k] = strconv.FormatInt(v, 10)
		}
		return TextV("[" + strings.Join(parts, ", ") + "]")
	case Uint64:
		if v := c.IntVals[i]; v < 0 {
			return FloatV(float64(uint64(v)))
		}
	}
	return IntV(c.IntVals[i])
}

// FromResult is the visible columns of r as a Frame with a RangeIndex
// (what pandas makes of a table read without an index): a column whose
// non-NULL cells are all integers is Int64, one of numbers with a float
// among them Float64, an all-NULL one AllNull, any other String (each
// cell's text as the formatters print it); a NULL cell is a NULL row.
// A computed column's cells are read once.
func FromResult(r *Result) *Frame {
	f := &Frame{Index: RangeIndex}
	n := r.Len()
	for _, rc := range r.Visible() {
		vals := make([]Value, n)
		kinds := map[Kind]bool{}
		nulls := false
		for i := range vals {
			vals[i] = rc.Value(i)
			kinds[vals[i].Kind] = true
			nulls = nulls || vals[i].IsNull()
		}
		delete(kinds, NullKind)
		var c *Column
		switch {
		case len(kinds) == 0:
			c = &Column{Name: rc.Name, Type: AllNull, Valid: make([]bool, n)}
		case len(kinds) == 1 && kinds[IntKind]:
			c = NewColumn(rc.Name, Int64, n)
			for i, v := range vals {
				c.IntVals[i] = v.I
			}
		case !kinds[TextKind]:
			c = NewColumn(rc.Name, Float64, n)
			for i, v := range vals {
				c.FloatVals[i] = v.AsFloat()
			}
		default:
			c = NewColumn(rc.Name, String, n)
			for i, v := range vals {
				c.Strs[i] = pyStr(v)
			}
		}
		if nulls && c.Type != AllNull {
			c.Valid = make([]bool, n)
			for i, v := range vals {
				c.Valid[i] = !v.IsNull()
			}
		}
		f.Cols = append(f.Cols, c)
	}
	return f
}
