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

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"

	"github.com/nsysx/nsysx/internal/atomicfile"
	"github.com/nsysx/nsysx/internal/parquetio"
	"github.com/nsysx/nsysx/nsysx/load"
	"github.com/nsysx/nsysx/nsysx/model"
)

// BatchRows is the number of rows per record batch that ExportTables and the
// Arrow/Parquet report writers build at a time.
const BatchRows = load.BatchRows

const batchRows = BatchRows

// RecordWriter writes Arrow record batches as one Parquet file
// (Snappy-compressed, with the Arrow schema stored so that unsigned and
// metadata survive a round trip) or one uncompressed Arrow IPC file, the
// kinds that pandas, polars, DuckDB and apache-arrow (JS) all read.
type RecordWriter struct {
	pq     *parquetio.Writer
	ipc    *ipc.FileWriter
	mem    memory.Allocator
	schema *arrow.Schema
}

// noClose hides the Close of a writer: closing a RecordWriter finishes the
// file but leaves the caller's writer open.
type noClose struct{ io.Writer }

// NewRecordWriter starts a file of the given format, "parquet" or "arrow",
// with schema sc. Close must be called to finish the file.
func NewRecordWriter(w io.Writer, sc *arrow.Schema, format string, mem memory.Allocator) (*RecordWriter, error) {
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	switch format {
	case "parquet":
		props := parquet.NewWriterProperties(parquet.WithAllocator(mem),
			parquet.WithCompression(compress.Codecs.Snappy), parquet.WithMaxRowGroupLength(1<<18), parquet.WithDictionaryPageSizeLimit(dictPageLimit))
		fw, err := parquetio.NewWriter(noClose{w}, sc, props)
		if err != nil {
			return nil, err
		}
		return &RecordWriter{pq: fw, mem: mem, schema: sc}, nil
	case "arrow":
		fw, err := ipc.NewFileWriter(noClose{w}, ipc.WithSchema(sc), ipc.WithAllocator(mem))
		if err != nil {
			return nil, err
		}
		return &RecordWriter{ipc: fw, mem: mem, schema: sc}, nil
	}
	return nil, fmt.Errorf("unknown export format %q (want parquet or arrow)", format)
}

// Write appends a record batch.
func (w *RecordWriter) Write(rec arrow.RecordBatch) error {
	if w.pq != nil {
		return w.pq.Write(rec)
	}
	return w.ipc.Write(rec)
}

// Close finishes the file (footer) without closing the underlying writer.
func (w *RecordWriter) Close() error {
	if w.pq != nil {
		return w.pq.Close()
	}
	return w.ipc.Close()
}

