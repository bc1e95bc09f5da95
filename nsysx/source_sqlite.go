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
	rows, err := s.db.Count(t)
	if err != nil {
		return nil, err
	}
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
	err = s.db.Scan(t, cols, func(rowid int64, vals []sqlite.Value) error {
		out.RowIDs = append(out.RowIDs, rowid)
		for i, v := range vals {
			appendValue(cs[i], v, n)
		}
		n++
		if n&0xFFFF == 0 {
			return ctx.Err()
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	out.N = n
	return out, nil
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
