package frame

import (
	"errors"
	"math"
	"slices"
	"strings"
)

// Result is what a report or rule computes: a Frame of cell or computed
// columns with nsys column specs, before any formatting. Every output
// format, the notebook tables and the Arrow/Parquet exports render it.
type Result = Frame

// ResultCol is a report's column: the one Column type, under the name the
// reports and the kernel's Go cells use. Its Name is the nsys alias
// including its unit tag ("Total Time:dur_ns"); Label and Tag split it.
type ResultCol = Column

// ComputedCol makes a column whose n cells are computed on demand by fn.
// Traces of millions of rows use them so that no copy of the rows is kept:
// each cell is derived from the loaded tables when it is written. kind is
// the type of its non-NULL cells. fn must be safe for concurrent use (only
// read shared state): formatters render chunks of rows in parallel.
func ComputedCol(name string, kind Kind, n int, fn func(i int) Value) *ResultCol {
	return &ResultCol{Name: name, Kind: kind, fn: fn, n: n}
}

// newCells makes an empty cell column (see Column), for Append.
func newCells(name string) *Column { return &Column{Name: name, kinds: []Kind{}} }

// errNilCol is the panic of a nil column's cells (Col never returns nil).
const errNilCol = "nsysx: nil *ResultCol"

// Err is the error of a column Col could not find (an unknown name, with
// the closest one), or nil.
func (c *ResultCol) Err() error {
	if c == nil {
		return errors.New(errNilCol)
	}
	return c.err
}

// Value returns cell i (NULL in a column Col could not find: see Err).
func (c *ResultCol) Value(i int) Value {
	if c == nil {
		panic(errNilCol)
	}
	if c.err != nil {
		return Null
	}
	if c.fn != nil {
		return c.fn(i)
	}
	if c.kinds == nil {
		return c.value(i)
	}
	switch c.kinds[i] {
	case IntKind:
		return Value{Kind: IntKind, I: c.num[i]}
	case FloatKind:
		return Value{Kind: FloatKind, F: math.Float64frombits(uint64(c.num[i]))}
	case TextKind:
		return Value{Kind: TextKind, S: c.str[i]}
	}
	return Value{}
}

// Append adds one cell. A typed column with rows takes none (it panics):
// table operations build new cell columns.
func (c *ResultCol) Append(v Value) {
	if c.kinds == nil && c.Len() > 0 {
		panic("nsysx: Append to a typed or computed column " + c.Name)
	}
	c.kinds = append(c.kinds, v.Kind)
	switch v.Kind {
	case IntKind:
		c.num = append(c.num, v.I)
	case FloatKind:
		c.num = append(c.num, int64(math.Float64bits(v.F)))
	default:
		c.num = append(c.num, 0)
	}
	if v.Kind == TextKind && c.str == nil {
		c.str = make([]string, len(c.kinds)-1, cap(c.kinds))
	}
	if c.str != nil {
		c.str = append(c.str, v.S)
	}
	if c.Kind == NullKind && v.Kind != NullKind {
		c.Kind = v.Kind
	}
}

// Grow reserves room for n more cells (of a cell column).
func (c *ResultCol) Grow(n int) {
	if c.kinds == nil && c.Len() > 0 {
		return
	}
	if c.kinds == nil {
		c.kinds = []Kind{}
	}
	c.kinds = slices.Grow(c.kinds, n)
	c.num = slices.Grow(c.num, n)
}

// NewResult makes an empty result with the given column names.
func NewResult(report, title string, names ...string) *Result {
	r := &Result{Report: report, Title: title}
	for _, n := range names {
		r.Cols = append(r.Cols, newCells(n))
	}
	return r
}

// Skip returns a SKIPPED result with nsys's message.
func Skip(report, title, msg string) *Result {
	return &Result{Report: report, Title: title, Skipped: msg}
}

// Add appends one row.
func (r *Result) Add(vals ...Value) {
	for i, c := range r.Cols {
		c.Append(vals[i])
	}
}

// Grow reserves room for n more rows in every column.
func (r *Result) Grow(n int) {
	for _, c := range r.Cols {
		c.Grow(n)
	}
}

// Len returns the number of rows.
func (r *Result) Len() int {
	if len(r.Cols) == 0 {
		return 0
	}
	return r.Cols[0].Len()
}

// Row returns row i.
func (r *Result) Row(i int) []Value {
	out := make([]Value, len(r.Cols))
	for j, c := range r.Cols {
		out[j] = c.Value(i)
	}
	return out
}

// Col returns the column with the given label (tag ignored) or full name.
// It never returns nil: for an unknown name (or a failed r) it returns an
// empty column whose Err says why, with the closest name; its cells read
// as NULL. Column returns the same error directly.
func (r *Result) Col(label string) *ResultCol {
	c, err := r.Column(label)
	if err != nil {
		return &ResultCol{Name: label, err: err}
	}
	return c
}

func (r *Result) col(label string) *ResultCol {
	if r == nil {
		return nil
	}
	for _, c := range r.Cols {
		if c.Label() == label || c.Name == label {
			return c
		}
	}
	return nil
}

// Label is the column name without its unit tag.
func (c *ResultCol) Label() string {
	l, _, _ := strings.Cut(c.Name, ":")
	return l
}

// Tag is the unit tag ("dur_ns", "mem_B", "ratio_%"...), or "".
func (c *ResultCol) Tag() string {
	_, t, _ := strings.Cut(c.Name, ":")
	return t
}

// Text renders cell i as nsys's formatters see it.
func (c *ResultCol) Text(i int) string { return pyStr(c.Value(i)) }

// Visible lists the columns that are printed (names not starting with '_').
func (r *Result) Visible() []*ResultCol {
	var out []*ResultCol
	for _, c := range r.Cols {
		if !strings.HasPrefix(c.Name, "_") {
			out = append(out, c)
		}
	}
	return out
}
