package load

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/nsysx/nsysx/nsysx/model"
)

// BatchRows is the number of rows read or written per Arrow record batch.
const BatchRows = 64 * 1024

const batchRows = BatchRows

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
	return OpenDirAlloc(path, memory.DefaultAllocator)
}

// OpenDirAlloc opens a Parquet or Arrow directory export, its columns
// allocated from mem (tests count what a load allocates and frees).
func OpenDirAlloc(dir string, mem memory.Allocator) (model.Source, string, error) {
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
	return OpenArrowFileAlloc(path, memory.DefaultAllocator)
}

// OpenArrowFileAlloc opens one .arrows file, allocating from mem.
func OpenArrowFileAlloc(path string, mem memory.Allocator) (model.Source, string, error) {
	s := &arrowSource{mem: mem, parts: map[*TableSchema][]tablePart{}}
	if err := s.addIPC(path, false); err != nil {
		return nil, "", err
	}
	return s, "arrow", nil
}

func (s *arrowSource) Schema() []*TableSchema { return s.tables }
func (s *arrowSource) Close() error           { return nil }

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

// fileErr is err prefixed with the base name of the file it concerns.
func fileErr(path string, err error) error {
	return fmt.Errorf("%s: %w", filepath.Base(path), err)
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
	f, size, err := openSized(path)
	if err != nil {
		return err
	}
	defer f.Close()
	head := make([]byte, len(arrowMagic))
	if _, err := f.ReadAt(head, 0); err == nil && bytes.Equal(head, arrowMagic) {
		r, err := s.fileReader(f, size, path)
		if err != nil {
			return err
		}
		sc := r.Schema()
		r.Close()
		s.addTable(tableName(sc, path, inDir), sc, tablePart{kind: ipcFilePart, path: path})
		return nil
	}
	streams, err := s.scanStreams(f, size)
	if err != nil {
		return fileErr(path, err)
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
