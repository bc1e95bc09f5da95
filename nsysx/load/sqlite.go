package load

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unsafe"

	"github.com/nsysx/nsysx/nsysx/internal/sqlite"
	"github.com/nsysx/nsysx/nsysx/model"
)

type sqliteSource struct {
	db     *sqlite.DB
	tables []*TableSchema
}

func openSQLite(path string) (source, error) {
	db, err := sqlite.Open(path)
	if err != nil {
		if errors.Is(err, sqlite.ErrNotSQLite) {
			return nil, fmt.Errorf("%w: not a SQLite database, Parquet/Arrow directory or .nsys-rep", ErrNotExport)
		}
		return nil, err
	}
	return newSQLiteSource(db), nil
}

func newSQLiteSource(db *sqlite.DB) *sqliteSource {
	s := &sqliteSource{db: db}
	for _, t := range db.Tables() {
		ts := &TableSchema{Name: t.Name}
		for _, c := range t.Columns {
			ts.Columns = append(ts.Columns, c.Name)
			ts.Types = append(ts.Types, declType(c.Decl))
		}
		s.tables = append(s.tables, ts)
	}
	return s
}

func declType(decl string) ColType {
	switch {
	case strings.Contains(decl, "INT"):
		return Int
	case strings.Contains(decl, "CHAR"), strings.Contains(decl, "CLOB"), strings.Contains(decl, "TEXT"):
		return Text
	case strings.Contains(decl, "REAL"), strings.Contains(decl, "FLOA"), strings.Contains(decl, "DOUB"):
		return Float
	case decl == "":
		return Text
	}
	return Int // NUMERIC affinity
}

func (s *sqliteSource) Schema() []*TableSchema { return s.tables }
func (s *sqliteSource) Close() error           { return s.db.Close() }

func (s *sqliteSource) Load(ctx context.Context, ts *TableSchema, cols []string) (*Table, error) {
	t := s.db.Table(ts.Name)
	if t == nil {
		return nil, &MissingTableError{Table: ts.Name}
	}
	// Sized from an estimate, not Count: counting reads every leaf page,
	// which the releasing scan below then could not keep out of memory.
	est := s.db.EstimateRows(t)
	b := newRowBuilder(ts, cols, est)
	if ok, err := s.loadParts(ctx, ts, t, b, est); err != nil {
		return nil, err
	} else if !ok {
		if err := s.scanInto(ctx, t, b, 0, nil); err != nil {
			return nil, err
		}
	}
	b.trim()
	return b.table(), nil
}

// loadChunks reads the columns cols of table ts in chunks of up to chunk
// rows, in rowid order, calling fn with each chunk as a table of its own
// (typed as load types them). A chunk is valid only during fn: its columns
// are reused for the next one, so that a pass over a table of any size
// holds one chunk.
func (s *sqliteSource) LoadChunks(ctx context.Context, ts *TableSchema, cols []string, chunk int, fn func(*Table) error) error {
	t := s.db.Table(ts.Name)
	if t == nil {
		return &MissingTableError{Table: ts.Name}
	}
	b := newRowBuilder(ts, cols, chunk)
	b.chunked = true
	if err := s.scanInto(ctx, t, b, chunk, fn); err != nil {
		return err
	}
	if b.n > 0 {
		return fn(b.table())
	}
	return nil
}

// scanInto appends every row of t to b; with chunk > 0, fn gets b's table
// each time it holds chunk rows, and b starts over.
func (s *sqliteSource) scanInto(ctx context.Context, t *sqlite.Table, b *rowBuilder, chunk int, fn func(*Table) error) error {
	flush := func() error {
		if chunk > 0 && b.n == chunk {
			err := fn(b.table())
			b.reset()
			return err
		}
		return nil
	}
	if len(b.cs) <= sqlite.MaxFields {
		opt := sqlite.ScanOptions{Context: ctx, Release: true, ReleaseEvery: ReleaseEvery}
		return s.db.ScanFields(t, b.names, opt, func(rowid int64, f *sqlite.Fields) error {
			b.addFields(rowid, f)
			return flush()
		})
	}
	rows := 0
	return s.db.Scan(t, b.names, func(rowid int64, vals []sqlite.Value) error {
		if rows++; rows&0xFFFF == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		b.addValues(rowid, vals)
		return flush()
	})
}

