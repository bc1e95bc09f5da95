package sqlite

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ncruces/go-sqlite3"

	"github.com/nsysx/nsysx/internal/testutil/sqlitecopy"
)

// Damage that SQLite's own queries do not notice: pages swapped so that a
// table's root holds one of its own subtrees, a record header that declares
// too few bytes, and a UTF-16 database. SQLite (go-sqlite3, a build of the
// real library) is the reference: its count(*) of every table of every
// shipped profile, and its integrity_check, which does see the swaps.

// profileBytes is testdata/<dir>/<name>.sqlite.gz unpacked.
func profileBytes(t *testing.T, dir, name string) []byte {
	t.Helper()
	b, err := gunzipFile(filepath.Join("..", "..", "..", "testdata", dir, name+".sqlite.gz"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// tempFile writes data to a read-only file of the test's and returns its path.
func tempFile(t *testing.T, data []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "db.sqlite")
	if err := os.WriteFile(path, data, 0o444); err != nil {
		t.Fatal(err)
	}
	return path
}

// sqliteQuery runs a one-value query with SQLite on the file holding data.
func sqliteQuery(t *testing.T, data []byte, query string) string {
	t.Helper()
	return sqliteQueryPath(t, tempFile(t, data), query)
}

func sqliteQueryPath(t *testing.T, path, query string) string {
	t.Helper()
	return sqlitecopy.Text(t, path, query)
}

// swapPages returns a copy of data with pages a and b exchanged.
func swapPages(data []byte, a, b uint32) []byte {
	ps := int(data[16])<<8 | int(data[17])
	out := bytes.Clone(data)
	copy(out[int(a-1)*ps:int(a)*ps], data[int(b-1)*ps:int(b)*ps])
	copy(out[int(b-1)*ps:int(b)*ps], data[int(a-1)*ps:int(a)*ps])
	return out
}

// leafPages lists the leaves of table name in data, in rowid order.
func leafPages(t *testing.T, data []byte, name string) []uint32 {
	t.Helper()
	db, err := FromBytes(data)
	if err != nil {
		t.Fatal(err)
	}
	var out []uint32
	if err := db.walkLeaves(db.Table(name).Root, func(_ []byte, _, _ int, pg uint32, _, _ int64) error {
		out = append(out, pg)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return out
}

// readEveryWay reads table name of db with each kind of scan and returns
// their errors, by kind.
func readEveryWay(db *DB, name string) map[string]error {
	tb := db.Table(name)
	cols := []string{tb.Columns[0].Name, tb.Columns[len(tb.Columns)-1].Name}
	none := func(int64, *Fields) error { return nil }
	errs := map[string]error{}
	_, errs["Count"] = db.Count(tb)
	errs["Scan"] = db.Scan(tb, cols, func(int64, []Value) error { return nil })
	errs["ScanFields"] = db.ScanFields(tb, cols, ScanOptions{}, none)
	errs["ScanFields gated first"] = db.ScanFields(tb, cols, ScanOptions{Gate: func(int64) bool { return true }, GateField: 0, GateFirst: true}, none)
	_, errs["ScanFieldsParts"] = db.ScanFieldsParts(tb, cols, ScanOptions{Release: true}, 4, func(int) func(int64, *Fields) error { return none })
	return errs
}

// TestSwappedRoot: a table's root swapped with one of its own pages, or
// with a leaf of its own, is an error naming a page of the damage for every
// kind of scan, where it used to read a few of the table's rows (the kernel
// table of train 53 of its 5 600 rows, StringIds of sync 1 of 317, as
// SQLite's count(*) still does, checked here too).
func TestSwappedRoot(t *testing.T) {
	type swap struct {
		profile, table string
		a, b           uint32 // the pages swapped
	}
	train, sync := profileBytes(t, "profiles", "train"), profileBytes(t, "profiles", "sync")
	trainDB, err := FromBytes(train)
	if err != nil {
		t.Fatal(err)
	}
	kernels := trainDB.Table("CUPTI_ACTIVITY_KIND_KERNEL").Root
	leaves := leafPages(t, train, "CUPTI_ACTIVITY_KIND_KERNEL")
	cases := []swap{
		{"sync", "StringIds", 2, 8}, // the root and a leaf of one big string
		{"train", "CUPTI_ACTIVITY_KIND_KERNEL", kernels, leaves[len(leaves)/2]},
		{"train", "CUPTI_ACTIVITY_KIND_KERNEL", kernels, leaves[0]},
		{"train", "CUPTI_ACTIVITY_KIND_KERNEL", kernels, leaves[len(leaves)-1]},
	}
	// a root whose first child may be an interior page: swapped with it
	nvtx := trainDB.Table("NVTX_EVENTS").Root
	p, hdr, ncell, _, err := trainDB.btreePage(nvtx)
	if err != nil || ncell == 0 {
		t.Fatalf("NVTX_EVENTS root %d: %d cells, %v", nvtx, ncell, err)
	}
	first, _ := child(p, hdr, ncell, 0)
	cases = append(cases, swap{"train", "NVTX_EVENTS", nvtx, first})
	for _, c := range cases {
		t.Run(fmt.Sprintf("%s %s %d-%d", c.profile, c.table, c.a, c.b), func(t *testing.T) {
			orig := sync
			if c.profile == "train" {
				orig = train
			}
			bad := swapPages(orig, c.a, c.b)
			q := fmt.Sprintf("SELECT count(*) FROM %q", c.table)
			full, shrunk := sqliteQuery(t, orig, q), sqliteQuery(t, bad, q)
			if full == shrunk {
				t.Fatalf("SQLite counts %s rows both before and after the swap: not the damage this test is about", full)
			}
			if ic := sqliteQuery(t, bad, "PRAGMA integrity_check"); ic == "ok" {
				t.Fatalf("SQLite's integrity_check finds nothing wrong")
			}
			db, err := FromBytes(bad)
			if err != nil {
				t.Fatalf("open: %v", err)
			}
			for kind, err := range readEveryWay(db, c.table) {
				if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "table "+c.table+": page ") {
					t.Errorf("%s: %v, want a damaged-file error naming the table and a page (SQLite reads %s rows of %s)", kind, err, shrunk, full)
				}
			}
			// the same from the file, whose census reads with pread
			fdb, err := Open(tempFile(t, bad))
			if err != nil {
				t.Fatal(err)
			}
			defer fdb.Close()
			if _, err := fdb.Count(fdb.Table(c.table)); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "table "+c.table+": page ") {
				t.Errorf("Count of the file: %v, want a damaged-file error naming the table and a page", err)
			}
			// the other tables read (a few may share the damaged one's
			// shape, and be refused with it)
			refused := 0
			for _, tb := range db.Tables() {
				if _, err := db.Count(tb); err != nil && tb.Name != c.table {
					refused++
					t.Logf("%s refused too: %v", tb.Name, err)
				}
			}
			if refused > 2 {
				t.Errorf("%d other tables refused", refused)
			}
		})
	}
}

// TestShippedProfilesCount: every table of every shipped profile and
// external export opens, passes the census (Count asks it) and has the
// rows SQLite counts.
func TestShippedProfilesCount(t *testing.T) {
	n := 0
	for _, dir := range []string{"profiles", "external"} {
		gz, err := filepath.Glob(filepath.Join("..", "..", "..", "testdata", dir, "*.sqlite.gz"))
		if err != nil || len(gz) < 5 {
			t.Fatalf("testdata/%s: %d profiles, %v", dir, len(gz), err)
		}
		for _, f := range gz {
			name := strings.TrimSuffix(filepath.Base(f), ".sqlite.gz")
			path := tempFile(t, profileBytes(t, dir, name))
			db, err := Open(path)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			for _, tb := range db.Tables() {
				got, err := db.Count(tb)
				want := sqliteQueryPath(t, path, fmt.Sprintf("SELECT count(*) FROM %q", tb.Name))
				if err != nil || fmt.Sprint(got) != want {
					t.Errorf("%s %s: %d rows (%v), SQLite counts %s", name, tb.Name, got, err, want)
				}
				n++
			}
			db.Close()
		}
	}
	if n < 500 {
		t.Errorf("only %d tables", n)
	}
}

// TestShortRecordHeader: a record whose header size was made 4 smaller
// (bit 2 of its first byte cleared) reads its fields from the wrong bytes
// and its last four as NULL; the scans say the record is damaged. The
// record is the sixth of a leaf in the middle of train's kernel table.
func TestShortRecordHeader(t *testing.T) {
	train := profileBytes(t, "profiles", "train")
	db, err := FromBytes(train)
	if err != nil {
		t.Fatal(err)
	}
	leaves := leafPages(t, train, "CUPTI_ACTIVITY_KIND_KERNEL")
	pg := leaves[len(leaves)/2]
	p, hdr, ncell, _, err := db.btreePage(pg)
	if err != nil || ncell < 10 {
		t.Fatalf("leaf %d: %d cells, %v", pg, ncell, err)
	}
	off := -1
	for i := 5; i < ncell && off < 0; i++ {
		c := int(p[hdr+8+2*i])<<8 | int(p[hdr+9+2*i])
		_, n1 := varint(p[c:])
		_, n2 := varint(p[c+n1:])
		if h := p[c+n1+n2]; h < 0x80 && h&4 != 0 {
			off = int(pg-1)*db.pageSize + c + n1 + n2
		}
	}
	if off < 0 {
		t.Fatalf("no record with bit 2 of its header size set in leaf %d", pg)
	}
	bad := bytes.Clone(train)
	bad[off] ^= 4
	if ic := sqliteQuery(t, bad, "PRAGMA integrity_check"); ic == "ok" {
		t.Fatalf("SQLite's integrity_check finds nothing wrong")
	}
	bdb, err := FromBytes(bad)
	if err != nil {
		t.Fatal(err)
	}
	for kind, err := range readEveryWay(bdb, "CUPTI_ACTIVITY_KIND_KERNEL") {
		if kind == "Count" { // counts cells, reads no record
			continue
		}
		if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "header does not match its size") {
			t.Errorf("%s: %v, want the record's damage", kind, err)
		}
	}
}

// TestUTF16 refuses a UTF-16 database, one SQLite wrote and one whose
// header alone says UTF-16, with its own message.
func TestUTF16(t *testing.T) {
	path := filepath.Join(t.TempDir(), "u16.sqlite")
	conn, err := sqlite3.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	err = conn.Exec(`PRAGMA encoding = 'UTF-16le'; CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT); INSERT INTO StringIds VALUES (0, 'x')`)
	if cerr := conn.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatal(err)
	}
	flipped := bytes.Clone(profileBytes(t, "profiles", "sync"))
	flipped[59] = 3 // UTF-16be
	u16, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for name, b := range map[string][]byte{"written by SQLite": u16, "header says UTF-16be": flipped} {
		if _, err := FromBytes(b); !errors.Is(err, ErrUTF16) || !strings.Contains(err.Error(), "UTF-16 exports are not supported") {
			t.Errorf("%s: %v, want %v", name, err, ErrUTF16)
		}
	}
	flipped[59] = 7
	if _, err := FromBytes(flipped); !errors.Is(err, ErrCorrupt) {
		t.Errorf("text encoding 7: %v, want a damaged-file error", err)
	}
}

