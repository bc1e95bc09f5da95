package load

// Loading the tables of an arrowSource (see source_arrow.go) part by part.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/ipc"
)

// load reads the named columns of a table from each of its parts in turn.
func (s *arrowSource) Load(ctx context.Context, ts *TableSchema, cols []string) (*Table, error) {
	parts := s.parts[ts]
	if parts == nil {
		return nil, &MissingTableError{Table: ts.Name}
	}
	b := &tableBuilder{t: &Table{Name: ts.Name}}
	for _, name := range cols {
		typ, ok := colType(ts, name)
		if !ok {
			return nil, &MissingColumnError{Table: ts.Name, Column: name}
		}
		c := &Column{Name: name, Type: typ}
		b.cs = append(b.cs, c)
		b.t.AddCol(c)
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

// openSized opens path for reading and returns its size.
func openSized(path string) (*os.File, int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, 0, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, 0, err
	}
	return f, st.Size(), nil
}

// fileReader checks the Arrow IPC file f of size bytes (path names it in
// errors) and opens its reader.
func (s *arrowSource) fileReader(f *os.File, size int64, path string) (*ipc.FileReader, error) {
	if err := checkIPCFile(f, size); err != nil {
		return nil, fileErr(path, err)
	}
	r, err := ipc.NewFileReader(f, ipc.WithAllocator(s.mem))
	if err != nil {
		return nil, fileErr(path, err)
	}
	return r, nil
}

func (s *arrowSource) loadIPCFile(p tablePart, b *tableBuilder) (err error) {
	defer recoverErr(&err, p.path)
	f, size, err := openSized(p.path)
	if err != nil {
		return err
	}
	defer f.Close()
	r, err := s.fileReader(f, size, p.path)
	if err != nil {
		return err
	}
	defer r.Close()
	b.maxRows = ipcMaxRows(size)
	for i := 0; i < r.NumRecords(); i++ {
		rec, err := r.RecordBatchAt(i)
		if err != nil {
			return fileErr(p.path, err)
		}
		err = b.add(rec)
		rec.Release()
		if err != nil {
			return fileErr(p.path, err)
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
		return fileErr(p.path, err)
	}
	defer r.Release()
	for r.Next() {
		if err := b.add(r.RecordBatch()); err != nil {
			return fileErr(p.path, err)
		}
	}
	if err := r.Err(); err != nil && !errors.Is(err, io.EOF) {
		return fileErr(p.path, err)
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
