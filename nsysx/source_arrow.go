package nsysx

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// batchRows is the number of rows read or written per Arrow record batch.
const batchRows = 64 * 1024

// arrowSource reads the Parquet and Arrow exports of nsys: a
// `-t parquetdir` directory (one <TABLE>.parquet per table), a `-t arrowdir`
// directory (one <TABLE>.arrow per table, IPC file or stream format) or a
// single .arrow/.arrows file of concatenated IPC streams, one per table, each
// named by its schema metadata "table_name".
//
// Nothing stays open between calls: load reopens the file and reads only the
// requested columns (Parquet column projection), so loads of different
// tables may run concurrently.
type arrowSource struct {
	mem    memory.Allocator
	tables []*TableSchema
	parts  map[*TableSchema][]tablePart
}

type partKind uint8

const (
	parquetPart   partKind = iota
	ipcFilePart            // an Arrow IPC file ("ARROW1" magic, footer)
	ipcStreamPart          // one IPC stream, bytes [off, off+n) of the file
)

// tablePart is one file, or one IPC stream inside a file, holding the rows of
// a table.
type tablePart struct {
	kind   partKind
	path   string
	off, n int64
}

// arrowMagic starts (and ends) an Arrow IPC file.
var arrowMagic = []byte("ARROW1")

// openDir opens a `nsys export -t parquetdir` or `-t arrowdir` directory.
func openDir(path string) (source, string, error) {
	return openDirAlloc(path, memory.DefaultAllocator)
}

func openDirAlloc(dir string, mem memory.Allocator) (source, string, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, "", err
	}
	var pq, ar []string
	for _, e := range ents {
		if e.IsDir() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		ext := strings.ToLower(filepath.Ext(e.Name()))
		if ext != ".parquet" && ext != ".arrow" && ext != ".arrows" {
			continue
		}
		if st, err := os.Stat(filepath.Join(dir, e.Name())); err != nil || !st.Mode().IsRegular() {
			if err == nil {
				err = notRegular(filepath.Join(dir, e.Name()), st.Mode())
			}
			return nil, "", err
		}
		if ext == ".parquet" {
			pq = append(pq, e.Name())
		} else {
			ar = append(ar, e.Name())
		}
	}
	s := &arrowSource{mem: mem, parts: map[*TableSchema][]tablePart{}}
	switch {
	case len(pq) > 0:
		for _, name := range pq {
			if err := s.addParquet(filepath.Join(dir, name)); err != nil {
				return nil, "", err
			}
		}
		return s, "parquetdir", nil
	case len(ar) > 0:
		for _, name := range ar {
			if err := s.addIPC(filepath.Join(dir, name), true); err != nil {
				return nil, "", err
			}
		}
		return s, "arrowdir", nil
	}
	return nil, "", fmt.Errorf("%w: directory holds no .parquet or .arrow files", ErrNotExport)
}

func isArrowFile(path string) bool {
	l := strings.ToLower(path)
	return strings.HasSuffix(l, ".arrow") || strings.HasSuffix(l, ".arrows")
}

// openArrowFile opens a single Arrow IPC file: an .arrows stream of all
// tables (`nsys export -t arrow`), or one table in IPC file format.
func openArrowFile(path string) (source, string, error) {
	return openArrowFileAlloc(path, memory.DefaultAllocator)
}

func openArrowFileAlloc(path string, mem memory.Allocator) (source, string, error) {
	s := &arrowSource{mem: mem, parts: map[*TableSchema][]tablePart{}}
	if err := s.addIPC(path, false); err != nil {
		return nil, "", err
	}
	return s, "arrow", nil
}

func (s *arrowSource) schema() []*TableSchema { return s.tables }
func (s *arrowSource) close() error           { return nil }

// addTable registers a part of table name with the given Arrow schema. Parts
// of one table (several streams named alike) are read one after the other.
func (s *arrowSource) addTable(name string, sc *arrow.Schema, p tablePart) {
	var names []string
	var types []ColType
	for _, f := range sc.Fields() {
		names = append(names, f.Name)
		types = append(types, arrowColType(f.Type))
	}
	s.addTableCols(name, names, types, p)
}

// addTableCols registers a part of table name with the given columns and
// types (those of its first part).
func (s *arrowSource) addTableCols(name string, cols []string, types []ColType, p tablePart) {
	for _, ts := range s.tables {
		if strings.EqualFold(ts.Name, name) {
			s.parts[ts] = append(s.parts[ts], p)
			return
		}
	}
	ts := &TableSchema{Name: name, Columns: cols, Types: types}
	s.tables = append(s.tables, ts)
	s.parts[ts] = []tablePart{p}
}

