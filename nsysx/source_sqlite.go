package nsysx

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/nsysx/nsysx/nsysx/internal/sqlite"
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

func (s *sqliteSource) schema() []*TableSchema { return s.tables }
func (s *sqliteSource) close() error           { return s.db.Close() }

func (s *sqliteSource) load(ctx context.Context, ts *TableSchema, cols []string) (*Table, error) {
	t := s.db.Table(ts.Name)
	if t == nil {
		return nil, &MissingTableError{Table: ts.Name}
	}
	out := &Table{Name: ts.Name, cols: map[string]*Column{}}
	// Sized from an estimate, not Count: counting reads every leaf page,
	// which the releasing scan below then could not keep out of memory.
	rows := s.db.EstimateRows(t)
	out.RowIDs = make([]int64, 0, rows)
	cs := make([]*Column, len(cols))
	for i, name := range cols {
		typ := Int
		for j, c := range ts.Columns {
			if strings.EqualFold(c, name) {
				typ = ts.Types[j]
			}
		}
		cs[i] = &Column{Name: name, Type: typ}
		switch typ {
		case Int:
			cs[i].Ints = make([]int64, 0, rows)
		case Float:
			cs[i].Floats = make([]float64, 0, rows)
		case Text:
			cs[i].Strs = make([]string, 0, rows)
		}
		out.addCol(cs[i])
	}
	n := 0
	in := make([]interner, len(cs))
	add := func(rowid int64, vals []sqlite.Value) error {
		out.RowIDs = append(out.RowIDs, rowid)
		for i, v := range vals {
			if c := cs[i]; c.Type == Text && v.Type == sqlite.Text {
				c.Strs = append(c.Strs, in[i].str(v.B))
				continue
			}
			appendValue(cs[i], v, n)
		}
		n++
		return nil
	}
	var err error
	if len(cols) <= sqlite.MaxFields {
		n, err = s.loadFields(ctx, t, cs, in, out)
	} else {
		err = s.db.Scan(t, cols, func(rowid int64, vals []sqlite.Value) error {
			if n&0xFFFF == 0xFFFF {
				if err := ctx.Err(); err != nil {
					return err
				}
			}
			return add(rowid, vals)
		})
	}
	if err != nil {
		return nil, err
	}
	out.N = n
	return out, nil
}

// interner shares the strings of a TEXT column's repeated values (NVTX
// range names, API names: a few hundred distinct values over millions of
// rows), so that a load keeps one copy of each instead of one per row. It
// stops taking new values after internMax of them, and leaves long values
// alone.
type interner struct{ m map[string]string }

const (
	internMax    = 1 << 16
	internMaxLen = 256
)

func (in *interner) str(b []byte) string {
	if s, ok := in.m[string(b)]; ok {
		return s
	}
	s := string(b)
	if len(b) <= internMaxLen && len(in.m) < internMax {
		if in.m == nil {
			in.m = map[string]string{}
		}
		in.m[s] = s
	}
	return s
}

// loadReleaseEvery is how many bytes of a table's leaf pages a load reads
// between two releases of them from the resident set.
const loadReleaseEvery = 4 << 20

// loadFields is the scan of load with Fields, column by column: an
// INTEGER value of an Int column (the bulk of every table) is appended as
// it is, a TEXT value of a Text column interned, and any other value
// converted by appendValue.
func (s *sqliteSource) loadFields(ctx context.Context, t *sqlite.Table, cs []*Column, in []interner, out *Table) (int, error) {
	cols := make([]string, len(cs))
	for i, c := range cs {
		cols[i] = c.Name
	}
	n := 0
	opt := sqlite.ScanOptions{Context: ctx, Release: true, ReleaseEvery: loadReleaseEvery}
	err := s.db.ScanFields(t, cols, opt, func(rowid int64, f *sqlite.Fields) error {
		out.RowIDs = append(out.RowIDs, rowid)
		other := f.Null | f.Text | f.Blob | f.Real
		for k, c := range cs {
			bit := uint32(1) << k
			switch {
			case c.Type == Int && other&bit == 0:
				c.Ints = append(c.Ints, f.I[k])
			case c.Type == Text && f.Text&bit != 0:
				c.Strs = append(c.Strs, in[k].str(f.B[k]))
			default:
				appendValue(c, fieldValue(f, k), n)
			}
		}
		n++
		return nil
	})
	return n, err
}

// scanReleasing is Scan that drops the table's pages from the process's
// resident set as it leaves them behind (they stay in the page cache), so
// that loading a few columns of a big table, in each of many reports at
// once, does not leave every report's file mapped in memory.
func (s *sqliteSource) scanReleasing(ctx context.Context, t *sqlite.Table, cols []string, fn func(int64, []sqlite.Value) error) error {
	vals := make([]sqlite.Value, len(cols))
	opt := sqlite.ScanOptions{Context: ctx, Release: true, ReleaseEvery: loadReleaseEvery}
	return s.db.ScanFields(t, cols, opt, func(rowid int64, f *sqlite.Fields) error {
		for k := range vals {
			vals[k] = fieldValue(f, k)
		}
		return fn(rowid, vals)
	})
}

// fieldValue is field k of f as a Value.
func fieldValue(f *sqlite.Fields, k int) sqlite.Value {
	bit := uint32(1) << k
	switch {
	case f.Null&bit != 0:
		return sqlite.Value{Type: sqlite.Null}
	case f.Text&bit != 0:
		return sqlite.Value{Type: sqlite.Text, B: f.B[k]}
	case f.Blob&bit != 0:
		return sqlite.Value{Type: sqlite.Blob, B: f.B[k]}
	case f.Real&bit != 0:
		return sqlite.Value{Type: sqlite.Float, F: f.F[k]}
	}
	return sqlite.Value{Type: sqlite.Integer, I: f.I[k]}
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
			x = PyFloat(v.F)
		}
		c.Strs = append(c.Strs, x)
	}
	if v.Type == sqlite.Null {
		c.SetNull(row)
	}
}
