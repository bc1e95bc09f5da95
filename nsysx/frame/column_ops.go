package frame

import (
	"math"
	"slices"
)

// NewInts makes an integer column (Int64, Uint64 or Uint32) over v; valid
// may be nil (no NULLs).
func NewInts(name string, k Type, v []int64, valid Mask) *Column {
	return &Column{Name: name, Type: k, IntVals: v, Valid: valid}
}

// NewFloats makes a Float64 column over v; valid may be nil.
func NewFloats(name string, v []float64, valid Mask) *Column {
	return &Column{Name: name, Type: Float64, FloatVals: v, Valid: valid}
}

// NewStrings makes a String column over v; valid may be nil.
func NewStrings(name string, v []string, valid Mask) *Column {
	return &Column{Name: name, Type: String, Strs: v, Valid: valid}
}

// NewColumn makes an n-row column of kind k, all zero and valid.
func NewColumn(name string, k Type, n int) *Column {
	c := &Column{Name: name, Type: k}
	switch k {
	case Float64:
		c.FloatVals = make([]float64, n)
	case String:
		c.Strs = make([]string, n)
	case ListInt64:
		c.Lists = make([][]int64, n)
	case AllNull:
		c.Valid = make([]bool, n)
	default:
		c.IntVals = make([]int64, n)
	}
	return c
}

// SetNull marks row i NULL, allocating the mask on first use.
func (c *Column) SetNull(i int) {
	if c.Valid == nil {
		c.Valid = make([]bool, c.Len())
		for k := range c.Valid {
			c.Valid[k] = true
		}
	}
	c.Valid[i] = false
}

// Set stores a number in row g (the integer or the float, by kind).
func (c *Column) Set(g int, v Num) {
	if c.Type == Float64 {
		c.FloatVals[g] = v.F
	} else {
		c.IntVals[g] = v.I
	}
}

// Float returns row i as a number (uint64 read unsigned; NaN for NULL or
// text).
func (c *Column) Float(i int) float64 {
	if !c.typed() {
		return c.Value(i).AsFloat()
	}
	if c.IsNull(i) {
		return math.NaN()
	}
	switch c.Type {
	case Float64:
		return c.FloatVals[i]
	case Uint64:
		return float64(uint64(c.IntVals[i]))
	case String, ListInt64:
		return math.NaN()
	}
	return float64(c.IntVals[i])
}

// cellKind is the Kind of c's non-NULL cells: Kind, or for a typed column
// with rows the Kind its Type gives.
func (c *Column) cellKind() Kind {
	if c.typed() && c.Len() > 0 {
		return c.valueKind()
	}
	return c.Kind
}

// Pick returns a new column with the given rows, in order. A non-nil Valid
// stays non-nil (an Int64 column keeps pandas' nullable Int64 dtype).
func (c *Column) Pick(rows []int) *Column {
	out := &Column{Name: c.Name, Type: c.Type, Cats: c.Cats}
	switch c.Type {
	case Float64:
		out.FloatVals = Pick(c.FloatVals, rows)
	case String:
		out.Strs = Pick(c.Strs, rows)
	case ListInt64:
		out.Lists = Pick(c.Lists, rows)
	case AllNull:
	default:
		out.IntVals = Pick(c.IntVals, rows)
	}
	if c.Valid != nil || c.Type == AllNull {
		out.Valid = make([]bool, len(rows))
		for k, i := range rows {
			out.Valid[k] = c.Type != AllNull && c.Valid[i]
		}
	}
	return out
}

// AsFloat returns c converted to Float64 (pandas' upcast when frames of
// int and float dtype are concatenated).
func (c *Column) AsFloat() *Column {
	if c.Type == Float64 {
		return c
	}
	out := &Column{Name: c.Name, Type: Float64, FloatVals: make([]float64, c.Len()), Valid: c.Valid}
	for i := range out.FloatVals {
		out.FloatVals[i] = c.Float(i)
	}
	return out
}

// AppendCol appends src's rows to dst (same kind).
func AppendCol(dst, src *Column) {
	n := dst.Len()
	if dst.Valid != nil || src.Valid != nil {
		if dst.Valid == nil {
			dst.Valid = trues(n)
		}
		if src.Valid == nil {
			dst.Valid = append(dst.Valid, trues(src.Len())...)
		} else {
			dst.Valid = append(dst.Valid, src.Valid...)
		}
	}
	switch dst.Type {
	case Float64:
		dst.FloatVals = append(dst.FloatVals, src.FloatVals...)
	case String:
		dst.Strs = append(dst.Strs, src.Strs...)
	case ListInt64:
		dst.Lists = append(dst.Lists, src.Lists...)
	case AllNull:
	default:
		dst.IntVals = append(dst.IntVals, src.IntVals...)
	}
}

// Reserve gives c's value slice room for n rows (its Valid mask grows on
// the first NULL, as appendCol makes it).
func Reserve(c *Column, n int) {
	switch c.Type {
	case Float64:
		c.FloatVals = slices.Grow(c.FloatVals, n)
	case String:
		c.Strs = slices.Grow(c.Strs, n)
	case ListInt64:
		c.Lists = slices.Grow(c.Lists, n)
	case AllNull:
	default:
		c.IntVals = slices.Grow(c.IntVals, n)
	}
}

func trues(n int) []bool {
	m := make([]bool, n)
	for i := range m {
		m[i] = true
	}
	return m
}
