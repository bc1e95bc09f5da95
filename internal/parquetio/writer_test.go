package parquetio

import (
	"bytes"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	pqfile "github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// TestWriterRoundTrip writes two batches (NULLs, a string slice that does
// not start at offset 0) in row groups of 3 rows and reads them back with
// pqarrow, which also decodes the stored Arrow schema.
func TestWriterRoundTrip(t *testing.T) {
	md := arrow.NewMetadata([]string{"table_name"}, []string{"T"})
	sc := arrow.NewSchema([]arrow.Field{
		{Name: "i", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "f", Type: arrow.PrimitiveTypes.Float64},
		{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
	}, &md)
	b := array.NewRecordBuilder(memory.DefaultAllocator, sc)
	defer b.Release()
	b.Field(0).(*array.Int64Builder).AppendValues([]int64{1, 0, 3, 4}, []bool{true, false, true, true})
	b.Field(1).(*array.Float64Builder).AppendValues([]float64{0.5, 1.5, 2.5, 3.5}, nil)
	b.Field(2).(*array.StringBuilder).AppendValues([]string{"a", "bb", "", "dddd"}, []bool{true, true, false, true})
	rec := b.NewRecordBatch()
	defer rec.Release()
	var buf bytes.Buffer
	w, err := NewWriter(&buf, sc, parquet.NewWriterProperties(parquet.WithMaxRowGroupLength(3)))
	if err != nil {
		t.Fatal(err)
	}
	tail := rec.NewSlice(1, 4) // strings from offset 1
	defer tail.Release()
	writeAll(t, w, rec, tail)
	rd, err := pqfile.NewParquetReader(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if rd.NumRowGroups() != 3 || rd.NumRows() != 7 {
		t.Errorf("%d row groups, %d rows; want 3, 7", rd.NumRowGroups(), rd.NumRows())
	}
	fr, err := pqarrow.NewFileReader(rd, pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
	if err != nil {
		t.Fatal(err)
	}
	got, err := fr.Schema()
	if err != nil || got.NumFields() != 3 || got.Metadata().FindKey("table_name") < 0 {
		t.Fatalf("schema %v (%v), want %v", got, err, sc)
	}
	for i, f := range sc.Fields() { // pqarrow adds PARQUET:field_id metadata
		if g := got.Field(i); g.Name != f.Name || !arrow.TypeEqual(g.Type, f.Type) || g.Nullable != f.Nullable {
			t.Errorf("field %d: %v, want %v", i, g, f)
		}
	}
	tbl, err := fr.ReadTable(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	defer tbl.Release()
	want := []string{"1,NULL,3,4,NULL,3,4", "0.5,1.5,2.5,3.5,1.5,2.5,3.5", "a,bb,NULL,dddd,bb,NULL,dddd"}
	for i, w := range want {
		if g := cellTexts(tbl.Column(i)); g != w {
			t.Errorf("column %d: %s, want %s", i, g, w)
		}
	}
}

// TestWriterRejects: types the writer does not know (float32), and NULLs
// in a column declared not nullable, are errors.
func TestWriterRejects(t *testing.T) {
	props := parquet.NewWriterProperties()
	sc := arrow.NewSchema([]arrow.Field{{Name: "u", Type: arrow.PrimitiveTypes.Float32}}, nil)
	if _, err := NewWriter(&bytes.Buffer{}, sc, props); err == nil {
		t.Error("float32 column: no error")
	}
	sc = arrow.NewSchema([]arrow.Field{{Name: "i", Type: arrow.PrimitiveTypes.Int64}}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, sc)
	defer b.Release()
	b.Field(0).(*array.Int64Builder).AppendValues([]int64{1, 2}, []bool{true, false})
	rec := b.NewRecordBatch()
	defer rec.Release()
	w, err := NewWriter(&bytes.Buffer{}, sc, props)
	if err != nil {
		t.Fatal(err)
	}
	// the column is encoded on a worker: its error comes from a later Write
	// or from Close
	err = w.Write(rec)
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	if err == nil || !strings.Contains(err.Error(), "column i") {
		t.Errorf("NULL in a required column: %v, want the column's error", err)
	}
}

// TestWriterPandasTypes: the types recipes' frames use (uint64, uint32,
// large_utf8, list<int64>, dictionary<int8, int64>; pqarrow cannot read
// back the all-NULL dictionary column of a null field) written as record
// batches with the pandas option read back with pqarrow as the same values,
// with pyarrow's writer properties (format 2.6) and the pandas metadata
// stored first, in the key-value metadata and in the Arrow schema.
func TestWriterPandasTypes(t *testing.T) {
	mem := memory.DefaultAllocator
	dict := &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int8, ValueType: arrow.PrimitiveTypes.Int64, Ordered: true}
	sc := arrow.NewSchema([]arrow.Field{
		{Name: "u64", Type: arrow.PrimitiveTypes.Uint64, Nullable: true},
		{Name: "u32", Type: arrow.PrimitiveTypes.Uint32, Nullable: true},
		{Name: "s", Type: arrow.BinaryTypes.LargeString, Nullable: true},
		{Name: "l", Type: arrow.ListOf(arrow.PrimitiveTypes.Int64), Nullable: true},
		{Name: "c", Type: dict, Nullable: true},
	}, nil)
	b := array.NewRecordBuilder(mem, sc)
	defer b.Release()
	b.Field(0).(*array.Uint64Builder).AppendValues([]uint64{1 << 63, 0, 7}, []bool{true, false, true})
	b.Field(1).(*array.Uint32Builder).AppendValues([]uint32{1 << 31, 2, 3}, nil)
	b.Field(2).(*array.LargeStringBuilder).AppendValues([]string{"x", "", "zz"}, []bool{true, true, false})
	lb := b.Field(3).(*array.ListBuilder)
	lb.Append(true)
	lb.ValueBuilder().(*array.Int64Builder).AppendValues([]int64{4, 5}, nil)
	lb.Append(true)
	lb.AppendNull()
	cb := b.Field(4).(*array.Int64DictionaryBuilder)
	for _, v := range []int64{30, 10, 30} {
		if err := cb.Append(v); err != nil {
			t.Fatal(err)
		}
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	var buf bytes.Buffer
	const meta = `{"index_columns": []}`
	w, err := NewWriterOptions(&buf, sc, Options{Pandas: meta})
	if err != nil {
		t.Fatal(err)
	}
	writeAll(t, w, rec)
	rd, err := pqfile.NewParquetReader(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if v := rd.MetaData().Version(); v != parquet.V2_6 {
		t.Errorf("format version %v, want 2.6", v)
	}
	if kv := rd.MetaData().KeyValueMetadata(); kv.Len() != 2 || kv.Keys()[0] != "pandas" || kv.Values()[0] != meta || kv.Keys()[1] != "ARROW:schema" {
		t.Errorf("key-value metadata %v, want pandas then ARROW:schema", kv.Keys())
	}
	fr, err := pqarrow.NewFileReader(rd, pqarrow.ArrowReadProperties{}, mem)
	if err != nil {
		t.Fatal(err)
	}
	got, err := fr.Schema()
	if err != nil || got.Metadata().FindKey("pandas") < 0 {
		t.Fatalf("schema %v (%v): no pandas metadata", got, err)
	}
	tbl, err := fr.ReadTable(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	defer tbl.Release()
	want := []string{"9223372036854775808,NULL,7", "2147483648,2,3", "x,,NULL", "[4,5],[],NULL", "30,10,30"}
	for i, w := range want {
		if g := cellTexts(tbl.Column(i)); g != w {
			t.Errorf("column %s: %s, want %s", sc.Field(i).Name, g, w)
		}
	}
}

// writeAll writes the record batches and closes w.
func writeAll(t *testing.T, w *Writer, recs ...arrow.RecordBatch) {
	t.Helper()
	for _, rec := range recs {
		if err := w.Write(rec); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

// cellTexts is a column's cells as text, comma-separated: NULL for a
// NULL, a dictionary cell's value.
func cellTexts(c *arrow.Column) string {
	var vals []string
	for _, ch := range c.Data().Chunks() {
		for j := 0; j < ch.Len(); j++ {
			switch {
			case ch.IsNull(j):
				vals = append(vals, "NULL")
			case ch.DataType().ID() == arrow.DICTIONARY:
				d := ch.(*array.Dictionary)
				vals = append(vals, d.Dictionary().ValueStr(d.GetValueIndex(j)))
			default:
				vals = append(vals, ch.ValueStr(j))
			}
		}
	}
	return strings.Join(vals, ",")
}
