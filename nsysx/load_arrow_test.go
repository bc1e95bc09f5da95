package nsysx

import (
	"bytes"
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/nsysx/nsysx/nsysx/load"
	"github.com/nsysx/nsysx/nsysx/model"
)

// pqtdir is `nsys export -t parquetdir` of the train fixture.
const pqtdir = "../testdata/profiles/train_pqtdir"

func openT(t *testing.T, path string) *Profile {
	t.Helper()
	p, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

// sameCell compares two cells; a NULL equals only a NULL, NaN equals NaN.
func sameCell(a, b Value) bool {
	if a.Kind != b.Kind {
		return false
	}
	if a.Kind == FloatKind {
		return a.F == b.F || math.IsNaN(a.F) && math.IsNaN(b.F)
	}
	return a == b
}

// compareProfiles checks that got has want's tables, columns, column types
// and cells.
func compareProfiles(t *testing.T, want, got *Profile) {
	t.Helper()
	if len(got.Tables()) != len(want.Tables()) {
		t.Errorf("%d tables, want %d: %v vs %v", len(got.Tables()), len(want.Tables()), got.Tables(), want.Tables())
	}
	for _, name := range want.Tables() {
		ws, gs := want.Schema(name), got.Schema(name)
		if gs == nil {
			t.Errorf("table %s missing", name)
			continue
		}
		if strings.Join(gs.Columns, ",") != strings.Join(ws.Columns, ",") {
			t.Errorf("%s: columns %v, want %v", name, gs.Columns, ws.Columns)
			continue
		}
		wt, err := want.Load(context.Background(), name, ws.Columns...)
		if err != nil {
			t.Fatal(err)
		}
		gt, err := got.Load(context.Background(), name, gs.Columns...)
		if err != nil {
			t.Fatal(err)
		}
		if gt.N != wt.N || len(gt.RowIDs) != gt.N {
			t.Errorf("%s: %d rows (%d rowids), want %d", name, gt.N, len(gt.RowIDs), wt.N)
			continue
		}
		for j, col := range ws.Columns {
			wc, gc := wt.Col(col), gt.Col(col)
			if gc.Type != wc.Type || gs.Types[j] != ws.Types[j] {
				t.Errorf("%s.%s: type %d, want %d", name, col, gc.Type, wc.Type)
				continue
			}
			bad := 0
			for i := 0; i < wt.N; i++ {
				if exportSpecific(wt, col, i) {
					continue
				}
				if w, g := wc.Value(i), gc.Value(i); !sameCell(w, g) || wc.Int(i) != gc.Int(i) || wc.Str(i) != gc.Str(i) {
					if bad++; bad <= 3 {
						t.Errorf("%s.%s row %d: %+v, want %+v", name, col, i, g, w)
					}
				}
			}
		}
	}
}

// exportSpecific reports whether cell i of col is metadata that differs
// between two exports of one report (export time, output file name).
func exportSpecific(t *Table, col string, i int) bool {
	if t.Name != "META_DATA_EXPORT" || !strings.EqualFold(col, "value") {
		return false
	}
	n := t.Col("name").Str(i)
	return strings.HasPrefix(n, "EXPORT_TIME") || strings.HasPrefix(n, "EXPORT_PARAM_OUTPUT")
}

func TestArrowParquetDirMatchesSQLite(t *testing.T) {
	lite := openT(t, fixture(t, "train"))
	pq := openT(t, pqtdir)
	if pq.Format != "parquetdir" {
		t.Errorf("Format = %q", pq.Format)
	}
	if len(pq.Tables()) < 40 {
		t.Fatalf("only %d tables", len(pq.Tables()))
	}
	compareProfiles(t, lite, pq)
	if v := pq.SchemaVersion(context.Background()); v == "" || v != lite.SchemaVersion(context.Background()) {
		t.Errorf("schema version %q vs %q", v, lite.SchemaVersion(context.Background()))
	}
	if s, ok := pq.String(context.Background(), 1); !ok || s == "" {
		t.Errorf("StringIds[1] = %q, %v", s, ok)
	}
}

// loadAllChecked loads every column of every table through a checked
// allocator and fails on leaked Arrow memory.
func loadAllChecked(t *testing.T, open func(memory.Allocator) (model.Source, string, error)) {
	t.Helper()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	src, _, err := open(mem)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	for _, ts := range src.Schema() {
		if _, err := src.Load(context.Background(), ts, ts.Columns); err != nil {
			t.Fatal(err)
		}
	}
}

func TestArrowParquetProjectionAndLeaks(t *testing.T) {
	loadAllChecked(t, func(mem memory.Allocator) (model.Source, string, error) { return load.OpenDirAlloc(pqtdir, mem) })
	src, format, err := load.OpenDirAlloc(pqtdir, memory.DefaultAllocator)
	if err != nil || format != "parquetdir" {
		t.Fatal(format, err)
	}
	defer src.Close()
	var kern *TableSchema
	for _, ts := range src.Schema() {
		if ts.Name == "CUPTI_ACTIVITY_KIND_KERNEL" {
			kern = ts
		}
	}
	tb, err := src.Load(context.Background(), kern, []string{"START", "shortName"})
	if err != nil {
		t.Fatal(err)
	}
	if tb.N != 5600 || len(tb.Columns()) != 2 || tb.Col("start").Len() != 5600 || tb.Col("end") != nil {
		t.Errorf("projection: N=%d, %d columns", tb.N, len(tb.Columns()))
	}
	if tb.RowIDs[0] != 1 || tb.RowIDs[tb.N-1] != int64(tb.N) {
		t.Errorf("rowids %d..%d", tb.RowIDs[0], tb.RowIDs[tb.N-1])
	}
	tb, err = src.Load(context.Background(), kern, nil)
	if err != nil || tb.N != 5600 {
		t.Errorf("no columns: N=%v, %v", tb, err)
	}
}

// readParquet reads a whole Parquet file as Arrow record batches.
func readParquet(t *testing.T, path string) (*arrow.Schema, []arrow.RecordBatch) {
	t.Helper()
	rd, err := file.OpenParquetFile(path, false)
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	fr, err := pqarrow.NewFileReader(rd, pqarrow.ArrowReadProperties{BatchSize: 1000}, memory.DefaultAllocator)
	if err != nil {
		t.Fatal(err)
	}
	sc, err := fr.Schema() // with the table_name metadata
	if err != nil {
		t.Fatal(err)
	}
	rr, err := fr.GetRecordReader(t.Context(), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer rr.Release()
	var recs []arrow.RecordBatch
	for rr.Next() {
		rec := rr.RecordBatch()
		rec.Retain()
		recs = append(recs, rec)
	}
	if err := rr.Err(); err != nil {
		t.Fatal(err)
	}
	return sc, recs
}

// writeIPC writes record batches as an Arrow IPC file or stream.
func writeIPC(t *testing.T, f *os.File, sc *arrow.Schema, recs []arrow.RecordBatch, stream bool) {
	t.Helper()
	type writer interface {
		Write(arrow.RecordBatch) error
		Close() error
	}
	var w writer
	if stream {
		w = ipc.NewWriter(f, ipc.WithSchema(sc))
	} else {
		fw, err := ipc.NewFileWriter(f, ipc.WithSchema(sc))
		if err != nil {
			t.Fatal(err)
		}
		w = fw
	}
	for _, rec := range recs {
		if err := w.Write(rec); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestArrowDirMatchesParquet converts the Parquet fixture to an arrowdir,
// alternating the IPC file and stream formats, and to a single .arrows file of
// concatenated streams named by their table_name metadata.
func TestArrowDirMatchesParquet(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "train_arwdir")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	all, err := os.Create(filepath.Join(t.TempDir(), "train.arrows"))
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(pqtdir + "/*.parquet")
	for i, path := range files {
		sc, recs := readParquet(t, path)
		f, err := os.Create(filepath.Join(dir, strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))+".arrow"))
		if err != nil {
			t.Fatal(err)
		}
		writeIPC(t, f, sc, recs, i%2 == 1)
		f.Close()
		writeIPC(t, all, sc, recs, true)
		for _, r := range recs {
			r.Release()
		}
	}
	all.Close()

	pq := openT(t, pqtdir)
	ad := openT(t, dir)
	if ad.Format != "arrowdir" {
		t.Errorf("Format = %q", ad.Format)
	}
	compareProfiles(t, pq, ad)

	one := openT(t, all.Name())
	if one.Format != "arrow" {
		t.Errorf("Format = %q", one.Format)
	}
	compareProfiles(t, pq, one)

	loadAllChecked(t, func(mem memory.Allocator) (model.Source, string, error) { return load.OpenDirAlloc(dir, mem) })
	loadAllChecked(t, func(mem memory.Allocator) (model.Source, string, error) {
		return load.OpenArrowFileAlloc(all.Name(), mem)
	})
}

func TestArrowBadInput(t *testing.T) {
	empty := t.TempDir()
	os.WriteFile(filepath.Join(empty, "notes.txt"), []byte("hi"), 0o644)
	if _, err := Open(empty); !errors.Is(err, ErrNotExport) || !strings.Contains(err.Error(), "no .parquet or .arrow") {
		t.Errorf("empty dir: %v", err)
	}

	bad := t.TempDir()
	os.WriteFile(filepath.Join(bad, "StringIds.parquet"), []byte("PAR1 this is not parquet PAR1"), 0o644)
	if _, err := Open(bad); err == nil || !strings.Contains(err.Error(), "StringIds.parquet") {
		t.Errorf("corrupt parquet: %v", err)
	}

	// A real Parquet file cut short.
	data, err := os.ReadFile(pqtdir + "/StringIds.parquet")
	if err != nil {
		t.Fatal(err)
	}
	cut := t.TempDir()
	os.WriteFile(filepath.Join(cut, "StringIds.parquet"), data[:len(data)/2], 0o644)
	if _, err := Open(cut); err == nil {
		t.Error("truncated parquet opened")
	}
	// Footer intact, data pages garbled: open succeeds, load fails.
	garbled := append([]byte(nil), data...)
	for i := 4; i < len(garbled)/2; i++ {
		garbled[i] ^= 0x5a
	}
	gdir := t.TempDir()
	os.WriteFile(filepath.Join(gdir, "StringIds.parquet"), garbled, 0o644)
	if p, err := Open(gdir); err == nil {
		if _, err := p.Load(context.Background(), "StringIds", "id", "value"); err == nil {
			t.Error("garbled parquet loaded")
		}
		p.Close()
	}

	// Two streams of one table whose column changes type.
	var two bytes.Buffer
	for _, typ := range []ColType{Int, Text} {
		ts := &TableSchema{Name: "T", Columns: []string{"a"}, Types: []ColType{typ}}
		tb := model.NewTable("T", 1, &Column{Name: "a", Type: typ, Ints: []int64{1}, Strs: []string{"x"}})
		var one bytes.Buffer
		if err := writeTable(&one, tb, ts, "arrow", nil); err != nil {
			t.Fatal(err)
		}
		r, err := ipc.NewFileReader(bytes.NewReader(one.Bytes()))
		if err != nil {
			t.Fatal(err)
		}
		rec, _ := r.RecordBatchAt(0)
		w := ipc.NewWriter(&two, ipc.WithSchema(r.Schema()))
		w.Write(rec)
		w.Close()
		rec.Release()
		r.Close()
	}
	path := filepath.Join(t.TempDir(), "two.arrows")
	os.WriteFile(path, two.Bytes(), 0o644)
	src, _, err := load.OpenArrowFileAlloc(path, memory.DefaultAllocator)
	if err != nil || len(src.Schema()) != 1 {
		t.Fatalf("two streams of T: %v", err)
	}
	if _, err := src.Load(context.Background(), src.Schema()[0], []string{"a"}); err == nil || !strings.Contains(err.Error(), "has type utf8 here") {
		t.Errorf("type change: %v", err)
	}

	for _, content := range []string{"", "garbage garbage", "ARROW1\x00\x00garbage", "\xff\xff\xff\xff\x10\x00\x00\x00short"} {
		path := filepath.Join(t.TempDir(), "x.arrows")
		os.WriteFile(path, []byte(content), 0o644)
		if _, err := Open(path); err == nil {
			t.Errorf("%q opened", content)
		}
	}
}

// FuzzArrowSource feeds damaged Parquet and Arrow files to the loader: it
// must answer with an error, never a panic.
func FuzzArrowSource(f *testing.F) {
	tb := model.NewTable("T", 3,
		&Column{Name: "a", Type: Int, Ints: []int64{1, -2, 3}},
		&Column{Name: "s", Type: Text, Strs: []string{"x", "", "zz"}})
	tb.Col("s").SetNull(1)
	ts := &TableSchema{Name: "T", Columns: []string{"a", "s"}, Types: []ColType{Int, Text}}
	for _, format := range []string{"parquet", "arrow"} {
		var buf strings.Builder
		if err := writeTable(&buf, tb, ts, format, nil); err != nil {
			f.Fatal(err)
		}
		f.Add([]byte(buf.String()), format == "parquet")
	}
	f.Fuzz(func(t *testing.T, data []byte, parquet bool) {
		dir := t.TempDir()
		name := "T.arrow"
		if parquet {
			name = "T.parquet"
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
		src, _, err := load.OpenDirAlloc(dir, memory.DefaultAllocator)
		if err != nil {
			return
		}
		for _, ts := range src.Schema() {
			src.Load(context.Background(), ts, ts.Columns)
		}
	})
}