// rowBuilder appends SQLite rows to the typed columns of a loaded table.
type rowBuilder struct {
	out   *Table
	names []string
	cs    []*Column
	in    []interner
	n     int
	// chunked: text is copied into arena, reused by the next chunk (the
	// chunk is valid only during its callback), instead of interned.
	chunked bool
	arena   []byte
	// flatArena: arena chunks stay 1 MB (LoadRows: the strings are kept,
	// so a doubling chunk would keep up to half of itself unused).
	flatArena bool
}

func newRowBuilder(ts *TableSchema, cols []string, rows int) *rowBuilder {
	b := &rowBuilder{out: &Table{Name: ts.Name}, names: cols,
		cs: make([]*Column, len(cols)), in: make([]interner, len(cols))}
	b.out.RowIDs = make([]int64, 0, rows)
	for i, name := range cols {
		typ := Int
		for j, c := range ts.Columns {
			if strings.EqualFold(c, name) {
				typ = ts.Types[j]
			}
		}
		c := &Column{Name: name, Type: typ}
		switch typ {
		case Int:
			c.Ints = make([]int64, 0, rows)
		case Float:
			c.Floats = make([]float64, 0, rows)
		case Text:
			c.Strs = make([]string, 0, rows)
		}
		b.cs[i] = c
		b.out.AddCol(c)
	}
	return b
}

// table is the rows added so far.
func (b *rowBuilder) table() *Table {
	b.out.N = b.n
	return b.out
}

// trim gives back the columns' spare capacity where the estimate the
// builder was sized from was well over the rows read (NVTX_EVENTS of a
// PyTorch capture: 20% over, 26 MB of 1.65 M rows), as the loaded table
// lives as long as its Profile.
func (b *rowBuilder) trim() {
	b.out.RowIDs = clipSpare(b.out.RowIDs)
	for _, c := range b.cs {
		c.Ints, c.Floats, c.Strs = clipSpare(c.Ints), clipSpare(c.Floats), clipSpare(c.Strs)
	}
}

// clipSpare is s, copied to storage of its own length when more than an
// eighth of its capacity is unused.
func clipSpare[T any](s []T) []T {
	if cap(s)-len(s) <= cap(s)/8 || cap(s) < 1024 {
		return s
	}
	return slices.Clone(s)
}

// reset empties the columns, keeping their storage.
func (b *rowBuilder) reset() {
	b.out.RowIDs = b.out.RowIDs[:0]
	for _, c := range b.cs {
		c.Ints, c.Floats, c.Strs = c.Ints[:0], c.Floats[:0], c.Strs[:0]
		c.ClearNulls()
	}
	b.n, b.arena = 0, b.arena[:0]
}

// str is text value v of column k: a repeated value shared through the
// column's interner, any other one a string of its own (not one arena for
// many: a few kept values, the names of a projection's rows, would keep all
// the rest alive).
func (b *rowBuilder) str(k int, v []byte) string {
	if !b.chunked {
		if s, ok := b.in[k].str(v); ok {
			return s
		}
		return string(v)
	}
	if len(b.arena)+len(v) > cap(b.arena) {
		next := 2 * cap(b.arena)
		if b.flatArena {
			next = 0
		}
		b.arena = make([]byte, 0, max(next, len(v), 1<<20)) // the old one stays with its strings
	}
	o := len(b.arena)
	b.arena = append(b.arena, v...)
	return unsafe.String(unsafe.SliceData(b.arena[o:]), len(v))
}

// addValues appends one row of values.
func (b *rowBuilder) addValues(rowid int64, vals []sqlite.Value) {
	b.out.RowIDs = append(b.out.RowIDs, rowid)
	for i, v := range vals {
		if c := b.cs[i]; c.Type == Text && v.Type == sqlite.Text {
			c.Strs = append(c.Strs, b.str(i, v.B))
			continue
		}
		appendValue(b.cs[i], v, b.n)
	}
	b.n++
}

