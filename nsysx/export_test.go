package nsysx

import (
	"context"
	"fmt"
	"log"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/nsysx/nsysx/nsysx/load"
	"github.com/nsysx/nsysx/nsysx/model"
)

// TestExportTablesRoundTrip exports every table of the SQLite fixture to
// Parquet and to Arrow and reads the directories back.
func TestExportTablesRoundTrip(t *testing.T) {
	lite := openT(t, fixture(t, "train"))
	if _, err := lite.Load(context.Background(), "StringIds", "id"); err != nil { // a partly loaded table
		t.Fatal(err)
	}
	for _, format := range []string{"parquet", "arrow"} {
		t.Run(format, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "out")
			var calls []int
			err := ExportTables(context.Background(), lite, dir, format, nil, func(done, total int) {
				if total != len(lite.Tables()) {
					t.Errorf("total %d, want %d", total, len(lite.Tables()))
				}
				calls = append(calls, done)
			})
			if err != nil {
				t.Fatal(err)
			}
			if len(calls) != len(lite.Tables()) || calls[len(calls)-1] != len(calls) {
				t.Errorf("progress calls %v", calls)
			}
			if tmp, _ := filepath.Glob(dir + "/*.tmp"); len(tmp) > 0 {
				t.Errorf("left %v", tmp)
			}
			back := openT(t, dir)
			compareProfiles(t, lite, back)
		})
	}
}

func TestExportTablesFilter(t *testing.T) {
	p := openT(t, pqtdir)
	dir := t.TempDir()
	err := ExportTables(context.Background(), p, dir, "parquet", regexp.MustCompile(`^CUPTI_ACTIVITY_KIND_(KERNEL|MEMCPY)$`), nil)
	if err != nil {
		t.Fatal(err)
	}
	ents, _ := os.ReadDir(dir)
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	if got := strings.Join(names, " "); got != "CUPTI_ACTIVITY_KIND_KERNEL.parquet CUPTI_ACTIVITY_KIND_MEMCPY.parquet" {
		t.Errorf("wrote %s", got)
	}
	if err := ExportTables(context.Background(), p, dir, "csv", nil, nil); err == nil || !strings.Contains(err.Error(), "unknown export format") {
		t.Errorf("csv: %v", err)
	}
	if err := ExportTables(context.Background(), p, dir, "arrow", regexp.MustCompile(`^nothing$`), nil); err == nil {
		t.Error("no matching table: no error")
	}
}

// TestExportWriteTableBatches writes a table of several batches, with NULLs
// in every type, through a checked allocator, and reads it back.
func TestExportWriteTableBatches(t *testing.T) {
	const n = 2*BatchRows + 123
	a, f, s := &Column{Name: "a", Type: Int}, &Column{Name: "F", Type: Float}, &Column{Name: "s", Type: Text}
	for i := 0; i < n; i++ {
		a.Ints = append(a.Ints, int64(i)-1<<40)
		f.Floats = append(f.Floats, float64(i)/3)
		s.Strs = append(s.Strs, strconv.Itoa(i))
	}
	for i := 0; i < n; i += 7 {
		a.Ints[i], f.Floats[i], s.Strs[i] = 0, math.NaN(), ""
		a.SetNull(i)
		f.SetNull(i)
		s.SetNull(i)
	}
	tb := model.NewTable("T", n, a, f, s)
	ts := &TableSchema{Name: "T", Columns: []string{"a", "F", "s"}, Types: []ColType{Int, Float, Text}}
	for _, format := range []string{"parquet", "arrow"} {
		dir := t.TempDir()
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		out, err := os.Create(filepath.Join(dir, "T."+format))
		if err != nil {
			t.Fatal(err)
		}
		if err := writeTable(out, tb, ts, format, mem); err != nil {
			t.Fatal(err)
		}
		out.Close()
		mem.AssertSize(t, 0)

		src, _, err := load.OpenDirAlloc(dir, mem)
		if err != nil {
			t.Fatal(err)
		}
		got, err := src.Load(context.Background(), src.Schema()[0], []string{"a", "f", "S"})
		if err != nil {
			t.Fatal(err)
		}
		mem.AssertSize(t, 0)
		if got.N != n {
			t.Fatalf("%s: %d rows", format, got.N)
		}
		for _, c := range []string{"a", "f", "s"} {
			w, g := tb.Col(c), got.Col(c)
			for i := 0; i < n; i++ {
				if !sameCell(w.Value(i), g.Value(i)) {
					t.Fatalf("%s: %s[%d] = %v, want %v", format, c, i, g.Value(i), w.Value(i))
				}
			}
		}
	}
	// A table of zero rows still makes a readable file.
	empty := model.NewTable("EMPTY", 0, &Column{Name: "a", Type: Int}, &Column{Name: "b", Type: Text})
	ets := &TableSchema{Name: "EMPTY", Columns: []string{"a", "b"}, Types: []ColType{Int, Text}}
	for _, format := range []string{"parquet", "arrow"} {
		dir := t.TempDir()
		out, _ := os.Create(filepath.Join(dir, "EMPTY."+format))
		if err := writeTable(out, empty, ets, format, nil); err != nil {
			t.Errorf("%s: %v", format, err)
		}
		out.Close()
		src, _, err := load.OpenDirAlloc(dir, memory.DefaultAllocator)
		if err != nil {
			t.Fatal(err)
		}
		if got, err := src.Load(context.Background(), src.Schema()[0], []string{"a", "b"}); err != nil || got.N != 0 {
			t.Errorf("%s: read back %v, %v", format, got, err)
		}
	}
}

// Export the CUDA activity tables of a profile as Parquet files, one per
// table, for pandas, polars or DuckDB.
func ExampleExportTables() {
	p, err := Open("report.sqlite")
	if err != nil {
		log.Fatal(err)
	}
	defer p.Close()
	err = ExportTables(context.Background(), p, "report_pqtdir", "parquet", regexp.MustCompile(`^CUPTI_ACTIVITY_KIND_`),
		func(done, total int) { fmt.Fprintf(os.Stderr, "\r%d/%d tables", done, total) })
	if err != nil {
		log.Fatal(err)
	}
}
