package model

import (
	"context"
	"errors"
	"fmt"

	"github.com/nsysx/nsysx/nsysx/internal/fields"
)

// ErrNotExport is returned (wrapped) when opening a readable file or
// directory that is not an Nsight Systems export.
var ErrNotExport = errors.New("not an Nsight Systems export")

// MissingColumnError reports that a table lacks a column a computation needs.
type MissingColumnError struct{ Table, Column string }

func (e *MissingColumnError) Error() string {
	return fmt.Sprintf("table %s has no column %s", e.Table, e.Column)
}

// MissingTableError reports that a table is absent.
type MissingTableError struct{ Table string }

func (e *MissingTableError) Error() string { return "no table " + e.Table }

// TableSchema describes one table of an export: its name and columns as the
// export spells them.
type TableSchema struct {
	Name    string
	Columns []string
	Types   []ColType
}

// Source is what a loader provides: the export's schema, and columns on
// demand. Loaders live in package load.
type Source interface {
	Schema() []*TableSchema
	Load(ctx context.Context, t *TableSchema, cols []string) (*Table, error)
	Close() error
}

// Fields is one decoded record of a streaming scan (RecordScanner): bit k
// of its masks and index k of its arrays are the k-th column asked for.
// RecValue is one field of it as a value, RecType its storage class.
type (
	Fields   = fields.Fields
	RecValue = fields.Value
	RecType  = fields.Type
)

// MaxFields is the most columns one streaming scan reads.
const MaxFields = fields.MaxFields

// Storage classes of a RecValue, as in SQLite.
const (
	RecNull    = fields.Null
	RecInteger = fields.Integer
	RecFloat   = fields.Float
	RecText    = fields.Text
	RecBlob    = fields.Blob
)

// ScanOptions tune a RecordScanner's scan.
type ScanOptions struct {
	// Context, when not nil, is checked as the scan goes: the scan stops
	// with its error once it is cancelled.
	Context context.Context
	// Release drops the pages the scan has left behind from the resident
	// set every ReleaseEvery bytes (0: the loader's default).
	Release      bool
	ReleaseEvery int
	// AbsentNull reads a column the table lacks as NULL instead of failing.
	AbsentNull bool
	// Gate, when set, refuses a row whose field GateField (an index into the
	// columns) is an INTEGER that Gate refuses, as soon as that field is
	// decoded: the row reaches the callback with Fields.Gated set and the
	// later fields NULL, or, with GateFirst, not at all. With GateFirst,
	// the TEXT and BLOB bytes of a row are valid only during the callback
	// (the SQLite loader reads the leaves into a buffer it reuses).
	Gate      func(v int64) bool
	GateField int
	GateFirst bool
	// PartDone, when set, is called on a range's goroutine once that range
	// of a ScanRecordParts is read.
	PartDone func(part int, err error)
	// Pread, for a ScanRecordParts, reads the table's pages into a buffer
	// of each range's own instead of through a mapping of the file: a
	// field's bytes are then valid only during the callback.
	Pread bool
}

// RecordScanner is the streaming capability of a loader that decodes a
// table's records straight from the file, in rowid order, without
// materialising columns (the SQLite loader): the fast paths of the NVTX
// loads, the rules' gated runtime scans and the exports ask for it with a
// type assertion on Profile's source and fall back to Load without it.
type RecordScanner interface {
	// HasRecords reports whether the file holds the table.
	HasRecords(table string) bool
	// EstimateRows estimates the table's rows from its B-tree's shape.
	EstimateRows(table string) int
	// ScanRecords reads up to MaxFields columns of every row into fn.
	ScanRecords(table string, cols []string, o ScanOptions, fn func(rowid int64, f *Fields) error) error
	// ScanRecordParts is ScanRecords over up to parts ranges of the table
	// at once, range i into newFn(i); it returns the number of ranges.
	ScanRecordParts(table string, cols []string, o ScanOptions, parts int, newFn func(part int) func(rowid int64, f *Fields) error) (int, error)
	// ScanValues reads any number of columns of every row as values (the
	// values' bytes alias the file: copy them to keep).
	ScanValues(ctx context.Context, table string, cols []string, fn func(rowid int64, v []RecValue) error) error
}

// FieldValue is field k of f as a value.
func FieldValue(f *Fields, k int) RecValue {
	bit := uint32(1) << k
	switch {
	case f.Null&bit != 0:
		return RecValue{Type: RecNull}
	case f.Text&bit != 0:
		return RecValue{Type: RecText, B: f.B[k]}
	case f.Blob&bit != 0:
		return RecValue{Type: RecBlob, B: f.B[k]}
	case f.Real&bit != 0:
		return RecValue{Type: RecFloat, F: f.F[k]}
	}
	return RecValue{Type: RecInteger, I: f.I[k]}
}

// RowLoader is the capability of a loader that reads chosen rows of a table
// (by ascending rowid) without reading the others.
type RowLoader interface {
	LoadRows(ctx context.Context, t *TableSchema, cols []string, rowids []int64) (*Table, error)
}

// ErrBadOption wraps errors about report options.
var ErrBadOption = errors.New("invalid report option")

// ChunkLoader is the capability of a loader that reads a table in chunks
// of rows without keeping it (the exports of raw tables). A chunk is valid
// only during the callback: its columns are reused for the next one.
type ChunkLoader interface {
	LoadChunks(ctx context.Context, t *TableSchema, cols []string, chunk int, fn func(*Table) error) error
	// LoadChunkParts reads up to parts ranges at once: newPart(i), called
	// for every range before any is read, gives range i's emit (its chunks)
	// and done (called on the range's goroutine once it is read).
	LoadChunkParts(ctx context.Context, t *TableSchema, cols []string, chunk, parts int, newPart func(part int) (emit func(*Table) error, done func(error))) (int, error)
}
