package nsysx

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/nsysx/nsysx/nsysx/load"
)

// TestParquetTypesWithoutStoredSchema reads a file that pqarrow wrote
// without the Arrow schema (as other tools write Parquet), in row groups of
// 2 rows: every physical type nsys uses, unsigned and signed 32-bit
// integers, booleans, float32 and NULLs, against values written here.
func TestParquetTypesWithoutStoredSchema(t *testing.T) {
	sc := arrow.NewSchema([]arrow.Field{
		{Name: "u32", Type: arrow.PrimitiveTypes.Uint32, Nullable: true},
		{Name: "i32", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		{Name: "u64", Type: arrow.PrimitiveTypes.Uint64},
		{Name: "b", Type: arrow.FixedWidthTypes.Boolean, Nullable: true},
		{Name: "f32", Type: arrow.PrimitiveTypes.Float32, Nullable: true},
		{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
	}, nil)
	bld := array.NewRecordBuilder(memory.DefaultAllocator, sc)
	defer bld.Release()
	valid := []bool{true, false, true}
	bld.Field(0).(*array.Uint32Builder).AppendValues([]uint32{4294967295, 0, 7}, valid)
	bld.Field(1).(*array.Int32Builder).AppendValues([]int32{-1, 0, -5}, valid)
	bld.Field(2).(*array.Uint64Builder).AppendValues([]uint64{1 << 63, 2, 3}, nil)
	bld.Field(3).(*array.BooleanBuilder).AppendValues([]bool{true, false, false}, valid)
	bld.Field(4).(*array.Float32Builder).AppendValues([]float32{1.5, 0, -2.25}, valid)
	bld.Field(5).(*array.StringBuilder).AppendValues([]string{"a", "", "ccc"}, valid)
	rec := bld.NewRecordBatch()
	defer rec.Release()
	dir := t.TempDir()
	writePQArrow(t, filepath.Join(dir, "T.parquet"), rec, 2)
	src, _, err := load.OpenDirAlloc(dir, memory.DefaultAllocator)
	if err != nil {
		t.Fatal(err)
	}
	ts := src.Schema()[0]
	tb, err := src.Load(context.Background(), ts, ts.Columns)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]Value{
		"u32": {IntV(4294967295), Null, IntV(7)},
		"i32": {IntV(-1), Null, IntV(-5)},
		"u64": {IntV(-1 << 63), IntV(2), IntV(3)},
		"b":   {IntV(1), Null, IntV(0)},
		"f32": {FloatV(1.5), Null, FloatV(-2.25)},
		"s":   {TextV("a"), Null, TextV("ccc")},
	}
	if tb.N != 3 {
		t.Fatalf("%d rows, want 3", tb.N)
	}
	for name, vs := range want {
		c := tb.Col(name)
		for i, w := range vs {
			if got := c.Value(i); !sameCell(got, w) {
				t.Errorf("%s row %d: %v, want %v", name, i, got, w)
			}
		}
	}
}

// writePQArrow writes rec with pqarrow, without the Arrow schema, in row
// groups of rg rows.
func writePQArrow(t *testing.T, path string, rec arrow.RecordBatch, rg int64) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	props := parquet.NewWriterProperties(parquet.WithMaxRowGroupLength(rg))
	fw, err := pqarrow.NewFileWriter(rec.Schema(), f, props, pqarrow.DefaultWriterProps())
	if err != nil {
		t.Fatal(err)
	}
	if err := fw.Write(rec); err != nil {
		t.Fatal(err)
	}
	if err := fw.Close(); err != nil {
		t.Fatal(err)
	}
}
