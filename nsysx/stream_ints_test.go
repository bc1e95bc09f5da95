package nsysx

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/ncruces/go-sqlite3"
)

// kTable writes a SQLite export whose table K holds INTEGER columns a and
// b with a value of every storage class (an integer, NULL, a REAL, a BLOB,
// a TEXT that is no integer) and a TEXT column c.
func kTable(t *testing.T) string {
	path := filepath.Join(t.TempDir(), "k.sqlite")
	db, err := sqlite3.Open(path)
	if err == nil {
		err = db.Exec(`CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT);
			CREATE TABLE K (a INTEGER, b INTEGER NOT NULL, c TEXT);
			INSERT INTO K VALUES (1, -5, 'x'), (NULL, 7, 'y'), (2.75, -3.5, NULL), (x'00ff', 'abc', 'z'),
				('nope', 1 << 40, '1'), (-9, 0, 'w')`)
		if cerr := db.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		t.Fatal(err)
	}
	return path
}

// TestScanInts streams K's INTEGER columns and requires the values and
// NULLs that Load gives, row for row; a column that is not INTEGER, a
// missing one and a missing table do not apply.
func TestScanInts(t *testing.T) {
	p := openT(t, kTable(t))
	ctx := context.Background()
	want, err := p.Load(ctx, "K", "a", "b")
	if err != nil {
		t.Fatal(err)
	}
	a, b := want.Col("a"), want.Col("b")
	row := 0
	ok, err := p.ScanInts(ctx, "K", []string{"a", "b"}, func(v []int64, null uint32) error {
		for k, c := range []*Column{a, b} {
			if got, wantNull := null&(1<<k) != 0, c.IsNull(row); got != wantNull || v[k] != c.Ints[row] {
				t.Errorf("row %d %s: %d (NULL %v), Load %d (NULL %v)", row, c.Name, v[k], got, c.Ints[row], wantNull)
			}
		}
		row++
		return nil
	})
	if !ok || err != nil || row != want.N || row != 6 {
		t.Fatalf("ok %v err %v, %d rows of %d", ok, err, row, want.N)
	}
	if !a.IsNull(1) || !a.IsNull(4) || a.Ints[2] != 2 || b.Ints[2] != -3 || a.IsNull(3) || a.Ints[3] != 0 {
		t.Errorf("Load reads the classes otherwise than expected: a %v b %v", a.Ints, b.Ints)
	}
	for _, cols := range [][]string{{"a", "c"}, {"a", "d"}} {
		if ok, err := p.ScanInts(ctx, "K", cols, func([]int64, uint32) error { return nil }); ok || err != nil {
			t.Errorf("%v: ok %v err %v", cols, ok, err)
		}
	}
	if ok, _ := p.ScanInts(ctx, "Nope", []string{"a"}, func([]int64, uint32) error { return nil }); ok {
		t.Error("scanned a missing table")
	}
}