// ExportTables writes the raw tables of p whose names match tables (all when
// nil) to dir, one <TABLE>.parquet or <TABLE>.arrow per table (format is
// "parquet" or "arrow"), with every column typed as loaded (Int as int64,
// Float as float64, Text as utf8) and NULLs kept. The schema metadata names
// the table ("table_name"), as nsys's own exports do, so Open reads the
// directory back. Each file is written under a temporary name and renamed
// when complete. progress, when set, is called after each table. Cancelling
// ctx stops the export with ctx.Err() (the table being written is not
// renamed into place).
func ExportTables(ctx context.Context, p *Profile, dir string, format string, tables *regexp.Regexp, progress func(done, total int)) error {
	ext := map[string]string{"parquet": ".parquet", "arrow": ".arrow"}[format]
	if ext == "" {
		return fmt.Errorf("unknown export format %q (want parquet or arrow)", format)
	}
	names := p.TablesMatching(func(n string) bool { return tables == nil || tables.MatchString(n) })
	if len(names) == 0 {
		return errors.New("no table matches")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for i, name := range names {
		if err := ctx.Err(); err != nil {
			return err
		}
		if strings.ContainsAny(name, `/\`) || name == ".." {
			return fmt.Errorf("table name %q is not a file name", name)
		}
		if err := exportTable(ctx, p, name, filepath.Join(dir, name+ext), format); err != nil {
			return fmt.Errorf("exporting %s: %w", name, err)
		}
		if progress != nil {
			progress(i+1, len(names))
		}
	}
	return nil
}

// exportTable writes one table. Columns already loaded by reports are
// reused; otherwise a SQLite table is streamed, one record batch read and
// written at a time, and other sources' tables are read without being kept
// in the profile.
func exportTable(ctx context.Context, p *Profile, name, path, format string) (err error) {
	ts := p.Schema(name)
	t := p.Loaded(name)
	for _, c := range ts.Columns {
		if t.Col(c) == nil {
			t = nil
			break
		}
	}
	src, stream := p.Source().(model.ChunkLoader)
	if t == nil && !stream {
		if t, err = p.Source().Load(ctx, ts, ts.Columns); err != nil {
			return err
		}
	}
	return atomicfile.WriteFile(path, func(w io.Writer) error {
		if t != nil {
			return writeTable(w, t, ts, format, memory.DefaultAllocator)
		}
		return streamTable(ctx, w, src, ts, format)
	})
}

// streamTable writes a SQLite table as WriteTable does, in the same record
// batches, reading each batch's rows only when it is written: the memory
// held is a few batches and the Parquet row group being encoded, whatever
// the table's size. Reading (this goroutine) and encoding (another) overlap.
func streamTable(ctx context.Context, w io.Writer, src model.ChunkLoader, ts *TableSchema, format string) error {
	mem := memory.DefaultAllocator
	rw, err := NewRecordWriter(w, tableArrowSchema(ts), format, mem)
	if err != nil {
		return err
	}
	if parts := exportParts(); parts > 1 && len(ts.Columns) <= model.MaxFields {
		return streamTableParts(ctx, rw, src, ts, parts)
	}
	recs := make(chan arrow.RecordBatch, 1)
	done := make(chan error, 1)
	go func() { done <- writeRecords(rw, recs) }()
	b := array.NewRecordBuilder(mem, rw.schema)
	defer b.Release()
	var werr error
	err = src.LoadChunks(ctx, ts, ts.Columns, batchRows, func(t *Table) error {
		for i, c := range ts.Columns {
			appendColumn(b.Field(i), t.Col(c), 0, t.N)
		}
		select {
		case recs <- b.NewRecordBatch():
			return nil
		case werr = <-done: // the writer failed
			return werr
		}
	})
	close(recs)
	if werr == nil {
		werr = <-done
	}
	if err == nil {
		err = werr
	}
	return err
}

// writeRecords writes and releases the batches of recs, then closes rw; after
// a failed write it releases the rest unwritten.
func writeRecords(rw *RecordWriter, recs <-chan arrow.RecordBatch) error {
	var err error
	for rec := range recs {
		if err == nil {
			err = rw.Write(rec)
		}
		rec.Release()
		if err != nil {
			break
		}
	}
	if cerr := rw.Close(); err == nil {
		err = cerr
	}
	return err
}

// tableArrowSchema is the Arrow schema of a table as ExportTables writes it.
func tableArrowSchema(ts *TableSchema) *arrow.Schema {
	fields := make([]arrow.Field, len(ts.Columns))
	for i, c := range ts.Columns {
		fields[i] = arrow.Field{Name: c, Type: arrowType(ts.Types[i]), Nullable: true}
	}
	md := arrow.NewMetadata([]string{"table_name"}, []string{ts.Name})
	return arrow.NewSchema(fields, &md)
}

func arrowType(t ColType) arrow.DataType {
	switch t {
	case Float:
		return arrow.PrimitiveTypes.Float64
	case Text:
		return arrow.BinaryTypes.String
	}
	return arrow.PrimitiveTypes.Int64
}

// writeTable writes the columns ts names of a loaded table as one Parquet or
// Arrow file, in record batches of BatchRows rows.
func writeTable(w io.Writer, t *Table, ts *TableSchema, format string, mem memory.Allocator) error {
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	sc := tableArrowSchema(ts)
	rw, err := NewRecordWriter(w, sc, format, mem)
	if err != nil {
		return err
	}
	cols := make([]*Column, len(ts.Columns))
	for i, c := range ts.Columns {
		if cols[i] = t.Col(c); cols[i] == nil {
			rw.Close()
			return &MissingColumnError{Table: ts.Name, Column: c}
		}
	}
	return rw.WriteRows(t.N, func(b *array.RecordBuilder, lo, hi int) {
		for i, c := range cols {
			appendColumn(b.Field(i), c, lo, hi)
		}
	})
}

// WriteRows writes n rows in record batches of BatchRows rows, fill putting
// rows [lo, hi) into the builder's fields, then closes the writer.
func (rw *RecordWriter) WriteRows(n int, fill func(b *array.RecordBuilder, lo, hi int)) error {
	b := array.NewRecordBuilder(rw.mem, rw.schema)
	defer b.Release()
	for lo := 0; lo < n; lo += batchRows {
		fill(b, lo, min(lo+batchRows, n))
		rec := b.NewRecordBatch()
		err := rw.Write(rec)
		rec.Release()
		if err != nil {
			rw.Close()
			return err
		}
	}
	return rw.Close()
}

// appendColumn appends rows [lo, hi) of c to an Int64, Float64 or String
// builder; the column's type must match the builder's (as arrowType says).
func appendColumn(fb array.Builder, c *Column, lo, hi int) {
	var valid []bool
	if c.HasNulls() {
		valid = make([]bool, hi-lo)
		for i := lo; i < hi; i++ {
			valid[i-lo] = !c.IsNull(i)
		}
	}
	switch b := fb.(type) {
	case *array.Int64Builder:
		b.AppendValues(c.Ints[lo:hi], valid)
	case *array.Float64Builder:
		b.AppendValues(c.Floats[lo:hi], valid)
	case *array.StringBuilder:
		b.AppendValues(c.Strs[lo:hi], valid)
	}
}

// dictPageLimit is the size a Parquet column chunk's dictionary may reach
// before the column falls back to plain encoding (Parquet's default is
// 1 MB). Timestamps and ids, most of an export's columns, are nearly all
// distinct: their dictionaries grew to the limit in every row group, the
// hash table resizing all the way, a third of the export's CPU for nothing
// (plain pages compress as well). 64 KB still holds the dictionaries of the
// columns with few values (ids of devices, streams, event kinds).
const dictPageLimit = 64 << 10

// exportParts is the most ranges of a table that streamTable reads at once:
// half the cores (the other half encode the columns), two at least, four at
// most, as each range holds a batch being built and one waiting (a
// variable for the tests). On two cores two ranges take the same time as
// one reader, with less memory: their batches are a quarter of the size.
var exportParts = func() int {
	if n := load.EnvInt("NSYSX_EXPORT_PARTS", 0); n > 0 { // for developers: measuring
		return n
	}
	return min(max(runtime.GOMAXPROCS(0)/2, 2), 4)
}

// partBatchRows is the rows of a batch that a range of streamTableParts
// builds: a quarter of a serial batch, as up to four ranges each hold one
// being built and one waiting.
const partBatchRows = batchRows / 4

// exportPart is one range of a table being exported: its rows go into
// batches of their own, handed to the writer in range order.
type exportPart struct {
	ab  *array.RecordBuilder
	ch  chan arrow.RecordBatch
	ts  *TableSchema
	ctx context.Context
}

// send hands a chunk of the range's rows to the writer as one batch.
func (p *exportPart) send(t *Table) error {
	for i, c := range p.ts.Columns {
		appendColumn(p.ab.Field(i), t.Col(c), 0, t.N)
	}
	rec := p.ab.NewRecordBatch()
	select {
	case p.ch <- rec:
		return nil
	case <-p.ctx.Done():
		rec.Release()
		return p.ctx.Err()
	}
}

// streamTableParts is streamTable reading the table in up to parts ranges
// at once (the loader's LoadChunkParts), each range cutting its rows into
// batches on its own goroutine, the writer taking range 0's batches, then
// range 1's, and so on: every row in rowid order, in the same columns, as
// one reader would give them. A range runs at most one batch ahead of the
// writer, so memory is the ranges' batches and the row group being
// encoded. The first error (the writer's first) stops the ranges.
func streamTableParts(ctx context.Context, rw *RecordWriter, src model.ChunkLoader, ts *TableSchema, parts int) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	order := make(chan chan arrow.RecordBatch, parts) // the ranges' batches, in range order
	scanned := make(chan error, 1)
	go func() {
		_, err := src.LoadChunkParts(ctx, ts, ts.Columns, partBatchRows, parts, func(int) (func(*Table) error, func(error)) {
			p := &exportPart{ab: array.NewRecordBuilder(memory.DefaultAllocator, rw.schema),
				ch: make(chan arrow.RecordBatch, 1), ts: ts, ctx: ctx}
			order <- p.ch
			return p.send, func(error) {
				close(p.ch)
				p.ab.Release()
			}
		})
		close(order)
		scanned <- err
	}()
	var werr error
	for ch := range order {
		for rec := range ch {
			if werr == nil {
				if werr = rw.Write(rec); werr != nil {
					cancel()
				}
			}
			rec.Release()
		}
	}
	err := <-scanned
	if cerr := rw.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		return werr
	}
	return err
}