// stem is a file name without directory and extension: the table name.
func stem(path string) string {
	b := filepath.Base(path)
	return strings.TrimSuffix(b, filepath.Ext(b))
}

// recoverErr turns a panic of the Arrow/Parquet readers on corrupt input into
// an error naming the file.
func recoverErr(err *error, path string) {
	if r := recover(); r != nil {
		*err = fmt.Errorf("%s: corrupt file (%v)", filepath.Base(path), r)
	}
}

// addIPC registers the tables of an Arrow IPC file: one table for the IPC
// file format, one per stream for (concatenated) IPC streams. In a directory
// (inDir) a file holding one table names it; otherwise streams are named by
// their "table_name" metadata, falling back to the file name.
func (s *arrowSource) addIPC(path string, inDir bool) (err error) {
	defer recoverErr(&err, path)
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	head := make([]byte, len(arrowMagic))
	if _, err := f.ReadAt(head, 0); err == nil && bytes.Equal(head, arrowMagic) {
		if err := checkIPCFile(f, st.Size()); err != nil {
			return fmt.Errorf("%s: %w", filepath.Base(path), err)
		}
		r, err := ipc.NewFileReader(f, ipc.WithAllocator(s.mem))
		if err != nil {
			return fmt.Errorf("%s: %w", filepath.Base(path), err)
		}
		sc := r.Schema()
		r.Close()
		s.addTable(tableName(sc, path, inDir), sc, tablePart{kind: ipcFilePart, path: path})
		return nil
	}
	streams, err := s.scanStreams(f, st.Size())
	if err != nil {
		return fmt.Errorf("%s: %w", filepath.Base(path), err)
	}
	if len(streams) == 0 {
		return fmt.Errorf("%s: %w: no Arrow IPC stream in the file", filepath.Base(path), ErrNotExport)
	}
	for i, st := range streams {
		name := tableName(st.schema, path, inDir && len(streams) == 1)
		if len(streams) > 1 && name == stem(path) {
			name = fmt.Sprintf("%s_%d", name, i)
		}
		st.part.path = path
		s.addTable(name, st.schema, st.part)
	}
	return nil
}

// tableName names a table: by the file (byFile) or by the schema metadata
// "table_name" that nsys writes, falling back to the file name.
func tableName(sc *arrow.Schema, path string, byFile bool) string {
	if md := sc.Metadata(); !byFile {
		if i := md.FindKey("table_name"); i >= 0 && md.Values()[i] != "" {
			return md.Values()[i]
		}
	}
	return stem(path)
}

type ipcStream struct {
	schema *arrow.Schema
	part   tablePart
}

type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// scanStreams walks the messages of a file of concatenated IPC streams and
// returns each stream's schema and byte range. A stream ends at an
// end-of-stream marker, at the next schema message, or at the end of file.
func (s *arrowSource) scanStreams(f *os.File, size int64) ([]ipcStream, error) {
	var out []ipcStream
	var cur *ipcStream
	end := func(at int64) {
		if cur != nil {
			cur.part.n = at - cur.part.off
			out = append(out, *cur)
			cur = nil
		}
	}
	off := int64(0)
	for off < size {
		cr := &countingReader{r: io.NewSectionReader(f, off, size-off)}
		mr := ipc.NewMessageReader(cr, ipc.WithAllocator(s.mem), ipc.WithBodySizeLimit(size), ipc.WithMetadataSizeLimit(size))
		for {
			at := off + cr.n
			msg, err := mr.Message()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				mr.Release()
				return nil, err
			}
			switch msg.Type() {
			case ipc.MessageSchema:
				end(at)
				if err := checkMessage(f, at, size); err != nil {
					mr.Release()
					return nil, err
				}
				r, err := ipc.NewReader(io.NewSectionReader(f, at, size-at), ipc.WithAllocator(s.mem))
				if err != nil {
					mr.Release()
					return nil, err
				}
				cur = &ipcStream{schema: r.Schema(), part: tablePart{kind: ipcStreamPart, off: at}}
				r.Release()
			case ipc.MessageRecordBatch, ipc.MessageDictionaryBatch:
				if cur == nil {
					mr.Release()
					return nil, errors.New("record batch before any schema")
				}
			}
		}
		mr.Release()
		end(off + cr.n)
		if cr.n == 0 {
			break
		}
		off += cr.n
	}
	return out, nil
}

