package nsysxengine

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"

	"github.com/ncruces/go-sqlite3"

	"github.com/nsysx/nsysx/nsysx"
)

// The SQL engine of %%sql is github.com/ncruces/go-sqlite3 (SQLite
// compiled to Go through Wasm: no cgo, and a direct statement API with
// sqlite3_stmt_readonly and an authorizer). See kernel/README.md for the
// measurements that chose it.

// maxCount bounds how many rows a query counts beyond the ones it keeps.
const maxCount = 10_000_000

// errNotReadOnly is returned for statements that could write.
var errNotReadOnly = errors.New("only read-only queries are allowed (SELECT, WITH ... SELECT, VALUES, EXPLAIN)")

// QueryReadOnly runs one read-only SQL statement on the SQLite file at
// path and returns its rows as a Result (report "sql"): the first keep
// rows (all when keep < 0), and the number of rows, negative when there
// were more than maxCount. The database is opened read-only and
// immutable, non-SELECT statements are refused before and by SQLite
// itself (an authorizer allows only reads), and ctx interrupts the query.
func QueryReadOnly(ctx context.Context, path, query string, keep int) (*nsysx.Result, int, error) {
	return QueryResults(ctx, path, query, keep, nil)
}

// QueryResults is QueryReadOnly with results as extra tables: each one is
// copied into a TEMP table of its map key's name before the query is
// compiled (so it shadows a profile table of the same name). An empty
// path queries the results alone.
func QueryResults(ctx context.Context, path, query string, keep int, tables map[string]*nsysx.Result) (*nsysx.Result, int, error) {
	if err := checkSelect(query); err != nil {
		return nil, 0, err
	}
	conn, err := openReadOnly(path)
	if err != nil {
		return nil, 0, err
	}
	defer conn.Close()
	conn.Limit(sqlite3.LIMIT_ATTACHED, 0)
	if err := loadResults(conn, tables); err != nil {
		return nil, 0, err
	}
	if err := conn.SetAuthorizer(readOnlyAuthorizer); err != nil {
		return nil, 0, err
	}
	conn.SetInterrupt(ctx)
	stmt, tail, err := conn.Prepare(query)
	if err != nil {
		return nil, 0, sqlError(ctx, err)
	}
	defer stmt.Close()
	if strings.Trim(stripSQLComments(tail), "; \t\r\n") != "" {
		return nil, 0, errors.New("one statement at a time, please")
	}
	if !stmt.ReadOnly() {
		return nil, 0, errNotReadOnly
	}
	n := stmt.ColumnCount()
	names := make([]string, n)
	for i := range names {
		names[i] = stmt.ColumnName(i)
	}
	res := nsysx.NewResult("sql", "SQL query", names...)
	total := 0
	row := make([]nsysx.Value, n)
	for stmt.Step() {
		if keep < 0 || total < keep {
			for i := range row {
				row[i] = sqlValue(stmt, i)
			}
			res.Add(row...)
		}
		total++
		if keep >= 0 && total > keep+maxCount {
			total = -maxCount
			break
		}
	}
	if err := stmt.Err(); err != nil {
		return nil, 0, sqlError(ctx, err)
	}
	return res, total, nil
}

// openReadOnly opens the SQLite file read-only and immutable, or an empty
// in-memory database for an empty path.
func openReadOnly(path string) (*sqlite3.Conn, error) {
	if path == "" {
		return sqlite3.Open(":memory:")
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	uri := (&url.URL{Scheme: "file", Path: abs, RawQuery: "mode=ro&immutable=1"}).String()
	conn, err := sqlite3.OpenFlags(uri, sqlite3.OPEN_READONLY|sqlite3.OPEN_URI)
	if err != nil {
		return nil, fmt.Errorf("opening %s: %w", path, err)
	}
	return conn, nil
}

func sqlError(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return fmt.Errorf("SQL: %w", err)
}

func sqlValue(s *sqlite3.Stmt, i int) nsysx.Value {
	switch s.ColumnType(i) {
	case sqlite3.INTEGER:
		return nsysx.IntV(s.ColumnInt64(i))
	case sqlite3.FLOAT:
		return nsysx.FloatV(s.ColumnFloat(i))
	case sqlite3.TEXT:
		return nsysx.TextV(s.ColumnText(i))
	case sqlite3.BLOB:
		b := s.ColumnRawBlob(i)
		if len(b) > 32 {
			return nsysx.TextV(fmt.Sprintf("x'%x…' (%d bytes)", b[:32], len(b)))
		}
		return nsysx.TextV(fmt.Sprintf("x'%x'", b))
	}
	return nsysx.Null
}

// readOnlyAuthorizer lets SQLite compile only statements that read.
func readOnlyAuthorizer(action sqlite3.AuthorizerActionCode, _, _, _, _ string) sqlite3.AuthorizerReturnCode {
	switch action {
	case sqlite3.AUTH_SELECT, sqlite3.AUTH_READ, sqlite3.AUTH_FUNCTION, sqlite3.AUTH_RECURSIVE:
		return sqlite3.AUTH_OK
	}
	return sqlite3.AUTH_DENY
}

// checkSelect accepts statements that start with SELECT, WITH, VALUES or
// EXPLAIN (after comments and parentheses).
func checkSelect(q string) error {
	s := strings.TrimLeft(stripSQLComments(q), " \t\r\n(")
	if s == "" {
		return errors.New("empty query: write a SELECT statement in the cell")
	}
	word := s
	if i := strings.IndexFunc(s, func(r rune) bool { return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') }); i >= 0 {
		word = s[:i]
	}
	switch strings.ToUpper(word) {
	case "SELECT", "WITH", "VALUES", "EXPLAIN":
		return nil
	}
	return fmt.Errorf("%w, not %s", errNotReadOnly, strings.ToUpper(word))
}

// stripSQLComments blanks -- and /* */ comments outside quotes.
func stripSQLComments(q string) string {
	var b strings.Builder
	for i := 0; i < len(q); i++ {
		c := q[i]
		switch {
		case c == '\'' || c == '"' || c == '`' || c == '[':
			end := c
			if c == '[' {
				end = ']'
			}
			j := strings.IndexByte(q[i+1:], end)
			if j < 0 {
				b.WriteString(q[i:])
				return b.String()
			}
			b.WriteString(q[i : i+j+2])
			i += j + 1
		case c == '-' && i+1 < len(q) && q[i+1] == '-':
			j := strings.IndexByte(q[i:], '\n')
			if j < 0 {
				return b.String()
			}
			i += j - 1
			b.WriteByte(' ')
		case c == '/' && i+1 < len(q) && q[i+1] == '*':
			j := strings.Index(q[i+2:], "*/")
			if j < 0 {
				return b.String()
			}
			i += j + 3
			b.WriteByte(' ')
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}