// TestFitsRest: the check that a record's fields fill it gives the same
// answer through the last record's kept answer (fitsRest) as by walking
// the header (fits), from every column of every record of train, as
// written and with its header size 1 to 4 bytes off; and it holds for
// every record as written.
func TestFitsRest(t *testing.T) {
	db, err := FromBytes(profileBytes(t, "profiles", "train"))
	if err != nil {
		t.Fatal(err)
	}
	var r restFit
	n := 0
	for _, tb := range db.Tables() {
		err := db.scanTree(tb.Root, nil, nil, func(rowid int64, rec []byte) error {
			for _, d := range []int{0, -4, -1, 1, 4} {
				b := bytes.Clone(rec)
				if d != 0 && (b[0] >= 0x80 || int(b[0])+d < 1 || int(b[0])+d >= len(b)) {
					continue
				}
				b[0] = byte(int(b[0]) + d)
				h, ok := startHeaderSlow(b)
				for col := 0; ok; col++ {
					if got, want := h.fitsRest(b, &r), h.fits(b); got != want || d == 0 && !want {
						t.Fatalf("%s row %d, header size %+d, from column %d: fitsRest %v, fits %v", tb.Name, rowid, d, col, got, want)
					}
					n++
					if !h.more() {
						break
					}
					h, _, ok = h.nextSlow(b)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if n < 100000 {
		t.Fatalf("only %d checks", n)
	}
}

// TestOverflowPageSwapped: an overflow page of a long name in cnn's
// StringIds (page 24) swapped with the root leaf of TARGET_INFO_GPU: the
// names read their last bytes from the GPU table's page and their count is
// unchanged, so nothing but the end of the chain shows the damage (SQLite's
// integrity_check sees it; its count(*) does not). Every scan of the names
// is an error naming the page, where it used to give 652 names, some of
// them wrong.
func TestOverflowPageSwapped(t *testing.T) {
	good := profileBytes(t, "profiles", "cnn")
	const ovfl = 24
	ps := int(good[16])<<8 | int(good[17])
	page := good[(ovfl-1)*ps : ovfl*ps]
	if next := int(page[0])<<24 | int(page[1])<<16 | int(page[2])<<8 | int(page[3]); next != 0 && next > len(good)/ps {
		t.Fatalf("page %d of cnn is not an overflow page (next pointer %d)", ovfl, next)
	}
	var root int
	fmt.Sscan(sqliteQuery(t, good, "SELECT rootpage FROM sqlite_master WHERE name = 'TARGET_INFO_GPU'"), &root)
	bad := swapPages(good, ovfl, uint32(root))
	if got := sqliteQuery(t, bad, "PRAGMA integrity_check"); got == "ok" {
		t.Fatalf("SQLite finds no damage in the swapped file")
	}
	if got := sqliteQuery(t, bad, "SELECT count(*) FROM StringIds"); got != sqliteQuery(t, good, "SELECT count(*) FROM StringIds") {
		t.Fatalf("SQLite's count of the names changed (%s): not the silent case", got)
	}
	db, err := FromBytes(bad)
	if err != nil {
		t.Fatal(err)
	}
	for kind, err := range readEveryWay(db, "StringIds") {
		if kind == "Count" {
			continue // counting reads no record
		}
		if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), fmt.Sprintf("overflow page %d", ovfl)) {
			t.Errorf("%s of StringIds: %v, want the damaged overflow chain at page %d", kind, err, ovfl)
		}
	}
}
