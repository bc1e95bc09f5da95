package recipe

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// pandasMeta is the part of the pandas metadata ReadParquet needs.
type pandasMeta struct {
	IndexColumns []json.RawMessage `json:"index_columns"`
	Columns      []struct {
		FieldName  string `json:"field_name"`
		PandasType string `json:"pandas_type"`
		NumpyType  string `json:"numpy_type"`
	} `json:"columns"`
}

type rangeIndex struct {
	Kind string  `json:"kind"`
	Name *string `json:"name"`
}

// ReadParquet reads a Parquet file written by nsys (pandas + pyarrow) or
// by WriteParquet back into a Frame: the column kinds from the Arrow types
// and the pandas numpy_type (nullable Int64), the index kind from the
// pandas index_columns (docs/recipes.md §1.8).
func ReadParquet(path string) (*Frame, error) {
	pf, err := file.OpenParquetFile(path, false)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	defer pf.Close()
	var pm pandasMeta
	if v := pf.MetaData().KeyValueMetadata().FindValue("pandas"); v != nil {
		if err := json.Unmarshal([]byte(*v), &pm); err != nil {
			return nil, fmt.Errorf("reading %s: pandas metadata: %w", path, err)
		}
	}
	numpy := map[string]string{}
	cats := map[string][]int64{}
	for _, c := range pm.Columns {
		numpy[c.FieldName] = c.NumpyType
		if c.PandasType == "categorical" {
			if cats[c.FieldName], err = categories(pf, c.FieldName); err != nil {
				return nil, fmt.Errorf("reading %s: %w", path, err)
			}
		}
	}
	props := pqarrow.ArrowReadProperties{BatchSize: 1 << 16}
	fr, err := pqarrow.NewFileReader(pf, props, memory.DefaultAllocator)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	tbl, err := fr.ReadTable(context.Background())
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	defer tbl.Release()
	f := &Frame{}
	for i := 0; i < int(tbl.NumCols()); i++ {
		col := tbl.Column(i)
		c, err := readColumn(col, numpy[col.Name()])
		if err != nil {
			return nil, fmt.Errorf("reading %s: %w", path, err)
		}
		if cs, ok := cats[c.Name]; ok && c.Kind == Int64 {
			c.Kind, c.Cats = Category, cs
		}
		f.Cols = append(f.Cols, c)
	}
	if err := setIndex(f, pm.IndexColumns); err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	return f, nil
}

// setIndex sets the frame's index from pandas' index_columns.
func setIndex(f *Frame, entries []json.RawMessage) error {
	for _, e := range entries {
		var name string
		if json.Unmarshal(e, &name) == nil {
			f.IndexCols = append(f.IndexCols, name)
			continue
		}
		var r rangeIndex
		if err := json.Unmarshal(e, &r); err != nil || r.Kind != "range" {
			return fmt.Errorf("pandas metadata: unsupported index entry %s", e)
		}
		f.Index = RangeIndex
		if r.Name != nil {
			f.RangeName = *r.Name
		}
	}
	switch {
	case len(f.IndexCols) == 1 && f.IndexCols[0] == LevelIndexName:
		f.Index = LevelIndex
	case len(f.IndexCols) > 0:
		f.Index = NamedIndex
	}
	return f.Check()
}

