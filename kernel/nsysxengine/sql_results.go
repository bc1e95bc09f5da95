package nsysxengine

import (
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"

	"github.com/ncruces/go-sqlite3"

	"github.com/nsysx/nsysx/nsysx"
	"github.com/nsysx/nsysx/nsysx/recipe"
)

// Results in SQL: a %%sql query may name cell variables holding a
// *nsysx.Result (a report, a table method's output, rows bound by
// "%%sql ... as VAR") or a *recipe.Frame (a recipe's table) as tables. Each one the query names is copied into
// a TEMP table of the query's connection before the read-only authorizer
// is installed: the profile stays immutable and the query itself can only
// read. Columns are the visible columns' labels ("Total Time"); a label
// that repeats gets " 2", " 3".

// sqlWords returns the identifiers of a query outside string literals
// and comments (quoted identifiers "x" and [x] included), once each.
func sqlWords(q string) []string {
	q = stripSQLComments(q)
	seen := map[string]bool{}
	var out []string
	add := func(w string) {
		if w != "" && !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	for i := 0; i < len(q); i++ {
		c := q[i]
		switch {
		case c == '\'':
			if j := strings.IndexByte(q[i+1:], '\''); j >= 0 {
				i += j + 1
			}
		case c == '"' || c == '`' || c == '[':
			end := c
			if c == '[' {
				end = ']'
			}
			if j := strings.IndexByte(q[i+1:], end); j >= 0 {
				add(q[i+1 : i+1+j])
				i += j + 1
			}
		case isIdent(c):
			j := i
			for j < len(q) && isIdent(q[j]) {
				j++
			}
			add(q[i:j])
			i = j - 1
		}
	}
	return out
}

// resultTables returns the results the query names by variable.
func (e *Engine) resultTables(query string) map[string]*nsysx.Result {
	out := map[string]*nsysx.Result{}
	for _, w := range sqlWords(query) {
		if w[0] >= '0' && w[0] <= '9' {
			continue
		}
		v, ok := e.Global(w)
		if ok && v.Kind() == reflect.Interface && !v.IsNil() {
			v = v.Elem()
		}
		if !ok || !v.IsValid() || !v.CanInterface() {
			continue
		}
		switch x := v.Interface().(type) {
		case *nsysx.Result: // a report's result or a recipe table (*recipe.Frame)
			switch {
			case x.Typed():
				out[w] = frameResult(x)
			case x != nil && x.Err() == nil:
				out[w] = x
			}
		}
	}
	return out
}

// frameResult is a recipe table as a Result: integer kinds as integers,
// Float64 as reals (NaN as NULL, as the recipes write it), String as text,
// lists as their text ("[1, 2]"), NULLs kept; the index columns too.
func frameResult(f *recipe.Frame) *nsysx.Result {
	r := nsysx.NewResult("recipe", "recipe table", f.Names()...)
	r.Grow(f.Rows())
	for i := 0; i < f.Rows(); i++ {
		row := make([]nsysx.Value, len(f.Cols))
		for j, c := range f.Cols {
			row[j] = frameValue(c, i)
		}
		r.Add(row...)
	}
	return r
}

func frameValue(c *recipe.Column, i int) nsysx.Value {
	if c.IsNull(i) {
		return nsysx.Null
	}
	switch c.Type {
	case recipe.Float64:
		if math.IsNaN(c.FloatVals[i]) {
			return nsysx.Null
		}
		return nsysx.FloatV(c.FloatVals[i])
	case recipe.String:
		return nsysx.TextV(c.Strs[i])
	case recipe.ListInt64:
		return nsysx.TextV(strings.ReplaceAll(fmt.Sprint(c.Lists[i]), " ", ", "))
	}
	return nsysx.IntV(c.IntVals[i]) // the integer kinds
}

// loadResults copies each result into TEMP table NAME.
func loadResults(conn *sqlite3.Conn, tables map[string]*nsysx.Result) error {
	for name, r := range tables {
		if err := loadResult(conn, name, r); err != nil {
			return fmt.Errorf("copying %s into SQL: %w", name, err)
		}
	}
	return nil
}

func loadResult(conn *sqlite3.Conn, name string, r *nsysx.Result) error {
	cols := r.Visible()
	names := sqlColumnNames(cols)
	defs := make([]string, len(cols))
	marks := make([]string, len(cols))
	for i, c := range cols {
		defs[i] = quoteIdent(names[i]) + " " + map[nsysx.Kind]string{nsysx.IntKind: "INTEGER", nsysx.FloatKind: "REAL", nsysx.TextKind: "TEXT"}[c.Kind]
		marks[i] = "?"
	}
	if err := conn.Exec(fmt.Sprintf("CREATE TEMP TABLE %s (%s)", quoteIdent(name), strings.Join(defs, ", "))); err != nil {
		return err
	}
	stmt, _, err := conn.Prepare(fmt.Sprintf("INSERT INTO temp.%s VALUES (%s)", quoteIdent(name), strings.Join(marks, ", ")))
	if err != nil {
		return err
	}
	defer stmt.Close()
	if err := conn.Exec("BEGIN"); err != nil {
		return err
	}
	for i := 0; i < r.Len(); i++ {
		for j, c := range cols {
			bindValue(stmt, j+1, c.Value(i))
		}
		if err := stmt.Exec(); err != nil {
			conn.Exec("ROLLBACK")
			return err
		}
	}
	return conn.Exec("COMMIT")
}

func bindValue(s *sqlite3.Stmt, i int, v nsysx.Value) {
	switch v.Kind {
	case nsysx.IntKind:
		s.BindInt64(i, v.I)
	case nsysx.FloatKind:
		s.BindFloat(i, v.F)
	case nsysx.TextKind:
		s.BindText(i, v.S)
	default:
		s.BindNull(i)
	}
}

// sqlColumnNames are the labels, made unique.
func sqlColumnNames(cols []*nsysx.ResultCol) []string {
	seen := map[string]int{}
	out := make([]string, len(cols))
	for i, c := range cols {
		n := c.Label()
		seen[strings.ToLower(n)]++
		if k := seen[strings.ToLower(n)]; k > 1 {
			n += " " + strconv.Itoa(k)
		}
		out[i] = n
	}
	return out
}

func quoteIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }
