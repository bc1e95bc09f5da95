package model

import (
	"math"
	"math/bits"
)

// ColType is the storage type of a loaded column.
type ColType uint8

// Column storage types.
const (
	Int ColType = iota
	Float
	Text
)

// Column is one loaded column of an export table, stored as a typed vector with
// a validity mask. Integer columns (ids, timestamps, enums) are []int64; REAL
// columns are []float64; TEXT columns are []string.
type Column struct {
	Name   string
	Type   ColType
	Ints   []int64
	Floats []float64
	Strs   []string
	null   []uint64 // bit set = NULL; nil when the column has no NULLs
}

// Len returns the number of rows.
func (c *Column) Len() int {
	switch c.Type {
	case Float:
		return len(c.Floats)
	case Text:
		return len(c.Strs)
	}
	return len(c.Ints)
}

// IsNull reports whether row i is NULL.
func (c *Column) IsNull(i int) bool {
	w := i >> 6
	return w < len(c.null) && c.null[w]&(1<<(uint(i)&63)) != 0
}

// HasNulls reports whether any row is NULL.
func (c *Column) HasNulls() bool { return c.null != nil }

// SetNull marks row i as NULL.
func (c *Column) SetNull(i int) {
	if c.null == nil {
		c.null = make([]uint64, (c.Len()+64)/64+1)
	}
	for i>>6 >= len(c.null) {
		c.null = append(c.null, 0)
	}
	c.null[i>>6] |= 1 << (uint(i) & 63)
}

// Int returns row i as an integer (0 for NULL; reals are truncated).
func (c *Column) Int(i int) int64 {
	switch c.Type {
	case Float:
		return int64(c.Floats[i])
	case Text:
		return 0
	}
	return c.Ints[i]
}

// Float returns row i as a float (NaN for NULL).
func (c *Column) Float(i int) float64 {
	if c.IsNull(i) {
		return math.NaN()
	}
	switch c.Type {
	case Float:
		return c.Floats[i]
	case Text:
		return math.NaN()
	}
	return float64(c.Ints[i])
}

// Str returns row i as text ("" for NULL).
func (c *Column) Str(i int) string {
	if c.Type == Text {
		return c.Strs[i]
	}
	if c.IsNull(i) {
		return ""
	}
	return PyStr(c.Value(i))
}

func (c *Column) Value(i int) Value {
	if c.IsNull(i) {
		return Value{}
	}
	switch c.Type {
	case Float:
		return FloatV(c.Floats[i])
	case Text:
		return TextV(c.Strs[i])
	}
	return IntV(c.Ints[i])
}

// Table is the loaded part (some columns) of one export table. Rows are in the
// table's rowid order; RowIDs holds the rowids.
type Table struct {
	Name   string
	N      int
	RowIDs []int64
	cols   map[string]*Column // by lower-case name
}

// Col returns a loaded column by name (case-insensitive) or nil.
func (t *Table) Col(name string) *Column {
	if t == nil {
		return nil
	}
	if c, ok := t.cols[name]; ok {
		return c
	}
	return t.cols[Lower(name)]
}

// Columns lists the loaded columns.
func (t *Table) Columns() []*Column {
	out := make([]*Column, 0, len(t.cols))
	for k, c := range t.cols {
		if k == Lower(k) {
			out = append(out, c)
		}
	}
	return out
}

// AddCol registers a column under its lower-case name and as spelled.
func (t *Table) AddCol(c *Column) {
	if t.cols == nil {
		t.cols = map[string]*Column{}
	}
	t.cols[Lower(c.Name)] = c
	t.cols[c.Name] = c
}

func Lower(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] >= 'A' && s[i] <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if b[j] >= 'A' && b[j] <= 'Z' {
					b[j] += 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}

// WithColumns returns a table with t's rows and loaded columns plus cols
// (a column of the same name replaces t's). t is not changed.
func (t *Table) WithColumns(cols ...*Column) *Table {
	out := &Table{Name: t.Name, N: t.N, RowIDs: t.RowIDs, cols: make(map[string]*Column, len(t.cols)+2*len(cols))}
	for k, c := range t.cols {
		out.cols[k] = c
	}
	for _, c := range cols {
		out.AddCol(c)
	}
	return out
}

// SetZero clears cell i, as the SQLite loader leaves NULL cells.
func (c *Column) SetZero(i int) {
	switch c.Type {
	case Int:
		c.Ints[i] = 0
	case Float:
		c.Floats[i] = math.NaN()
	default:
		c.Strs[i] = ""
	}
}

// ClearNulls forgets which rows are NULL (a loader reusing the column's
// storage for its next chunk).
func (c *Column) ClearNulls() { c.null = nil }

// EachNull calls fn with every NULL row, in order.
func (c *Column) EachNull(fn func(i int)) {
	for w, word := range c.null {
		for ; word != 0; word &= word - 1 {
			fn(w*64 + bits.TrailingZeros64(word))
		}
	}
}

// NewTable makes a table of n rows holding cols (a loader's or a test's
// table; rowids unset).
func NewTable(name string, n int, cols ...*Column) *Table {
	t := &Table{Name: name, N: n}
	for _, c := range cols {
		t.AddCol(c)
	}
	return t
}

// Gather copies the rows keep of c into a new column.
func (c *Column) Gather(keep []int32) *Column {
	out := &Column{Name: c.Name, Type: c.Type}
	switch c.Type {
	case Int:
		out.Ints = make([]int64, len(keep))
		for j, i := range keep {
			out.Ints[j] = c.Ints[i]
		}
	case Float:
		out.Floats = make([]float64, len(keep))
		for j, i := range keep {
			out.Floats[j] = c.Floats[i]
		}
	case Text:
		out.Strs = make([]string, len(keep))
		for j, i := range keep {
			out.Strs[j] = c.Strs[i]
		}
	}
	if c.HasNulls() {
		for j, i := range keep {
			if c.IsNull(int(i)) {
				out.SetNull(j)
			}
		}
	}
	return out
}

// Take returns the rows keep of t (all its loaded columns).
func (t *Table) Take(keep []int32) *Table {
	out := &Table{Name: t.Name, N: len(keep)}
	if t.RowIDs != nil {
		out.RowIDs = make([]int64, len(keep))
		for j, i := range keep {
			out.RowIDs[j] = t.RowIDs[i]
		}
	}
	for _, c := range t.Columns() {
		out.AddCol(c.Gather(keep))
	}
	return out
}
