package load

import (
	"context"
	"io"

	"github.com/nsysx/nsysx/nsysx/internal/sqlite"
	"github.com/nsysx/nsysx/nsysx/model"
)

// ErrDamaged is wrapped by the errors of a damaged SQLite export: a page,
// B-tree or record that cannot be what the file says it is.
var ErrDamaged = sqlite.ErrCorrupt

// ErrUTF16 is the error for a SQLite export in a UTF-16 text encoding.
var ErrUTF16 = sqlite.ErrUTF16

// SQLiteFromBytes opens a SQLite export held in memory (the sample profile
// built into the binary).
func SQLiteFromBytes(b []byte) (model.Source, error) {
	db, err := sqlite.FromBytes(b)
	if err != nil {
		return nil, err
	}
	return newSQLiteSource(db), nil
}

// The SQLite loader's streaming capability (model.RecordScanner): the page
// reader's scans, table by name.
var _ model.RecordScanner = (*sqliteSource)(nil)

func (s *sqliteSource) HasRecords(table string) bool { return s.db.Table(table) != nil }

func (s *sqliteSource) EstimateRows(table string) int {
	if t := s.db.Table(table); t != nil {
		return s.db.EstimateRows(t)
	}
	return 0
}

func (s *sqliteSource) ScanRecords(table string, cols []string, o model.ScanOptions, fn func(rowid int64, f *model.Fields) error) error {
	t := s.db.Table(table)
	if t == nil {
		return &MissingTableError{Table: table}
	}
	return s.db.ScanFields(t, cols, scanOptions(o), fn)
}

func (s *sqliteSource) ScanRecordParts(table string, cols []string, o model.ScanOptions, parts int, newFn func(part int) func(rowid int64, f *model.Fields) error) (int, error) {
	t := s.db.Table(table)
	if t == nil {
		return 0, &MissingTableError{Table: table}
	}
	return s.db.ScanFieldsParts(t, cols, scanOptions(o), parts, newFn)
}

// ScanValues reads the columns of every row as values, releasing the pages
// it leaves behind when the columns fit one streaming scan.
func (s *sqliteSource) ScanValues(ctx context.Context, table string, cols []string, fn func(rowid int64, v []model.RecValue) error) error {
	t := s.db.Table(table)
	if t == nil {
		return &MissingTableError{Table: table}
	}
	if len(cols) <= sqlite.MaxFields {
		return s.scanReleasing(ctx, t, cols, fn)
	}
	return s.db.Scan(t, cols, fn)
}

func scanOptions(o model.ScanOptions) sqlite.ScanOptions {
	return sqlite.ScanOptions{Context: o.Context, Release: o.Release, ReleaseEvery: o.ReleaseEvery, AbsentNull: o.AbsentNull,
		Gate: o.Gate, GateField: o.GateField, GateFirst: o.GateFirst, PartDone: o.PartDone, Pread: o.Pread}
}

// LoadChunkParts is LoadChunks over up to parts ranges of the table at
// once: newPart(i), called for ranges 0, 1, ... before any is read, gives
// range i's emit, which gets each chunk of its rows (valid only during the
// call), and done, called on the range's goroutine once it is read (its
// last chunk emitted first). It returns the number of ranges.
func (s *sqliteSource) LoadChunkParts(ctx context.Context, ts *TableSchema, cols []string, chunk, parts int, newPart func(part int) (emit func(*Table) error, done func(error))) (int, error) {
	t := s.db.Table(ts.Name)
	if t == nil {
		return 0, &MissingTableError{Table: ts.Name}
	}
	type part struct {
		b    *rowBuilder
		emit func(*Table) error
		done func(error)
	}
	var ps []*part // filled before any range is read
	opt := sqlite.ScanOptions{Context: ctx, Release: true, ReleaseEvery: ReleaseEvery}
	opt.PartDone = func(i int, err error) {
		p := ps[i]
		if err == nil && p.b.n > 0 {
			err = p.emit(p.b.table())
			p.b.reset()
		}
		p.done(err)
	}
	return s.db.ScanFieldsParts(t, cols, opt, parts, func(int) func(int64, *sqlite.Fields) error {
		p := &part{b: newRowBuilder(ts, cols, chunk)}
		p.b.chunked = true
		p.emit, p.done = newPart(len(ps))
		ps = append(ps, p)
		return func(rowid int64, f *sqlite.Fields) error {
			if p.b.addFields(rowid, f); p.b.n == chunk {
				err := p.emit(p.b.table())
				p.b.reset()
				return err
			}
			return nil
		}
	})
}

// OpenReaderAt opens a SQLite export of size bytes read through r,
// fetching only the pages it touches (a launcher reading a few small tables
// of a remote report without downloading it). Its pages are not counted
// against the tables as a file's are on open (see the page census in the
// page reader): what it reads is checked as it is read.
func OpenReaderAt(r io.ReaderAt, size int64) (model.Source, error) {
	db, err := sqlite.OpenReaderAt(r, size)
	if err != nil {
		return nil, err
	}
	return newSQLiteSource(db), nil
}
