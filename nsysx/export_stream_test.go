package nsysx

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/ncruces/go-sqlite3"
	"github.com/nsysx/nsysx/internal/testutil"
	"github.com/nsysx/nsysx/nsysx/internal/benchmem"
	"github.com/nsysx/nsysx/nsysx/internal/sqlite"
	"github.com/nsysx/nsysx/nsysx/load"
	"github.com/nsysx/nsysx/nsysx/model"
)

// streamRows is the size of the table TestExportStreamed writes: several
// record batches and a partial last one.
const streamRows = 2*BatchRows + 123

// streamWant is row i of that table as the export must hold it: a, f and s
// are NULL on every 7th row; on every 11th row a holds text digits (read as
// an integer) and s an integer (read as its decimal text); f is 0.5 per row.
func streamWant(i int) (a, f, s Value) {
	if i%7 == 0 {
		return Null, Null, Null
	}
	if i%11 == 0 {
		return IntV(int64(i) * 3), FloatV(float64(i) / 2), TextV(fmt.Sprint(i))
	}
	return IntV(int64(i) - 1<<40), FloatV(float64(i) / 2), TextV(fmt.Sprintf("name %d", i%300))
}

// streamDB writes the table of streamWant, T, to a new SQLite file.
func streamDB(t *testing.T) string {
	path := filepath.Join(t.TempDir(), "s.sqlite")
	db, err := sqlite3.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(db.Exec("CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT); CREATE TABLE T (a INTEGER, f REAL, s TEXT); BEGIN"))
	st, _, err := db.Prepare("INSERT INTO T VALUES (?, ?, ?)")
	must(err)
	for i := 0; i < streamRows; i++ {
		switch {
		case i%7 == 0:
			must(st.BindNull(1))
			must(st.BindNull(2))
			must(st.BindNull(3))
		case i%11 == 0:
			must(st.BindText(1, fmt.Sprint(i*3)))
			must(st.BindFloat(2, float64(i)/2))
			must(st.BindInt64(3, int64(i)))
		default:
			must(st.BindInt64(1, int64(i)-1<<40))
			must(st.BindFloat(2, float64(i)/2))
			must(st.BindText(3, fmt.Sprintf("name %d", i%300)))
		}
		must(st.Exec())
	}
	must(st.Close())
	must(db.Exec("COMMIT"))
	must(db.Close())
	return path
}

// failAfter is a writer that fails once n bytes are written.
type failAfter struct{ n int }

func (f *failAfter) Write(b []byte) (int, error) {
	if f.n -= len(b); f.n < 0 {
		return 0, errors.New("disk full")
	}
	return len(b), nil
}

// TestExportPartsWriterFails: when the writer fails, the ranges reading
// the table stop (none is left blocked on its batches) and the writer's
// error is returned; so is a cancelled context's.
func TestExportPartsWriterFails(t *testing.T) {
	defer func(l int) { sqlite.MinPartLeaves = l }(sqlite.MinPartLeaves)
	sqlite.MinPartLeaves = 1
	p := openT(t, streamDB(t))
	ts := p.Schema("T")
	src := p.Source().(model.ChunkLoader)
	rw, err := NewRecordWriter(&failAfter{n: 4096}, tableArrowSchema(ts), "arrow", nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := streamTableParts(context.Background(), rw, src, ts, 4); err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Errorf("writer failing: %v, want its error", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	rw, err = NewRecordWriter(io.Discard, tableArrowSchema(ts), "arrow", nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := streamTableParts(ctx, rw, src, ts, 4); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v, want context.Canceled", err)
	}
}

// TestExportStreamed exports a SQLite table of several batches (the export
// streams it batch by batch) and checks every cell read back against values
// computed here, not by the loader: read by one reader, and in ranges of
// one leaf page or more by two and four at once (streamTableParts).
func TestExportStreamed(t *testing.T) {
	defer func(f func() int, l int) { exportParts, sqlite.MinPartLeaves = f, l }(exportParts, sqlite.MinPartLeaves)
	sqlite.MinPartLeaves = 1
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	p := openT(t, streamDB(t))
	for _, run := range []struct {
		format string
		parts  int
	}{{"parquet", 1}, {"parquet", 2}, {"parquet", 4}, {"arrow", 1}, {"arrow", 4}} {
		format := run.format
		exportParts = func() int { return run.parts }
		dir := filepath.Join(t.TempDir(), fmt.Sprint(format, run.parts))
		must(ExportTables(context.Background(), p, dir, format, regexp.MustCompile("^T$"), nil))
		src, _, err := load.OpenDirAlloc(dir, memory.DefaultAllocator)
		must(err)
		got, err := src.Load(context.Background(), src.Schema()[0], []string{"a", "f", "s"})
		must(err)
		if got.N != streamRows {
			t.Fatalf("%s, %d ranges: %d rows, want %d", format, run.parts, got.N, streamRows)
		}
		for i := 0; i < streamRows; i++ {
			a, f, s := streamWant(i)
			for k, w := range []Value{a, f, s} {
				g := got.Col([]string{"a", "f", "s"}[k]).Value(i)
				if !sameCell(w, g) {
					t.Fatalf("%s, %d ranges: row %d column %d = %v, want %v", format, run.parts, i, k, g, w)
				}
			}
		}
		src.Close()
	}
}

// BenchmarkExportParquet exports every table of the benchmark profile as
// Parquet files (`nsysx export -t parquet`), with the peak memory (peak-MB)
// and the input read per second (MB/s).
func BenchmarkExportParquet(b *testing.B) { benchExport(b, "parquet") }

// BenchmarkExportArrow is BenchmarkExportParquet for Arrow IPC files.
func BenchmarkExportArrow(b *testing.B) { benchExport(b, "arrow") }

func benchExport(b *testing.B, format string) {
	path := testutil.BenchFile(b)
	st, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(st.Size())
	b.ReportAllocs()
	runtime.GC()
	peak := benchmem.StartPeak()
	for b.Loop() {
		p, err := Open(path)
		if err != nil {
			b.Fatal(err)
		}
		if err := ExportTables(context.Background(), p, b.TempDir(), format, nil, nil); err != nil {
			b.Fatal(err)
		}
		p.Close()
	}
	peak.Report(b)
}
