package pyframe

import (
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/schema"
)

// readBatch is how many levels a column reader decodes at a time.
const readBatch = 1 << 16

// leafLevels are a leaf column's values (of one physical type) and its
// definition and repetition levels over all row groups.
type leafLevels struct {
	ints    []int64
	floats  []float64
	strs    []string
	def     []int16
	rep     []int16
	maxDef  int16
	present int // values (levels at maxDef)
}

// readColumns reads every top-level field of pf as a frame column, the
// column kinds as pqarrow would type them (the Parquet physical and
// logical types; the stored Arrow schema only tells large_utf8 from utf8,
// which are both String), without linking pqarrow (see parquet_leaf.go).
func readColumns(pf *file.Reader, numpy map[string]string) ([]*Column, error) {
	sc := pf.MetaData().Schema
	root := sc.Root()
	var out []*Column
	leaf := 0
	for i := 0; i < root.NumFields(); i++ {
		fld := root.Field(i)
		c, err := readField(pf, fld, leaf, numpy[fld.Name()])
		if err != nil {
			return nil, err
		}
		out = append(out, c)
		leaf += leafCount(fld)
	}
	return out, nil
}

// leafCount is the number of leaf columns under n.
func leafCount(n schema.Node) int {
	g, ok := n.(*schema.GroupNode)
	if !ok {
		return 1
	}
	k := 0
	for i := 0; i < g.NumFields(); i++ {
		k += leafCount(g.Field(i))
	}
	return k
}

// readField reads the field whose first leaf column is leaf.
func readField(pf *file.Reader, fld schema.Node, leaf int, numpyType string) (*Column, error) {
	c := &Column{Name: fld.Name()}
	if g, ok := fld.(*schema.GroupNode); ok {
		if !isInt64List(g) {
			return nil, fmt.Errorf("column %q: unsupported Arrow type %s", c.Name, nodeTypeName(fld))
		}
		lv, err := readLeaf(pf, leaf)
		if err != nil {
			return nil, err
		}
		return listColumn(c, lv, numpyType)
	}
	kind, ok := leafKind(fld.(*schema.PrimitiveNode))
	if !ok {
		return nil, fmt.Errorf("column %q: unsupported Arrow type %s", c.Name, nodeTypeName(fld))
	}
	lv, err := readLeaf(pf, leaf)
	if err != nil {
		return nil, err
	}
	flatColumn(c, kind, lv, numpyType)
	return c, nil
}

// isInt64List reports whether g is a list of int64 in the three-level
// layout pyarrow writes (optional list, repeated group, optional element).
func isInt64List(g *schema.GroupNode) bool {
	if g.LogicalType() == nil || !g.LogicalType().Equals(schema.ListLogicalType{}) || g.NumFields() != 1 {
		return false
	}
	mid, ok := g.Field(0).(*schema.GroupNode)
	if !ok || mid.RepetitionType() != parquet.Repetitions.Repeated || mid.NumFields() != 1 {
		return false
	}
	el, ok := mid.Field(0).(*schema.PrimitiveNode)
	return ok && el.PhysicalType() == parquet.Types.Int64 && !isLogical(el) &&
		g.RepetitionType() == parquet.Repetitions.Optional && el.RepetitionType() == parquet.Repetitions.Optional
}

// isLogical reports whether n has a logical type annotation.
func isLogical(n *schema.PrimitiveNode) bool {
	lt := n.LogicalType()
	return lt != nil && lt.IsValid() && !lt.IsNone()
}

// leafKind is the frame kind of a primitive field, false for a type a
// frame does not hold.
func leafKind(n *schema.PrimitiveNode) (Kind, bool) {
	lt := n.LogicalType()
	it, isInt := lt.(schema.IntLogicalType)
	switch n.PhysicalType() {
	case parquet.Types.Int64:
		switch {
		case !isLogical(n), isInt && it.BitWidth() == 64 && it.IsSigned():
			return Int64, true
		case isInt && it.BitWidth() == 64:
			return Uint64, true
		}
	case parquet.Types.Int32:
		switch {
		case isInt && it.BitWidth() == 32 && !it.IsSigned():
			return Uint32, true
		case lt.Equals(schema.NullLogicalType{}):
			return Null, true
		}
	case parquet.Types.Double:
		return Float64, true
	case parquet.Types.ByteArray:
		if lt.Equals(schema.StringLogicalType{}) {
			return String, true
		}
	}
	return 0, false
}

// nodeTypeName names the Arrow type pqarrow gives a field a frame cannot
// hold, for the error.
func nodeTypeName(n schema.Node) string {
	p, ok := n.(*schema.PrimitiveNode)
	if !ok {
		return "list or struct"
	}
	if it, ok := p.LogicalType().(schema.IntLogicalType); ok {
		if it.IsSigned() {
			return fmt.Sprintf("int%d", it.BitWidth())
		}
		return fmt.Sprintf("uint%d", it.BitWidth())
	}
	if isLogical(p) {
		return p.LogicalType().String()
	}
	switch p.PhysicalType() {
	case parquet.Types.Boolean:
		return "bool"
	case parquet.Types.Int32:
		return "int32"
	case parquet.Types.Float:
		return "float32"
	case parquet.Types.ByteArray:
		return "binary"
	}
	return p.PhysicalType().String()
}

