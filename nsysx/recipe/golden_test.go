package recipe

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/nsysx/nsysx/internal/testutil"
)

// readGolden reads a golden recipe Parquet file (relative to
// testdata/golden/recipes) into a Frame with arrow-go, independently of the
// package's writers: Arrow types become Kinds and the pandas metadata's
// index_columns become the Frame's index.
func readGolden(t testing.TB, rel string) *Frame {
	t.Helper()
	path := filepath.Join(testutil.Root(), "testdata", "golden", "recipes", rel)
	rdr, err := file.OpenParquetFile(path, false)
	if err != nil {
		t.Fatalf("golden %s: %v", rel, err)
	}
	defer rdr.Close()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	fr, err := pqarrow.NewFileReader(rdr, pqarrow.ArrowReadProperties{}, mem)
	if err != nil {
		t.Fatal(err)
	}
	tbl, err := fr.ReadTable(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer tbl.Release()
	f := &Frame{}
	for i := 0; i < int(tbl.NumCols()); i++ {
		c, err := arrowColumn(tbl.Schema().Field(i).Name, tbl.Column(i).Data().Chunks())
		if err != nil {
			t.Fatalf("%s: %v", rel, err)
		}
		f.Cols = append(f.Cols, c)
	}
	if v := rdr.MetaData().KeyValueMetadata().FindValue("pandas"); v != nil {
		if err := pandasIndex(f, *v); err != nil {
			t.Fatalf("%s: pandas metadata: %v", rel, err)
		}
	}
	return f
}

// pandasIndex sets f's index from pandas' metadata JSON.
func pandasIndex(f *Frame, js string) error {
	var m struct {
		IndexColumns []json.RawMessage `json:"index_columns"`
	}
	if err := json.Unmarshal([]byte(js), &m); err != nil {
		return err
	}
	for _, raw := range m.IndexColumns {
		var name string
		if json.Unmarshal(raw, &name) == nil {
			if name == LevelIndexName {
				f.Index = LevelIndex
			} else {
				f.Index = NamedIndex
			}
			f.IndexCols = append(f.IndexCols, name)
			continue
		}
		var r struct {
			Kind string  `json:"kind"`
			Name *string `json:"name"`
		}
		if err := json.Unmarshal(raw, &r); err != nil {
			return err
		}
		f.Index = RangeIndex
		if r.Name != nil {
			f.RangeName = *r.Name
		}
	}
	return nil
}

// arrowColumn converts the chunks of one Arrow column.
func arrowColumn(name string, chunks []arrow.Array) (*Column, error) {
	c := &Column{Name: name}
	if len(chunks) == 0 {
		return nil, fmt.Errorf("column %s: no chunks", name)
	}
	switch chunks[0].DataType().ID() {
	case arrow.INT64:
		c.Kind = Int64
	case arrow.UINT64:
		c.Kind = Uint64
	case arrow.UINT32:
		c.Kind = Uint32
	case arrow.FLOAT64:
		c.Kind = Float64
	case arrow.STRING, arrow.LARGE_STRING:
		c.Kind = String
	case arrow.NULL:
		c.Kind = Null
	case arrow.LIST:
		c.Kind = ListInt64
	default:
		return nil, fmt.Errorf("column %s: type %s", name, chunks[0].DataType())
	}
	hasNull := false
	for _, ch := range chunks {
		for j := 0; j < ch.Len(); j++ {
			null := ch.IsNull(j)
			hasNull = hasNull || null
			c.Valid = append(c.Valid, !null)
			appendCell(c, ch, j, null)
		}
	}
	if !hasNull && c.Kind != Null {
		c.Valid = nil
	}
	return c, nil
}

func appendCell(c *Column, ch arrow.Array, j int, null bool) {
	switch a := ch.(type) {
	case *array.Int64:
		c.Ints = append(c.Ints, a.Value(j))
	case *array.Uint64:
		c.Ints = append(c.Ints, int64(a.Value(j)))
	case *array.Uint32:
		c.Ints = append(c.Ints, int64(a.Value(j)))
	case *array.Float64:
		v := a.Value(j)
		if null {
			v = math.NaN()
		}
		c.Floats = append(c.Floats, v)
	case *array.String:
		c.Strs = append(c.Strs, a.Value(j))
	case *array.LargeString:
		c.Strs = append(c.Strs, a.Value(j))
	case *array.List:
		var l []int64
		if !null {
			s, e := a.ValueOffsets(j)
			vals := a.ListValues().(*array.Int64)
			for k := s; k < e; k++ {
				l = append(l, vals.Value(int(k)))
			}
		}
		c.Lists = append(c.Lists, l)
	}
}

// sameFrame reports the first difference between want (a golden) and got:
// column names, kinds, NULLs, values (exactly; NaN equals NaN) and index.
func sameFrame(want, got *Frame) error {
	if fmt.Sprint(want.Names()) != fmt.Sprint(got.Names()) {
		return fmt.Errorf("columns: want %v, got %v", want.Names(), got.Names())
	}
	if want.Index != got.Index || fmt.Sprint(want.IndexCols) != fmt.Sprint(got.IndexCols) || want.RangeName != got.RangeName {
		return fmt.Errorf("index: want %v %v %q, got %v %v %q", want.Index, want.IndexCols, want.RangeName, got.Index, got.IndexCols, got.RangeName)
	}
	if want.Rows() != got.Rows() {
		return fmt.Errorf("rows: want %d, got %d", want.Rows(), got.Rows())
	}
	for i, w := range want.Cols {
		if err := sameColumn(w, got.Cols[i]); err != nil {
			return err
		}
	}
	return nil
}

func sameColumn(w, g *Column) error {
	if w.Kind != g.Kind {
		return fmt.Errorf("column %s: kind want %v, got %v", w.Name, w.Kind, g.Kind)
	}
	if g.Len() != w.Len() {
		return fmt.Errorf("column %s: %d rows, want %d", w.Name, g.Len(), w.Len())
	}
	for i := 0; i < w.Len(); i++ {
		wn, gn := w.IsNull(i), g.IsNull(i) || g.Kind == Float64 && math.IsNaN(g.Floats[i])
		if wn != gn {
			return fmt.Errorf("column %s row %d: NULL want %v, got %v", w.Name, i, wn, gn)
		}
		if wn {
			continue
		}
		if ws, gs := cellString(w, i), cellString(g, i); ws != gs {
			return fmt.Errorf("column %s row %d: want %s, got %s", w.Name, i, ws, gs)
		}
	}
	return nil
}

func cellString(c *Column, i int) string {
	switch c.Kind {
	case Float64:
		return fmt.Sprint(c.Floats[i])
	case String:
		return fmt.Sprintf("%q", c.Strs[i])
	case ListInt64:
		return fmt.Sprint(c.Lists[i])
	}
	return fmt.Sprint(c.Ints[i])
}

// checkGolden compares a table of an Output with its golden file.
func checkGolden(t *testing.T, out *Output, set, recipe, table string) {
	t.Helper()
	got := out.Table(table)
	if got == nil {
		t.Fatalf("%s/%s: no table %s", set, recipe, table)
	}
	want := readGolden(t, filepath.Join(set, recipe, table+".parquet"))
	if err := sameFrame(want, got); err != nil {
		t.Errorf("%s/%s/%s: %v", set, recipe, table, err)
	}
}
