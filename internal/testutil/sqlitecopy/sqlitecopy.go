// Package sqlitecopy makes altered copies of the test profiles with
// SQLite itself (github.com/ncruces/go-sqlite3): values no capture
// produces (kernels of 2^62 ns, starts at INT64_MIN), tables dropped or
// emptied. It is apart from testutil so that only the tests that alter
// profiles link SQLite.
package sqlitecopy

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/ncruces/go-sqlite3"

	"github.com/nsysx/nsysx/internal/testutil"
)

// Profile copies the test profile name (testutil.Profile) to dir/as,
// runs the SQL statements on the copy and returns its path, read-only.
// as is the file name: its stem is what recipes rank and name it by.
func Profile(t testing.TB, name, dir, as string, stmts ...string) string {
	t.Helper()
	path := filepath.Join(dir, as)
	if err := os.WriteFile(path, testutil.ReadFile(t, testutil.Profile(t, name)), 0o644); err != nil {
		t.Fatal(err)
	}
	db, err := sqlite3.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range stmts {
		if err := db.Exec(s); err != nil {
			db.Close()
			t.Fatalf("%s: %v", s, err)
		}
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, 0o444); err != nil {
		t.Fatal(err)
	}
	return path
}

// RootPage is a table's root page number in the SQLite file at path.
func RootPage(t testing.TB, path, table string) int {
	t.Helper()
	return int(Int64(t, path, "SELECT rootpage FROM sqlite_master WHERE name = ?", table))
}

// Int64 is the integer the SQL query gives (its first column, first row;
// args bound to its parameters as text) on the SQLite file at path: the
// independent answer a test compares with.
func Int64(t testing.TB, path, query string, args ...string) int64 {
	t.Helper()
	var v int64
	first(t, path, query, args, func(st *sqlite3.Stmt) { v = st.ColumnInt64(0) })
	return v
}

// Text is Int64 for a value read as text (a count, a name,
// integrity_check's "ok").
func Text(t testing.TB, path, query string, args ...string) string {
	t.Helper()
	var v string
	first(t, path, query, args, func(st *sqlite3.Stmt) { v = st.ColumnText(0) })
	return v
}

// first runs query on the file at path, read-only, and hands its first row
// to read.
func first(t testing.TB, path, query string, args []string, read func(*sqlite3.Stmt)) {
	t.Helper()
	conn, err := sqlite3.OpenFlags("file:"+path+"?mode=ro&immutable=1", sqlite3.OPEN_READONLY|sqlite3.OPEN_URI)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	st, _, err := conn.Prepare(query)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for i, a := range args {
		st.BindText(i+1, a)
	}
	if !st.Step() {
		t.Fatalf("%s %v: no row: %v", query, args, st.Err())
	}
	read(st)
}

// DamageTable copies the test profile name to dir/as with the root page
// of table overwritten by 0xff bytes: a table that exists but cannot be
// read. It returns the copy's path (read-only) and the page number.
func DamageTable(t testing.TB, name, dir, as, table string) (string, int) {
	t.Helper()
	src := testutil.Profile(t, name)
	root := RootPage(t, src, table)
	data := testutil.ReadFile(t, src)
	ps := int(data[16])<<8 | int(data[17])
	if ps == 1 {
		ps = 65536
	}
	for i := (root - 1) * ps; i < root*ps; i++ {
		data[i] = 0xff
	}
	path := filepath.Join(dir, as)
	if err := os.WriteFile(path, data, 0o444); err != nil {
		t.Fatal(err)
	}
	return path, root
}
