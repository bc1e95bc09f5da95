package frame

import "fmt"

// Type is the Arrow type a frame column is written with.
type Type uint8

const (
	Int64     Type = iota // int64 (pandas int64, or Int64 when it has NULLs)
	Uint64                // uint64
	Uint32                // uint32
	Float64               // float64; NULL and NaN are both written as NULL
	String                // large_utf8
	AllNull               // an all-NULL column of Python objects (Arrow null)
	ListInt64             // list<element: int64>
	// Category is an ordered pandas categorical of int64 values (the
	// gpu_metric_util_map bins): Ints holds the values, Column.Cats the
	// categories in order; written as dictionary<int8..int64, int64>.
	Category
)

func (k Type) String() string {
	switch k {
	case Int64:
		return "int64"
	case Uint64:
		return "uint64"
	case Uint32:
		return "uint32"
	case Float64:
		return "float64"
	case String:
		return "string"
	case AllNull:
		return "null"
	case ListInt64:
		return "list<int64>"
	case Category:
		return "category<int64>"
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// Column is one column of a Frame, in one of three forms:
//
//   - typed (what recipes' mappers build and the Parquet writers store):
//     Type says the Arrow type; integer types (Int64, Uint64, Uint32,
//     Category) keep their values in IntVals (Uint64 as the same bits),
//     Float64 in FloatVals, String in Strs, ListInt64 in Lists. Valid
//     marks non-NULL rows; a nil Valid means no NULLs. An Int64 column with
//     a non-nil Valid is pandas' nullable Int64 (numpy_type "Int64"), even
//     when every row is valid; with a nil Valid it is numpy int64;
//   - cells (what reports and rules build with Append): each cell has its
//     own Kind, as nsys's SQL results mix integers, reals and text in one
//     column; Kind is the Kind of the first non-NULL cell;
//   - computed (ComputedCol): no stored cells, each one derived on demand.
//
// Value, Len, IsNull, Float and the other cell readers work on every form.
// Name is the column's name; a report's carries nsys's unit tag ("Total
// Time:dur_ns"), which Label and Tag split. The typed form's fields are
// exported so that a Frame can be encoded as it is (gob, JSON) between a
// map and a reduce step.
type Column struct {
	Name      string
	Type      Type
	IntVals   []int64
	FloatVals []float64
	Strs      []string
	Lists     [][]int64
	Valid     []bool
	Cats      []int64 // Category: the categories, in order

	// Kind is the Kind of a cell or computed column's non-NULL cells
	// (IntKind, FloatKind or TextKind; NullKind while it has none). A
	// typed column's is NullKind: its cells' Kind follows from Type.
	Kind  Kind
	kinds []Kind   // cells: per cell
	num   []int64  // cells: integer value or float bits
	str   []string // cells: text cells; nil until the first text cell

	// A computed column has no stored cells: fn gives cell i of n.
	fn func(i int) Value
	n  int

	err error // Col of an unknown name: no cells, and this error (Err)
}

// typed reports whether c holds typed cells (not per-cell kinds, not
// computed, not Col's error column). An empty column made by NewResult is
// typed until its first Append.
func (c *Column) typed() bool { return c.kinds == nil && c.fn == nil && c.err == nil }

// Len is the number of rows.
func (c *Column) Len() int {
	if c == nil {
		panic(errNilCol)
	}
	switch {
	case c.err != nil:
		return 0
	case c.fn != nil:
		return c.n
	case c.kinds != nil:
		return len(c.kinds)
	}
	switch c.Type {
	case Float64:
		return len(c.FloatVals)
	case String:
		return len(c.Strs)
	case ListInt64:
		return len(c.Lists)
	case AllNull:
		return len(c.Valid)
	}
	return len(c.IntVals)
}

// IsNull reports whether row i is NULL. A typed Float64 row holding NaN is
// not NULL here (pandas keeps it apart until it writes it); its Value is.
func (c *Column) IsNull(i int) bool {
	if !c.typed() {
		return c.Value(i).IsNull()
	}
	if c.Type == AllNull {
		return true
	}
	return c.Valid != nil && !c.Valid[i]
}

// IndexKind says how a frame's row labels (pandas' index) are stored.
type IndexKind uint8

const (
	// NoIndex: written with index=False (pace files): no index at all.
	NoIndex IndexKind = iota
	// RangeIndex: 0..n-1, stored as pandas metadata only, named RangeName
	// (empty for an unnamed one).
	RangeIndex
	// NamedIndex: the columns named in IndexCols are the index, stored as
	// trailing physical columns (Name, Text, [Name, Device ID]).
	NamedIndex
	// LevelIndex: an unnamed integer index stored as the column
	// __index_level_0__ (values in IndexCols[0]'s column, named
	// "__index_level_0__").
	LevelIndex
)

// LevelIndexName is the column pandas writes for an unnamed stored index.
const LevelIndexName = "__index_level_0__"

// Frame is the library's one table type: what a report or rule computes
// (Result is its other name), what a recipe's mapper returns, and what the
// formatters render and the writers store. Cols holds the columns, in
// output order; a recipe's frame has its index columns (NamedIndex,
// LevelIndex) last, which is exactly the physical column order of the
// Parquet file. A report's columns are cells or computed (see Column), a
// recipe's typed; the table methods (Sort, Where, GroupBy, Join...) read
// every form and return cell columns.
type Frame struct {
	Report  string // what computed it: a Report's Name, or "compare", "sql", "recipe" ...
	Title   string // its display name (a Report's Title)
	Args    string // canonical option text as nsys prints it, e.g. "base" or "nvtx=x"
	Cols    []*Column
	Skipped string // non-empty when the report was SKIPPED (nsys's message)

	// Rule-only fields: advice shown above the table, the no-result text, and
	// the row limit that produced the "Only the top N results" message.
	// Advice also holds an nsysx report's note on what it counted (the idle
	// breakdown's on CUDA graphs traced whole), shown above the table too;
	// nsys's own reports have none.
	Advice   string
	NoResult string
	RowLimit int
	IsRule   bool

	// Source names the profile the result comes from (the file name without
	// its extensions, e.g. "before"); outputs of several profiles show it.
	Source string

	// The pandas index of a recipe's frame (NoIndex for a report's).
	Index     IndexKind
	IndexCols []string // NamedIndex: the index columns' names; LevelIndex: [LevelIndexName]
	RangeName string   // RangeIndex: the index name ("" for none)

	err error // set by a failed table operation (see Err)
}

// Typed reports whether f is a recipe's table: no report metadata, no
// error, and only typed columns. The notebook shows such a frame and
// reads it in SQL as pandas holds it (index included); any other frame
// as a report's result.
func (f *Frame) Typed() bool {
	if f == nil || f.Report != "" || f.Skipped != "" || f.err != nil {
		return false
	}
	for _, c := range f.Cols {
		if !c.typed() {
			return false
		}
	}
	return true
}

// Rows is the number of rows.
func (f *Frame) Rows() int {
	if len(f.Cols) == 0 {
		return 0
	}
	return f.Cols[0].Len()
}

// Find returns the column named name exactly, or nil (Col matches labels
// too and never returns nil).
func (f *Frame) Find(name string) *Column {
	for _, c := range f.Cols {
		if c.Name == name {
			return c
		}
	}
	return nil
}

// Names lists the column names in physical order.
func (f *Frame) Names() []string {
	out := make([]string, len(f.Cols))
	for i, c := range f.Cols {
		out[i] = c.Name
	}
	return out
}

// Check verifies that every column has the frame's row count, the fields
// its Kind uses, and that the index columns exist.
func (f *Frame) Check() error {
	n := f.Rows()
	for _, c := range f.Cols {
		if c.Len() != n {
			return fmt.Errorf("frame: column %q has %d rows, want %d", c.Name, c.Len(), n)
		}
		if c.Valid != nil && len(c.Valid) != n {
			return fmt.Errorf("frame: column %q has %d validity flags for %d rows", c.Name, len(c.Valid), n)
		}
		if c.Type > Category {
			return fmt.Errorf("frame: column %q has unknown kind %v", c.Name, c.Type)
		}
	}
	switch f.Index {
	case NamedIndex, LevelIndex:
		if len(f.IndexCols) == 0 {
			return fmt.Errorf("frame: %v index without index columns", f.Index)
		}
		for _, name := range f.IndexCols {
			if f.Find(name) == nil {
				return fmt.Errorf("frame: index column %q is missing", name)
			}
		}
	}
	return nil
}
