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

// Column is one typed column of a Frame. Integer kinds (Int64, Uint64,
// Uint32, Category) keep their values in Ints (Uint64 as the same bits),
// Float64 in Floats, String in Strs, ListInt64 in Lists. Valid marks non-NULL
// rows; a nil Valid means no NULLs. An Int64 column with a non-nil Valid is
// pandas' nullable Int64 (numpy_type "Int64"), even when every row is valid;
// with a nil Valid it is numpy int64. All fields are exported so that a Frame can be
// encoded as it is (gob, JSON) between a map and a reduce step.
type Column struct {
	Name      string
	Type      Type
	IntVals   []int64
	FloatVals []float64
	Strs      []string
	Lists     [][]int64
	Valid     []bool
	Cats      []int64 // Category: the categories, in order
}

// Len is the number of rows.
func (c *Column) Len() int {
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

// IsNull reports whether row i is NULL.
func (c *Column) IsNull(i int) bool {
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

// Frame is a table with named, typed columns and an index: what a mapper
// returns and what the writers store. Cols holds the data columns, in output
// order, followed by the index columns (for NamedIndex and LevelIndex),
// which is exactly the physical column order of the Parquet file.
type Frame struct {
	Cols      []*Column
	Index     IndexKind
	IndexCols []string // NamedIndex: the index columns' names; LevelIndex: [LevelIndexName]
	RangeName string   // RangeIndex: the index name ("" for none)
}

// Rows is the number of rows.
func (f *Frame) Rows() int {
	if len(f.Cols) == 0 {
		return 0
	}
	return f.Cols[0].Len()
}

// Col returns the column named name, or nil.
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