// load reads the named columns of a table from each of its parts in turn.
func (s *arrowSource) load(ctx context.Context, ts *TableSchema, cols []string) (*Table, error) {
	parts := s.parts[ts]
	if parts == nil {
		return nil, &MissingTableError{Table: ts.Name}
	}
	b := &tableBuilder{t: &Table{Name: ts.Name, cols: map[string]*Column{}}}
	for _, name := range cols {
		typ, ok := colType(ts, name)
		if !ok {
			return nil, &MissingColumnError{Table: ts.Name, Column: name}
		}
		c := &Column{Name: name, Type: typ}
		b.cs = append(b.cs, c)
		b.t.cols[lower(name)] = c
	}
	b.names = cols
	for _, p := range parts {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		var err error
		switch p.kind {
		case parquetPart:
			err = s.loadParquet(p, b)
		case ipcFilePart:
			err = s.loadIPCFile(p, b)
		default:
			err = s.loadIPCStream(p, b)
		}
		if err != nil {
			return nil, err
		}
	}
	t := b.t
	t.RowIDs = make([]int64, t.N)
	for i := range t.RowIDs {
		t.RowIDs[i] = int64(i + 1)
	}
	return t, nil
}

func colType(ts *TableSchema, name string) (ColType, bool) {
	for j, c := range ts.Columns {
		if strings.EqualFold(c, name) {
			return ts.Types[j], true
		}
	}
	return Int, false
}

// fieldIndex finds a field by name, case-insensitively (exact match first).
func fieldIndex(sc *arrow.Schema, name string) int {
	if idx := sc.FieldIndices(name); len(idx) > 0 {
		return idx[0]
	}
	for i, f := range sc.Fields() {
		if strings.EqualFold(f.Name, name) {
			return i
		}
	}
	return -1
}

func (s *arrowSource) loadIPCFile(p tablePart, b *tableBuilder) (err error) {
	defer recoverErr(&err, p.path)
	f, err := os.Open(p.path)
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	if err := checkIPCFile(f, st.Size()); err != nil {
		return fmt.Errorf("%s: %w", filepath.Base(p.path), err)
	}
	r, err := ipc.NewFileReader(f, ipc.WithAllocator(s.mem))
	if err != nil {
		return fmt.Errorf("%s: %w", filepath.Base(p.path), err)
	}
	defer r.Close()
	b.maxRows = ipcMaxRows(st.Size())
	for i := 0; i < r.NumRecords(); i++ {
		rec, err := r.RecordBatchAt(i)
		if err != nil {
			return fmt.Errorf("%s: %w", filepath.Base(p.path), err)
		}
		err = b.add(rec)
		rec.Release()
		if err != nil {
			return fmt.Errorf("%s: %w", filepath.Base(p.path), err)
		}
	}
	return nil
}

func (s *arrowSource) loadIPCStream(p tablePart, b *tableBuilder) (err error) {
	defer recoverErr(&err, p.path)
	f, err := os.Open(p.path)
	if err != nil {
		return err
	}
	defer f.Close()
	b.maxRows = ipcMaxRows(p.n)
	r, err := ipc.NewReader(io.NewSectionReader(f, p.off, p.n), ipc.WithAllocator(s.mem))
	if err != nil {
		return fmt.Errorf("%s: %w", filepath.Base(p.path), err)
	}
	defer r.Release()
	for r.Next() {
		if err := b.add(r.RecordBatch()); err != nil {
			return fmt.Errorf("%s: %w", filepath.Base(p.path), err)
		}
	}
	if err := r.Err(); err != nil && !errors.Is(err, io.EOF) {
		return fmt.Errorf("%s: %w", filepath.Base(p.path), err)
	}
	return nil
}

// tableBuilder appends record batches to the columns of a Table.
type tableBuilder struct {
	t       *Table
	names   []string
	cs      []*Column
	maxRows int64 // per batch; 0 for no limit
}

// ipcMaxRows bounds the rows of an IPC record batch by the bytes that hold
// it: every column type but NULL needs at least a bit per row, and a row
// count beyond that is damage that would make NULL columns allocate for
// nothing.
func ipcMaxRows(size int64) int64 { return 8*size + 1024 }

func (b *tableBuilder) add(rec arrow.RecordBatch) error {
	if b.maxRows > 0 && rec.NumRows() > b.maxRows {
		return fmt.Errorf("record batch of %d rows in %d bytes: corrupt file", rec.NumRows(), b.maxRows/8)
	}
	sc := rec.Schema()
	for j, name := range b.names {
		i := fieldIndex(sc, name)
		if i < 0 {
			return fmt.Errorf("no column %s", name)
		}
		if t := arrowColType(sc.Field(i).Type); t != b.cs[j].Type {
			return fmt.Errorf("column %s has type %s here, unlike in the table's first part", name, sc.Field(i).Type)
		}
		appendArray(b.cs[j], rec.Column(i))
	}
	b.t.N += int(rec.NumRows())
	return nil
}