// readColumn converts one Arrow column into a frame column.
func readColumn(col *arrow.Column, numpyType string) (*Column, error) {
	arr, err := concat(col.Data())
	if err != nil {
		return nil, err
	}
	defer arr.Release()
	c := &Column{Name: col.Name()}
	n := arr.Len()
	if arr.NullN() > 0 || numpyType == "Int64" {
		c.Valid = make([]bool, n)
		for i := range c.Valid {
			c.Valid[i] = arr.IsValid(i)
		}
	}
	switch a := arr.(type) {
	case *array.Int64:
		c.Kind, c.Ints = Int64, append([]int64(nil), a.Int64Values()...)
	case *array.Uint64:
		c.Kind, c.Ints = Uint64, make([]int64, n)
		for i, v := range a.Uint64Values() {
			c.Ints[i] = int64(v)
		}
	case *array.Uint32:
		c.Kind, c.Ints = Uint32, make([]int64, n)
		for i, v := range a.Uint32Values() {
			c.Ints[i] = int64(v)
		}
	case *array.Float64:
		c.Kind, c.Floats = Float64, append([]float64(nil), a.Float64Values()...)
		for i := range c.Floats {
			if a.IsNull(i) {
				c.Floats[i] = math.NaN()
			}
		}
	case *array.LargeString:
		c.Kind, c.Strs = String, make([]string, n)
		for i := range c.Strs {
			c.Strs[i] = a.Value(i)
		}
	case *array.String:
		c.Kind, c.Strs = String, make([]string, n)
		for i := range c.Strs {
			c.Strs[i] = a.Value(i)
		}
	case *array.Null:
		c.Kind, c.Valid = Null, make([]bool, n)
	case *array.List:
		return readList(c, a)
	default:
		return nil, fmt.Errorf("column %q: unsupported Arrow type %s", c.Name, arr.DataType())
	}
	if c.Kind == String && c.Valid != nil {
		for i, ok := range c.Valid {
			if !ok {
				c.Strs[i] = ""
			}
		}
	}
	return c, nil
}

func readList(c *Column, a *array.List) (*Column, error) {
	vals, ok := a.ListValues().(*array.Int64)
	if !ok {
		return nil, fmt.Errorf("column %q: unsupported list type %s", c.Name, a.DataType())
	}
	c.Kind, c.Lists = ListInt64, make([][]int64, a.Len())
	for i := range c.Lists {
		if a.IsNull(i) {
			continue
		}
		s, e := a.ValueOffsets(i)
		l := make([]int64, 0, e-s)
		for j := s; j < e; j++ {
			if vals.IsNull(int(j)) {
				return nil, fmt.Errorf("column %q row %d: NULL list element", c.Name, i)
			}
			l = append(l, vals.Value(int(j)))
		}
		c.Lists[i] = l
	}
	return c, nil
}

// categories reads the categories of an int64 categorical column: the
// values of its dictionary page (pyarrow writes the whole categorical
// dictionary there, used or not), PLAIN-encoded little-endian int64.
func categories(pf *file.Reader, name string) ([]int64, error) {
	ci := pf.MetaData().Schema.ColumnIndexByName(name)
	if ci < 0 || pf.NumRowGroups() == 0 {
		return nil, fmt.Errorf("categorical column %q not found", name)
	}
	if pt := pf.MetaData().Schema.Column(ci).PhysicalType(); pt != parquet.Types.Int64 {
		return nil, fmt.Errorf("categorical column %q: unsupported category type %v", name, pt)
	}
	pr, err := pf.RowGroup(0).GetColumnPageReader(ci)
	if err != nil {
		return nil, err
	}
	defer pr.Close()
	dp, err := pr.GetDictionaryPage()
	if err != nil || dp == nil {
		return nil, fmt.Errorf("categorical column %q has no dictionary page: %v", name, err)
	}
	if enc := parquet.Encoding(dp.Encoding()); enc != parquet.Encodings.Plain && enc != parquet.Encodings.PlainDict {
		return nil, fmt.Errorf("categorical column %q: dictionary encoding %v", name, dp.Encoding())
	}
	data := dp.Data()
	n := int(dp.NumValues())
	if len(data) < 8*n {
		return nil, fmt.Errorf("categorical column %q: short dictionary page", name)
	}
	out := make([]int64, n)
	for i := range out {
		out[i] = int64(binary.LittleEndian.Uint64(data[8*i:]))
	}
	return out, nil
}

// concat joins a column's chunks into one array (a new reference).
func concat(ch *arrow.Chunked) (arrow.Array, error) {
	if len(ch.Chunks()) == 1 {
		a := ch.Chunk(0)
		a.Retain()
		return a, nil
	}
	if len(ch.Chunks()) == 0 {
		return array.MakeArrayOfNull(memory.DefaultAllocator, ch.DataType(), 0), nil
	}
	return array.Concatenate(ch.Chunks(), memory.DefaultAllocator)
}
