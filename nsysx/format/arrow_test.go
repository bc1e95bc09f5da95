package format

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/nsysx/nsysx/internal/testutil"
	"github.com/nsysx/nsysx/nsysx"
)

// arrowSampleResult has every typing case: ints, floats, ints mixed with floats,
// text, ints mixed with text, NULLs, a hidden column and int64 extremes.
func arrowSampleResult() *nsysx.Result {
	r := nsysx.NewResult("cuda_gpu_kern_sum", "CUDA GPU Kernel Summary",
		"Time:ratio_%", "Total Time:dur_ns", "Instances", "Avg:dur_ns", "Name", "_Q1", "Bytes:mem_B", "Mixed", "Start:ts_ns")
	r.Args = "base"
	r.Add(nsysx.FloatV(62.5), nsysx.IntV(1000), nsysx.IntV(3), nsysx.FloatV(1000.0/3), nsysx.TextV("kern_a"),
		nsysx.IntV(7), nsysx.IntV(1<<40), nsysx.IntV(5), nsysx.IntV(math.MaxInt64))
	r.Add(nsysx.FloatV(37.5), nsysx.IntV(600), nsysx.IntV(2), nsysx.IntV(300), nsysx.TextV(`kern "b" ü`),
		nsysx.IntV(7), nsysx.Null, nsysx.TextV("x"), nsysx.IntV(math.MinInt64))
	r.Add(nsysx.Null, nsysx.IntV(0), nsysx.IntV(0), nsysx.Null, nsysx.Null,
		nsysx.Null, nsysx.IntV(0), nsysx.FloatV(0.1), nsysx.Null)
	return r
}

// arrowWant describes the expected columns of arrowSampleResult: name, kind of values
// ("int", "float", "text") and the cells as text ("" for NULL).
var arrowWant = []struct {
	name, kind string
	cells      []string
}{
	{"Time (%)", "float", []string{"62.5", "37.5", ""}},
	{"Total Time (ns)", "int", []string{"1000", "600", "0"}},
	{"Instances", "int", []string{"3", "2", "0"}},
	{"Avg (ns)", "float", []string{"333.3333333333333", "300", ""}},
	{"Name", "text", []string{"kern_a", `kern "b" ü`, ""}},
	{"Bytes (B)", "int", []string{"1099511627776", "", "0"}},
	{"Mixed", "text", []string{"5", "x", "0.1"}},
	{"Start (ns)", "int", []string{"9223372036854775807", "-9223372036854775808", ""}},
}

func TestArrowBinaryName(t *testing.T) {
	r := nsysx.NewResult("r", "R", "Total Time:dur_ns", "Time:ratio_%", "Total:mem_B", "Throughput:thru_B", "Device:gid", "Name", "Avg:dur_us", "Size:mem")
	var got []string
	for _, c := range r.Cols {
		got = append(got, BinaryName(c))
	}
	if s := strings.Join(got, "|"); s != "Total Time (ns)|Time (%)|Total (B)|Throughput (B/s)|Device|Name|Avg (us)|Size (B)" {
		t.Errorf("names %s", s)
	}
}

// arrowCheckRecords compares records read back with arrow-go against arrowWant.
func arrowCheckRecords(t *testing.T, sc *arrow.Schema, recs []arrow.RecordBatch) {
	t.Helper()
	if md := sc.Metadata(); md.FindKey("report") < 0 || md.Values()[md.FindKey("title")] != "CUDA GPU Kernel Summary" ||
		md.Values()[md.FindKey("args")] != "base" {
		t.Errorf("metadata %v", md)
	}
	if len(sc.Fields()) != len(arrowWant) {
		t.Fatalf("%d fields: %v", len(sc.Fields()), sc)
	}
	kinds := map[string]arrow.DataType{"int": arrow.PrimitiveTypes.Int64, "float": arrow.PrimitiveTypes.Float64, "text": arrow.BinaryTypes.String}
	for j, w := range arrowWant {
		f := sc.Field(j)
		if f.Name != w.name || !arrow.TypeEqual(f.Type, kinds[w.kind]) {
			t.Errorf("field %d: %s %s, arrowWant %s %s", j, f.Name, f.Type, w.name, w.kind)
		}
		var cells []string
		for _, rec := range recs {
			col := rec.Column(j)
			for i := 0; i < col.Len(); i++ {
				switch {
				case col.IsNull(i):
					cells = append(cells, "")
				case w.kind == "float":
					cells = append(cells, strconv.FormatFloat(col.(*array.Float64).Value(i), 'g', -1, 64))
				default:
					cells = append(cells, col.ValueStr(i))
				}
			}
		}
		if strings.Join(cells, "|") != strings.Join(w.cells, "|") {
			t.Errorf("%s: %q, arrowWant %q", w.name, cells, w.cells)
		}
	}
}

// arrowNoClose fails the test when the writers close the caller's writer.
type arrowNoClose struct {
	bytes.Buffer
	t *testing.T
}

func (m *arrowNoClose) Close() error { m.t.Error("writer closed"); return nil }