// addFields appends one row read with Fields: an INTEGER value of an Int
// column (the bulk of every table) is appended as it is, a TEXT value of a
// Text column interned, and any other value converted by appendValue.
func (b *rowBuilder) addFields(rowid int64, f *sqlite.Fields) {
	b.out.RowIDs = append(b.out.RowIDs, rowid)
	other := f.Null | f.Text | f.Blob | f.Real
	for k, c := range b.cs {
		bit := uint32(1) << k
		switch {
		case c.Type == Int && other&bit == 0:
			c.Ints = append(c.Ints, f.I[k])
		case c.Type == Text && f.Text&bit != 0:
			c.Strs = append(c.Strs, b.str(k, f.B[k]))
		default:
			appendValue(c, model.FieldValue(f, k), b.n)
		}
	}
	b.n++
}

// interner shares the strings of a TEXT column's repeated values (NVTX
// range names, API names: a few hundred distinct values over millions of
// rows), so that a load keeps one copy of each instead of one per row. It
// stops taking new values after internMax of them, and leaves long values
// alone. Once full, it gives up on a column whose values seldom repeat
// (PyTorch's ranges, each with its own op_id): fewer than one lookup in
// internMinHit of the last internProbe found its value.
type interner struct {
	m            map[string]string
	probes, hits int
	off          bool
}

const (
	internMax    = 1 << 16
	internMaxLen = 256
	internProbe  = 1 << 14
	internMinHit = 4
)

// str is the shared copy of b, ok false when b is left to the caller.
func (in *interner) str(b []byte) (string, bool) {
	if in.off {
		return "", false
	}
	if s, ok := in.m[string(b)]; ok {
		in.hits++
		return s, true
	}
	if len(b) <= internMaxLen && len(in.m) < internMax {
		if in.m == nil {
			in.m = map[string]string{}
		}
		s := string(b)
		in.m[s] = s
		return s, true
	}
	if len(in.m) == internMax {
		if in.probes++; in.probes == internProbe {
			if in.hits*internMinHit < in.probes {
				in.off, in.m = true, nil
			}
			in.probes, in.hits = 0, 0
		}
	}
	return "", false
}

// ReleaseEvery is how many bytes of a table's leaf pages a load reads
// between two releases of them from the resident set; NSYSX_RELEASE_MB
// sets it (for developers measuring what the releases cost).
var ReleaseEvery = max(1, EnvInt("NSYSX_RELEASE_MB", 4)) << 20

// scanReleasing is Scan that drops the table's pages from the process's
// resident set as it leaves them behind (they stay in the page cache), so
// that loading a few columns of a big table, in each of many reports at
// once, does not leave every report's file mapped in memory.
func (s *sqliteSource) scanReleasing(ctx context.Context, t *sqlite.Table, cols []string, fn func(int64, []sqlite.Value) error) error {
	vals := make([]sqlite.Value, len(cols))
	opt := sqlite.ScanOptions{Context: ctx, Release: true, ReleaseEvery: ReleaseEvery}
	return s.db.ScanFields(t, cols, opt, func(rowid int64, f *sqlite.Fields) error {
		for k := range vals {
			vals[k] = model.FieldValue(f, k)
		}
		return fn(rowid, vals)
	})
}

func appendValue(c *Column, v sqlite.Value, row int) {
	switch c.Type {
	case Int:
		var x int64
		switch v.Type {
		case sqlite.Integer:
			x = v.I
		case sqlite.Float:
			x = int64(v.F)
		case sqlite.Text:
			if p, err := strconv.ParseInt(string(v.B), 10, 64); err == nil {
				x = p
			} else {
				c.Ints = append(c.Ints, 0)
				c.SetNull(row)
				return
			}
		}
		c.Ints = append(c.Ints, x)
	case Float:
		var x float64
		switch v.Type {
		case sqlite.Integer:
			x = float64(v.I)
		case sqlite.Float:
			x = v.F
		default:
			x = math.NaN()
		}
		c.Floats = append(c.Floats, x)
	case Text:
		var x string
		switch v.Type {
		case sqlite.Text, sqlite.Blob:
			x = string(v.B)
		case sqlite.Integer:
			x = strconv.FormatInt(v.I, 10)
		case sqlite.Float:
			x = model.PyFloat(v.F)
		}
		c.Strs = append(c.Strs, x)
	}
	if v.Type == sqlite.Null {
		c.SetNull(row)
	}
}
