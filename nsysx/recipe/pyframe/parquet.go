package pyframe

import (
	"fmt"
	"io"
	"math"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"

	"github.com/nsysx/nsysx/internal/parquetio"
)

// maxRowGroup is pyarrow's default row group length (1 Mi rows): smaller
// frames are one row group, as every nsys output is.
const maxRowGroup = parquetio.MaxRowGroup

// WriteParquet writes f as pandas 3 + pyarrow write a DataFrame
// (docs/recipes.md §1.8) through the library's one Parquet writer
// (internal/parquetio) with its pandas option: format 2.6, Snappy,
// dictionary encoding, row groups of up to 1 Mi rows, the stored index
// columns last, and two key-value entries: the pandas metadata JSON and the
// Arrow schema (which carries the same metadata). This file maps the
// frame's kinds to the Arrow types pyarrow gives them and its columns to
// the column writers; parquetio derives the Parquet schema as pyarrow does
// (int64 without a logical type annotation, "element" as the list element
// name, "item" in ARROW:schema).
func WriteParquet(w io.Writer, f *Frame) error {
	if err := f.Check(); err != nil {
		return err
	}
	return writeParquet(w, f, func(write func(g *Frame, s, e int) error) error {
		n := f.Rows()
		for s := 0; s < n || s == 0; s += maxRowGroup {
			if err := write(f, s, min(s+maxRowGroup, n)); err != nil {
				return err
			}
		}
		return nil
	})
}

// WriteParquetGroups writes the frame whose columns (names, kinds, Cats,
// whether Valid is set) and index are those of head and whose rows are the
// groups' rows, one after another, as WriteParquet writes that whole frame:
// each group is one row group, so groups must hold MaxRowGroup rows each
// but the last (then the bytes are WriteParquet's, since a row group is
// encoded from its own rows alone). Every group has head's columns. No
// group writes head's row group (with no rows).
func WriteParquetGroups(w io.Writer, head *Frame, groups func(yield func(*Frame) error) error) error {
	if err := head.Check(); err != nil {
		return err
	}
	return writeParquet(w, head, func(write func(g *Frame, s, e int) error) error {
		n := 0
		err := groups(func(g *Frame) error {
			if err := g.Check(); err != nil {
				return err
			}
			if g.Rows() == 0 {
				return nil
			}
			if n > 0 && n%MaxRowGroup != 0 || g.Rows() > MaxRowGroup {
				return fmt.Errorf("parquet: row group of %d rows after %d rows (%d a group)", g.Rows(), n, MaxRowGroup)
			}
			n += g.Rows()
			return write(g, 0, g.Rows())
		})
		if err == nil && n == 0 {
			err = write(head, 0, 0)
		}
		return err
	})
}

// MaxRowGroup is the rows of a row group but the last (maxRowGroup).
const MaxRowGroup = maxRowGroup

// writeParquet writes the file of f's schema (f's rows are not read), with
// the row groups that groups writes through its write (rows [s, e) of g).
func writeParquet(w io.Writer, f *Frame, groups func(write func(g *Frame, s, e int) error) error) error {
	meta, err := pandasMetadata(f)
	if err != nil {
		return err
	}
	fields := make([]arrow.Field, len(f.Cols))
	for i, c := range f.Cols {
		fields[i] = arrow.Field{Name: c.Name, Type: arrowType(c), Nullable: true}
	}
	asc := arrow.NewSchema(fields, nil)
	pw, err := parquetio.NewWriterOptions(w, asc, parquetio.Options{Pandas: meta})
	if err != nil {
		return fmt.Errorf("parquet writer: %w", err)
	}
	if err := groups(func(g *Frame, s, e int) error { return writeRowGroup(pw, g, asc, s, e) }); err != nil {
		pw.Close()
		return err
	}
	return pw.Close()
}

// writeRowGroup writes rows [s, e) of every column as one row group
// (parquetio encodes the columns at once). String and list columns are
// written from the column's own slices (directRows), the others as Arrow
// arrays (leafData) with the calls pqarrow makes.
func writeRowGroup(pw *parquetio.Writer, f *Frame, asc *arrow.Schema, s, e int) error {
	cols := make([]parquetio.ColumnFunc, len(f.Cols))
	for i, c := range f.Cols {
		cols[i] = func(cw file.ColumnChunkWriter, ones []int16) error {
			if direct := directRows(c); direct != nil {
				return direct(cw, c, s, e, ones)
			}
			leaf, def, rep, err := leafData(memory.DefaultAllocator, c, asc.Field(i).Type, s, e, ones)
			if err != nil {
				return err
			}
			defer leaf.Release()
			return parquetio.WriteLeaf(cw, leaf, def, rep)
		}
	}
	return pw.WriteColumns(e-s, cols)
}