func TestArrowWriteResultReadBack(t *testing.T) {
	for _, format := range []string{"arrow", "parquet"} {
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		buf := &arrowNoClose{t: t}
		if err := writeResult(buf, arrowSampleResult(), format, mem); err != nil {
			t.Fatal(err)
		}
		mem.AssertSize(t, 0)
		data := buf.Bytes()
		if format == "arrow" {
			r, err := ipc.NewFileReader(bytes.NewReader(data))
			if err != nil {
				t.Fatal(err)
			}
			rec, err := r.RecordBatchAt(0)
			if err != nil {
				t.Fatal(err)
			}
			arrowCheckRecords(t, r.Schema(), []arrow.RecordBatch{rec})
			rec.Release()
			r.Close()
			continue
		}
		rd, err := file.NewParquetReader(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		fr, err := pqarrow.NewFileReader(rd, pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
		if err != nil {
			t.Fatal(err)
		}
		tbl, err := fr.ReadTable(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		tr := array.NewTableReader(tbl, -1)
		var recs []arrow.RecordBatch
		for tr.Next() {
			rec := tr.RecordBatch()
			rec.Retain()
			recs = append(recs, rec)
		}
		sc, err := fr.Schema() // the table's schema lacks the metadata
		if err != nil {
			t.Fatal(err)
		}
		arrowCheckRecords(t, sc, recs)
		for _, rec := range recs {
			rec.Release()
		}
		tr.Release()
		tbl.Release()
		rd.Close()
	}
}

func TestArrowWriteErrors(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteParquet(&buf, nsysx.Skip("nvtx_sum", "NVTX Range Summary", "SKIPPED: no NVTX data")); err == nil {
		t.Error("skipped result written")
	}
	if err := WriteArrow(&buf, nsysx.NewResult("r", "R", "_hidden")); err == nil {
		t.Error("result without visible columns written")
	}
	// An empty result still has typed columns.
	empty := nsysx.NewResult("r", "R", "Total Time:dur_ns", "Name")
	for _, write := range []func(*bytes.Buffer, *nsysx.Result) error{
		func(b *bytes.Buffer, r *nsysx.Result) error { return WriteArrow(b, r) },
		func(b *bytes.Buffer, r *nsysx.Result) error { return WriteParquet(b, r) },
	} {
		buf.Reset()
		if err := write(&buf, empty); err != nil || buf.Len() == 0 {
			t.Errorf("empty result: %v", err)
		}
	}
	if sc := ResultSchema(empty); sc.Field(0).Type.ID() != arrow.INT64 || sc.Field(1).Type.ID() != arrow.STRING {
		t.Errorf("empty schema %v", sc)
	}
}

// arrowBigResult has more rows than one record batch.
func arrowBigResult() *nsysx.Result {
	r := nsysx.NewResult("cuda_gpu_trace", "CUDA GPU Trace", "Start:ts_ns", "Name")
	for i := 0; i < nsysx.BatchRows+1000; i++ {
		r.Add(nsysx.IntV(int64(i)), nsysx.TextV("k"+strconv.Itoa(i%10)))
	}
	return r
}

// TestArrowOpensInNodeTools opens the outputs with DuckDB and apache-arrow
// through tools/npm-check.
func TestArrowOpensInNodeTools(t *testing.T) {
	check := testutil.NodeCheck(t, "npm-check", "@duckdb/node-api", "apache-arrow")
	dir := t.TempDir()
	var files []string
	for _, f := range []struct {
		name  string
		r     *nsysx.Result
		write func(*os.File, *nsysx.Result) error
	}{
		{"small.parquet", arrowSampleResult(), func(w *os.File, r *nsysx.Result) error { return WriteParquet(w, r) }},
		{"small.arrow", arrowSampleResult(), func(w *os.File, r *nsysx.Result) error { return WriteArrow(w, r) }},
		{"big.parquet", arrowBigResult(), func(w *os.File, r *nsysx.Result) error { return WriteParquet(w, r) }},
		{"big.arrow", arrowBigResult(), func(w *os.File, r *nsysx.Result) error { return WriteArrow(w, r) }},
	} {
		path := filepath.Join(dir, f.name)
		out, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := f.write(out, f.r); err != nil {
			t.Fatal(err)
		}
		out.Close()
		files = append(files, path)
	}
	var got []testutil.NPMCheckFile
	check(files, &got)
	if len(got) != 4 {
		t.Fatalf("%d outputs", len(got))
	}
	types := map[string]map[string]string{
		"duckdb":       {"int": "BIGINT", "float": "DOUBLE", "text": "VARCHAR"},
		"apache-arrow": {"int": "Int64", "float": "Float64", "text": "Utf8"},
	}
	for _, o := range got[:2] {
		if o.Rows != 3 || len(o.Columns) != len(arrowWant) || len(o.Data) != 3 {
			t.Errorf("%s: %d rows, %d columns", o.Reader, o.Rows, len(o.Columns))
			continue
		}
		if o.Metadata["report"] != "cuda_gpu_kern_sum" || o.Metadata["title"] != "CUDA GPU Kernel Summary" || o.Metadata["args"] != "base" {
			t.Errorf("%s: metadata %v", o.Reader, o.Metadata)
		}
		for j, w := range arrowWant {
			c := o.Columns[j]
			if c.Name != w.name || c.Type != types[o.Reader][w.kind] {
				t.Errorf("%s: column %d is %s %s, arrowWant %s %s", o.Reader, j, c.Name, c.Type, w.name, types[o.Reader][w.kind])
			}
			for i, cell := range w.cells {
				if g := arrowJSONCell(o.Data[i][j], w.kind); g != cell {
					t.Errorf("%s: %s row %d = %q, arrowWant %q", o.Reader, w.name, i, g, cell)
				}
			}
		}
	}
	for _, o := range got[2:] {
		if o.Rows != nsysx.BatchRows+1000 || len(o.Columns) != 2 || o.Columns[0].Name != "Start (ns)" {
			t.Errorf("%s %s: %d rows, columns %v", o.Reader, filepath.Base(o.File), o.Rows, o.Columns)
		}
	}
}

// arrowJSONCell renders a cell of check.mjs's output like arrowWant's cells.
func arrowJSONCell(v any, kind string) string {
	switch v := v.(type) {
	case nil:
		return ""
	case json.Number:
		if kind == "float" {
			f, _ := v.Float64()
			return strconv.FormatFloat(f, 'g', -1, 64)
		}
		return v.String()
	case string:
		return v
	}
	return errors.New("unexpected JSON value").Error()
}

// Write a report as Parquet for DuckDB:
//
//	SELECT "Name", "Total Time (ns)" FROM 'kern_sum.parquet' ORDER BY 2 DESC
func ExampleWriteParquet() {
	p, err := nsysx.Open("report.sqlite")
	if err != nil {
		log.Fatal(err)
	}
	defer p.Close()
	r, err := p.Run(context.Background(), "cuda_gpu_kern_sum", nil)
	if err != nil {
		log.Fatal(err)
	}
	f, err := os.Create("kern_sum.parquet")
	if err != nil {
		log.Fatal(err)
	}
	if err := WriteParquet(f, r); err != nil {
		log.Fatal(err)
	}
	if err := f.Close(); err != nil {
		log.Fatal(err)
	}
}

// TestArrowRealReports writes real reports over the Parquet fixture and
// compares every cell read back with the result's.
func TestArrowRealReports(t *testing.T) {
	p, err := nsysx.Open(filepath.Join("..", "..", "testdata", "profiles", "train_pqtdir"))
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	for _, spec := range []string{"cuda_gpu_kern_sum", "cuda_gpu_trace", "cuda_api_sum"} {
		r, err := p.Run(t.Context(), spec, nil)
		if err != nil {
			t.Fatal(err)
		}
		if r.Skipped != "" || r.Len() == 0 {
			t.Fatalf("%s: no rows (%s)", spec, r.Skipped)
		}
		var buf bytes.Buffer
		if err := WriteArrow(&buf, r); err != nil {
			t.Fatal(err)
		}
		rd, err := ipc.NewFileReader(bytes.NewReader(buf.Bytes()))
		if err != nil {
			t.Fatal(err)
		}
		row := 0
		for k := 0; k < rd.NumRecords(); k++ {
			rec, err := rd.RecordBatchAt(k)
			if err != nil {
				t.Fatal(err)
			}
			for j, c := range r.Visible() {
				col := rec.Column(j)
				for i := 0; i < col.Len(); i++ {
					if g, w := arrowCell(col, i), c.Value(row+i); !sameValue(g, w) {
						t.Fatalf("%s %s row %d: %v, want %v", spec, c.Name, row+i, g, w)
					}
				}
			}
			row += int(rec.NumRows())
			rec.Release()
		}
		rd.Close()
		if row != r.Len() {
			t.Errorf("%s: %d rows, want %d", spec, row, r.Len())
		}
	}
}

func arrowCell(a arrow.Array, i int) nsysx.Value {
	if a.IsNull(i) {
		return nsysx.Null
	}
	switch a := a.(type) {
	case *array.Int64:
		return nsysx.IntV(a.Value(i))
	case *array.Float64:
		return nsysx.FloatV(a.Value(i))
	case *array.String:
		return nsysx.TextV(a.Value(i))
	}
	return nsysx.TextV("unexpected " + a.DataType().String())
}

// sameValue compares a cell read back with the result's: an integer may
// have become a float (a column with reals) or text (a column with text).
func sameValue(got, want nsysx.Value) bool {
	switch {
	case want.IsNull() || got.IsNull():
		return want.IsNull() && got.IsNull()
	case got.Kind == nsysx.TextKind:
		return got.S == want.String()
	case got.Kind == nsysx.FloatKind:
		return got.F == want.AsFloat() || math.IsNaN(got.F) && math.IsNaN(want.AsFloat())
	}
	return got == want
}