// flatColumn fills c from the levels and values of a scalar column as the
// Arrow path did: Valid when a row is NULL or the pandas type is the
// nullable Int64; a NULL row holds 0, NaN (Float64) or "" (String).
func flatColumn(c *Column, kind Kind, lv *leafLevels, numpyType string) {
	n := len(lv.def)
	valid := make([]bool, n)
	for i, d := range lv.def {
		valid[i] = d == lv.maxDef
	}
	if lv.present < n || numpyType == "Int64" {
		c.Valid = valid
	}
	c.Type = kind
	switch kind {
	case Null:
		c.Valid = make([]bool, n)
	case Int64, Uint64, Uint32:
		c.IntVals = spread(lv.ints, valid, 0)
		if kind == Int64 && n == 0 {
			c.IntVals = nil
		}
		if kind == Uint32 {
			for i, v := range c.IntVals {
				c.IntVals[i] = int64(uint32(v))
			}
		}
	case Float64:
		if n > 0 {
			c.FloatVals = spread(lv.floats, valid, math.NaN())
		}
	case String:
		c.Strs = spread(lv.strs, valid, "")
	}
}

// spread places the present values at the valid rows, zero elsewhere.
func spread[T any](vals []T, valid []bool, zero T) []T {
	out := make([]T, len(valid))
	j := 0
	for i, ok := range valid {
		if ok {
			out[i] = vals[j]
			j++
		} else {
			out[i] = zero
		}
	}
	return out
}

// listColumn builds a ListInt64 column from the levels of its leaf: def 0
// is a NULL list, 1 an empty one, 2 a NULL element (an error, as before),
// 3 an element; rep 0 starts a row.
func listColumn(c *Column, lv *leafLevels, numpyType string) (*Column, error) {
	var lists [][]int64
	var valid []bool
	nulls, j := false, 0
	for i, d := range lv.def {
		if lv.rep[i] == 0 {
			var l []int64
			if d > 0 {
				l = []int64{}
			}
			lists, valid, nulls = append(lists, l), append(valid, d > 0), nulls || d == 0
		}
		switch d {
		case 2:
			return nil, fmt.Errorf("column %q row %d: NULL list element", c.Name, len(lists)-1)
		case 3:
			lists[len(lists)-1] = append(lists[len(lists)-1], lv.ints[j])
			j++
		}
	}
	c.Type, c.Lists = ListInt64, make([][]int64, len(lists))
	copy(c.Lists, lists)
	if nulls || numpyType == "Int64" {
		c.Valid = valid
	}
	return c, nil
}

// readLeaf reads leaf column ci of every row group.
func readLeaf(pf *file.Reader, ci int) (*leafLevels, error) {
	col := pf.MetaData().Schema.Column(ci)
	lv := &leafLevels{maxDef: col.MaxDefinitionLevel()}
	repeated := col.MaxRepetitionLevel() > 0
	for rg := 0; rg < pf.NumRowGroups(); rg++ {
		cr, err := pf.RowGroup(rg).Column(ci)
		if err != nil {
			return nil, err
		}
		b := batch{lv: lv, n: readBatch, repeated: repeated}
		if md, err := pf.RowGroup(rg).MetaData().ColumnChunk(ci); err == nil {
			b.n = max(1, min(b.n, md.NumValues()))
		}
		switch r := cr.(type) {
		case *file.Int64ColumnChunkReader:
			err = readAll(r, b, func(v []int64) { lv.ints = append(lv.ints, v...) })
		case *file.Int32ColumnChunkReader:
			err = readAll(r, b, func(v []int32) {
				for _, x := range v {
					lv.ints = append(lv.ints, int64(x))
				}
			})
		case *file.Float64ColumnChunkReader:
			err = readAll(r, b, func(v []float64) { lv.floats = append(lv.floats, v...) })
		case *file.ByteArrayColumnChunkReader:
			err = readAll(r, b, func(v []parquet.ByteArray) {
				for _, x := range v {
					lv.strs = append(lv.strs, string(x))
				}
			})
		default:
			err = fmt.Errorf("column %q: unsupported physical type %v", col.Name(), cr.Type())
		}
		if err != nil {
			return nil, err
		}
	}
	return lv, nil
}

// batchReader is a typed column chunk reader.
type batchReader[T any] interface {
	HasNext() bool
	Err() error
	ReadBatch(n int64, values []T, def, rep []int16) (int64, int, error)
}

// batch is how readAll reads a column chunk: into lv, n levels at a time
// (at most the chunk's), with repetition levels when the column repeats.
type batch struct {
	lv       *leafLevels
	n        int64
	repeated bool
}

// readAll reads one column chunk, handing its values to put and appending
// its levels to b.lv (all 0 when the column is required).
func readAll[T any](r batchReader[T], b batch, put func([]T)) error {
	lv := b.lv
	vals := make([]T, b.n)
	def := make([]int16, b.n)
	var rep []int16
	if b.repeated {
		rep = make([]int16, b.n)
	}
	for r.HasNext() {
		total, nv, err := r.ReadBatch(b.n, vals, def, rep)
		if err != nil {
			return err
		}
		if total == 0 {
			break
		}
		put(vals[:nv])
		lv.present += nv
		if lv.maxDef == 0 {
			clear(def[:total])
		}
		lv.def = append(lv.def, def[:total]...)
		if b.repeated {
			lv.rep = append(lv.rep, rep[:total]...)
		}
	}
	return r.Err()
}