// viaArrow makes writeRowGroup write String and list columns through an
// Arrow array (leafData, WriteLeaf) rather than directly (directRows), for
// the test that both give the same bytes.
var viaArrow = false

// directRows is how a String or ListInt64 column is written without an
// Arrow array of its rows (nil: through one).
func directRows(c *Column) func(file.ColumnChunkWriter, *Column, int, int, []int16) error {
	switch {
	case viaArrow:
		return nil
	case c.Type == String:
		return func(cw file.ColumnChunkWriter, c *Column, s, e int, ones []int16) error {
			var valid []bool
			if c.Valid != nil {
				valid = c.Valid[s:e]
			}
			return parquetio.WriteStrings(cw, c.Strs[s:e], valid, ones)
		}
	case c.Type == ListInt64:
		return func(cw file.ColumnChunkWriter, c *Column, s, e int, _ []int16) error {
			var valid []bool
			if c.Valid != nil {
				valid = c.Valid[s:e]
			}
			return parquetio.WriteLists(cw, c.Lists[s:e], valid)
		}
	}
	return nil
}

// arrowType is the Arrow type pyarrow gives a column of kind c.Kind.
func arrowType(c *Column) arrow.DataType {
	switch c.Type {
	case Uint64:
		return arrow.PrimitiveTypes.Uint64
	case Uint32:
		return arrow.PrimitiveTypes.Uint32
	case Float64:
		return arrow.PrimitiveTypes.Float64
	case String:
		return arrow.BinaryTypes.LargeString
	case Null:
		return arrow.Null
	case ListInt64:
		return arrow.ListOf(arrow.PrimitiveTypes.Int64)
	case Category:
		return &arrow.DictionaryType{IndexType: codeType(len(c.Cats)), ValueType: arrow.PrimitiveTypes.Int64, Ordered: true}
	}
	return arrow.PrimitiveTypes.Int64
}

// codeType is the smallest signed integer type pandas uses for the codes
// of n categories.
func codeType(n int) arrow.DataType {
	switch {
	case n < math.MaxInt8:
		return arrow.PrimitiveTypes.Int8
	case n < math.MaxInt16:
		return arrow.PrimitiveTypes.Int16
	case n < math.MaxInt32:
		return arrow.PrimitiveTypes.Int32
	}
	return arrow.PrimitiveTypes.Int64
}

// leafData returns rows [s, e) of c as the leaf array and the definition
// and repetition levels of its Parquet column; ones (e−s levels of 1) are
// the definition levels of a column that has no NULL.
func leafData(mem memory.Allocator, c *Column, dt arrow.DataType, s, e int, ones []int16) (arrow.Array, []int16, []int16, error) {
	if c.Type == ListInt64 {
		return listLeaf(mem, c, s, e)
	}
	def := ones
	if c.Valid != nil || c.Type == Float64 || c.Type == Null {
		def = make([]int16, e-s)
		for i := s; i < e; i++ {
			if !c.IsNull(i) && !(c.Type == Float64 && math.IsNaN(c.FloatVals[i])) {
				def[i-s] = 1
			}
		}
	}
	var arr arrow.Array
	var err error
	switch c.Type {
	case Null:
		arr = array.NewNull(e - s)
	case Category:
		arr, err = buildCategory(mem, c, dt.(*arrow.DictionaryType), s, e)
	default:
		arr = buildFlat(mem, c, dt, s, e)
	}
	return arr, def, nil, err
}

// buildFlat builds rows [s, e) of a scalar column; a float NaN becomes
// NULL, as pandas writes it.
func buildFlat(mem memory.Allocator, c *Column, dt arrow.DataType, s, e int) arrow.Array {
	if c.Type == Int64 || c.Type == Uint64 {
		return intsView(c, dt, s, e)
	}
	b := array.NewBuilder(mem, dt)
	defer b.Release()
	b.Reserve(e - s)
	if sb, ok := b.(*array.LargeStringBuilder); ok {
		sb.ReserveData(textBytes(c, s, e))
	}
	for i := s; i < e; i++ {
		if c.IsNull(i) {
			b.AppendNull()
			continue
		}
		switch bb := b.(type) {
		case *array.Int64Builder:
			bb.Append(c.IntVals[i])
		case *array.Uint64Builder:
			bb.Append(uint64(c.IntVals[i]))
		case *array.Uint32Builder:
			bb.Append(uint32(c.IntVals[i]))
		case *array.Float64Builder:
			if math.IsNaN(c.FloatVals[i]) {
				bb.AppendNull()
			} else {
				bb.Append(c.FloatVals[i])
			}
		case *array.LargeStringBuilder:
			bb.Append(c.Strs[i])
		}
	}
	return b.NewArray()
}

