package sqlite

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"testing"
)

func syncDB(t testing.TB) []byte {
	data, err := gunzipFile(filepath.Join("..", "..", "..", "testdata", "profiles", "sync.sqlite.gz"))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// gunzipFile reads a gzipped file whole.
func gunzipFile(path string) ([]byte, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	z, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	return io.ReadAll(z)
}

// Row counts and values checked against the sqlite3 command-line shell on the
// same file (SELECT count(*) ...; SELECT value FROM StringIds WHERE id = 2).
func TestReadRealExport(t *testing.T) {
	db, err := FromBytes(syncDB(t))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{"StringIds": 317, "CUPTI_ACTIVITY_KIND_KERNEL": 24, "NVTX_EVENTS": 32}
	for name, n := range want {
		tb := db.Table(name)
		if tb == nil {
			t.Fatalf("no table %s", name)
		}
		got, err := db.Count(tb)
		if err != nil || got != n {
			t.Errorf("%s: %d rows (%v), want %d", name, got, err, n)
		}
	}
	var names []string
	err = db.Scan(db.Table("stringids"), []string{"value", "ID"}, func(rowid int64, v []Value) error {
		if v[1].I != rowid {
			t.Fatalf("INTEGER PRIMARY KEY %d != rowid %d", v[1].I, rowid)
		}
		if rowid < 3 {
			names = append(names, string(v[0].B))
		}
		return nil
	})
	if err != nil || len(names) != 3 || names[0] != "[Unknown]" {
		t.Fatalf("StringIds scan: %v %q", err, names)
	}
}

func TestParseCreateTable(t *testing.T) {
	cols, wr := parseCreateTable(`CREATE TABLE "a b" (
		id INTEGER NOT NULL PRIMARY KEY, -- comment, with comma
		"end" INTEGER, [x y] TEXT DEFAULT 'a,b', z, w REAL,
		PRIMARY KEY (id), FOREIGN KEY (z) REFERENCES t(id)) WITHOUT ROWID`)
	if !wr || len(cols) != 5 {
		t.Fatalf("got %v %v", cols, wr)
	}
	want := []Column{{"id", "INTEGER", true, true, false}, {"end", "INTEGER", false, false, false}, {"x y", "TEXT", false, false, true},
		{"z", "", false, false, false}, {"w", "REAL", false, false, false}}
	for i, c := range want {
		if cols[i] != c {
			t.Errorf("col %d = %+v, want %+v", i, cols[i], c)
		}
	}
}

// FuzzReader: any bytes give either a database or an error; scanning every
// table of whatever opens (Scan, ScanFields, EstimateRows, Count) never
// panics or loops.
func FuzzReader(f *testing.F) {
	data := syncDB(f)
	f.Add(data[:8192])
	f.Add(data[:4096*3])
	f.Add([]byte("SQLite format 3\x00garbage"))
	f.Fuzz(func(t *testing.T, b []byte) {
		db, err := FromBytes(b)
		if err != nil {
			return
		}
		scanAll(db)
	})
}

// TestCorruptPages flips bytes all over a real file: errors, never panics.
func TestCorruptPages(t *testing.T) {
	damagedCopies(syncDB(t), 997, func(_ int, db *DB) { scanAll(db) })
}

// damagedCopies calls fn on each copy of orig that has the byte at off and
// the one at off/2 flipped, for off from 100 on in steps of step, and that
// still opens.
func damagedCopies(orig []byte, step int, fn func(off int, db *DB)) {
	for off := 100; off < len(orig); off += step {
		b := bytes.Clone(orig)
		b[off] ^= 0xA5
		b[off/2] ^= 0x5A
		if db, err := FromBytes(b); err == nil {
			fn(off, db)
		}
	}
}

// scanAll reads every table every way, for the damaged-file tests.
func scanAll(db *DB) {
	for _, tb := range db.Tables() {
		var cols []string
		for _, c := range tb.Columns {
			cols = append(cols, c.Name)
		}
		db.Scan(tb, cols, func(int64, []Value) error { return nil })
		db.ScanFields(tb, append(cols[:min(len(cols), MaxFields-1)], "absent"), ScanOptions{AbsentNull: true, Release: true},
			func(int64, *Fields) error { return nil })
		db.EstimateRows(tb)
		db.Count(tb)
	}
}

// parseWAL keeps the frames up to the last commit whose checksums hold: a
// damaged second transaction leaves the first one only.
func TestParseWAL(t *testing.T) {
	w, err := os.ReadFile(filepath.Join("..", "..", "..", "testdata", "fixtures", "wal_edge.sqlite-wal"))
	if err != nil {
		t.Fatal(err)
	}
	count := func(wp *walPages) (n int) {
		for _, p := range wp.pages {
			if p != nil {
				n++
			}
		}
		return n
	}
	wp, err := parseWAL(w)
	if err != nil || wp == nil || count(wp) != 2 || wp.ps != 4096 {
		t.Fatalf("two commits of one page each: %v %+v", err, wp)
	}
	bad := append([]byte(nil), w...)
	bad[32+24+4096+24+100] ^= 1 // a byte of the second frame's page
	if wp, err := parseWAL(bad); err != nil || wp == nil || count(wp) != 1 {
		t.Errorf("second frame damaged: %v %+v", err, wp)
	}
	if wp, err := parseWAL(w[:32+24+4096+10]); err != nil || count(wp) != 1 {
		t.Errorf("WAL cut in its second frame: %v %+v", err, wp)
	}
	bad[24] ^= 1 // the header's checksum no longer holds: no frames
	if wp, err := parseWAL(bad); err != nil || wp != nil {
		t.Errorf("bad header: %v %+v", err, wp)
	}
}