// intsView is rows [s, e) of an Int64 or Uint64 column as an Arrow array
// over the column's own values (the same bits for both types), NULL rows
// marked in a validity bitmap: no copy of the values, which the column
// writer only reads (a NULL row's value is never read).
func intsView(c *Column, dt arrow.DataType, s, e int) arrow.Array {
	v := c.IntVals[s:e]
	var vals []byte
	if len(v) > 0 {
		vals = unsafe.Slice((*byte)(unsafe.Pointer(&v[0])), len(v)*8)
	}
	var bitmap *memory.Buffer
	nulls := 0
	if c.Valid != nil {
		bits := make([]byte, bitutil.BytesForBits(int64(len(v))))
		for i, ok := range c.Valid[s:e] {
			if ok {
				bitutil.SetBit(bits, i)
			} else {
				nulls++
			}
		}
		if nulls > 0 {
			bitmap = memory.NewBufferBytes(bits)
		}
	}
	d := array.NewData(dt, len(v), []*memory.Buffer{bitmap, memory.NewBufferBytes(vals)}, nil, nulls, 0)
	defer d.Release()
	return array.MakeFromData(d)
}

// textBytes is the bytes of the non-NULL strings of rows [s, e).
func textBytes(c *Column, s, e int) int {
	n := 0
	for i := s; i < e; i++ {
		if !c.IsNull(i) {
			n += len(c.Strs[i])
		}
	}
	return n
}

// listLeaf flattens rows [s, e) of a list column: the element values and
// the levels of an optional list of optional elements (NULL list: def 0,
// empty list: def 1, element: def 3; rep 1 for every element but a list's
// first).
func listLeaf(mem memory.Allocator, c *Column, s, e int) (arrow.Array, []int16, []int16, error) {
	vb := array.NewInt64Builder(mem)
	defer vb.Release()
	n := 0 // the levels: one per element, or per NULL or empty list
	for i := s; i < e; i++ {
		n += max(len(c.Lists[i]), 1)
	}
	vb.Reserve(n)
	def, rep := make([]int16, 0, n), make([]int16, 0, n)
	for i := s; i < e; i++ {
		l := c.Lists[i]
		switch {
		case c.IsNull(i):
			def, rep = append(def, 0), append(rep, 0)
		case len(l) == 0:
			def, rep = append(def, 1), append(rep, 0)
		default:
			for j, v := range l {
				def = append(def, 3)
				rep = append(rep, min(int16(j), 1))
				vb.Append(v)
			}
		}
	}
	return vb.NewArray(), def, rep, nil
}

// buildCategory encodes rows [s, e) of a Category column as codes into its
// categories.
func buildCategory(mem memory.Allocator, c *Column, dt *arrow.DictionaryType, s, e int) (arrow.Array, error) {
	pos := make(map[int64]int, len(c.Cats))
	for i, v := range c.Cats {
		pos[v] = i
	}
	codes := array.NewBuilder(mem, dt.IndexType)
	defer codes.Release()
	for i := s; i < e; i++ {
		k, ok := pos[c.IntVals[i]]
		switch {
		case c.IsNull(i):
			codes.AppendNull()
			continue
		case !ok:
			return nil, fmt.Errorf("frame: column %q: value %d is not one of its categories", c.Name, c.IntVals[i])
		}
		switch cb := codes.(type) {
		case *array.Int8Builder:
			cb.Append(int8(k))
		case *array.Int16Builder:
			cb.Append(int16(k))
		case *array.Int32Builder:
			cb.Append(int32(k))
		case *array.Int64Builder:
			cb.Append(int64(k))
		}
	}
	idx := codes.NewArray()
	defer idx.Release()
	cats := array.NewInt64Builder(mem)
	defer cats.Release()
	cats.AppendValues(c.Cats, nil)
	dict := cats.NewArray()
	defer dict.Release()
	return array.NewDictionaryArray(dt, idx, dict), nil
}
