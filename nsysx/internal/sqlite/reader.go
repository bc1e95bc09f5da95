// Package sqlite reads the tables of a SQLite 3 database file directly from its
// B-tree pages, read-only, without a SQL engine.
//
// Nsight Systems exports are plain rowid tables with no indexes, written once and
// never changed; a report needs a few columns of a few tables. Walking the table
// B-trees and decoding only the wanted fields of each record is several times
// faster than going through a SQL engine and database/sql, and it cannot modify
// the file: the file is opened O_RDONLY and memory-mapped read-only.
//
// Every malformed structure (a page number past the end of the file, a cell that
// overruns its page, a record header that lies, pages swapped or duplicated:
// btree.go, census.go) is reported as an error wrapping ErrCorrupt and naming the page; the
// reader never panics on bad input. A WAL-mode database is read with the
// committed frames of its -wal file (wal.go).
//
// Scan delivers rows as Values; ScanFields (stream.go) is the faster form for
// one pass over a table of millions of rows, which can also stop on a
// cancelled context and drop the pages it has read from the resident set.
package sqlite

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"os"
	"strings"
	"sync"

	"github.com/nsysx/nsysx/nsysx/internal/fields"
)

// ErrNotSQLite is returned by Open for a file that does not start with the
// SQLite 3 header.
var ErrNotSQLite = errors.New("not a SQLite 3 database")

// ErrCorrupt wraps every structural problem found while reading.
var ErrCorrupt = errors.New("corrupt or truncated SQLite file")

// ErrUTF16 is returned by Open for a database whose text encoding is
// UTF-16: nsys writes UTF-8, and the reader decodes only that.
var ErrUTF16 = errors.New("UTF-16 exports are not supported")

// Type, Value and their storage classes are the decoded-record types of
// package fields, shared with the library's model.
type (
	Type  = fields.Type
	Value = fields.Value
)

// Storage classes, as in SQLite.
const (
	Null    = fields.Null
	Integer = fields.Integer
	Float   = fields.Float
	Text    = fields.Text
	Blob    = fields.Blob
)

// Column describes one column of a table from its CREATE TABLE statement.
type Column struct {
	Name     string
	Decl     string // declared type, upper case ("INTEGER", "TEXT", "REAL", ...)
	RowidKey bool   // INTEGER PRIMARY KEY: the value is the rowid
	NotNull  bool   // declared NOT NULL
	Default  bool   // has a DEFAULT
}

// Table is one table of the schema.
type Table struct {
	Name    string
	Root    uint32
	Columns []Column
}

// DB is an open database file.
type DB struct {
	data     []byte
	unmap    func() error
	mapped   bool     // data is a file mapping whose pages can be released
	file     *os.File // the mapped file, for reads that bypass the mapping (census.go); nil when not mapped
	pageSize int
	usable   int
	nPages   int
	tables   map[string]*Table // by lower-case name
	order    []string
	wal      [][]byte     // committed pages of the WAL file by number, or nil (wal.go)
	at       *pageFetcher // set by OpenReaderAt: pages read on demand (ranged.go)
	// roots lists the root page of every B-tree of the schema (page 1,
	// tables, indexes, SQLite's own tables) for the census (census.go).
	roots      []uint32
	censusOnce sync.Once
	censusDone chan struct{} // closed when the census has run
	census     census
	censusErr  error
}

// Open maps path read-only and reads its schema.
func Open(path string) (*DB, error) {
	if st, err := os.Stat(path); err == nil && !st.Mode().IsRegular() && !st.IsDir() {
		return nil, fmt.Errorf("%s is not a regular file (mode %s)", path, st.Mode().Type()) // a FIFO would block
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	keep := false // the file stays open with its mapping, for the census's reads
	defer func() {
		if !keep {
			f.Close()
		}
	}()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if st.IsDir() {
		return nil, fmt.Errorf("%s is a directory", path)
	}
	if st.Size() < 100 {
		return nil, ErrNotSQLite
	}
	data, unmap, mapped, err := mapFile(f, st.Size())
	if err != nil {
		return nil, err
	}
	wal, err := readWAL(path, data)
	if err != nil {
		unmap()
		return nil, err
	}
	db, err := fromBytes(data, wal)
	if err != nil {
		unmap()
		return nil, err
	}
	db.unmap, db.mapped = unmap, mapped
	if mapped {
		db.file, keep = f, true
	}
	return db, nil
}

// FromBytes reads a database held in memory (used by tests and the fuzzer).
func FromBytes(data []byte) (db *DB, err error) { return fromBytes(data, nil) }

// fromBytes reads a database from its file's bytes and the committed pages
// of its WAL (nil: none).
func fromBytes(file []byte, wal *walPages) (db *DB, err error) {
	data := file
	if wal != nil && wal.pages[1] != nil {
		data = wal.pages[1] // the header as last committed
	}
	ps, reserved, err := parseHeader(data)
	if err != nil {
		return nil, err
	}
	db = &DB{data: file, pageSize: ps, usable: ps - reserved, nPages: len(file) / ps, tables: map[string]*Table{}}
	if wal != nil {
		if wal.ps != ps {
			return nil, fmt.Errorf("%w: the WAL's page size %d is not the database's %d", ErrCorrupt, wal.ps, ps)
		}
		db.wal, db.nPages = wal.pages, wal.n
	}
	if db.usable < 480 {
		return nil, fmt.Errorf("%w: bad reserved size", ErrCorrupt)
	}
	defer recoverCorrupt(&err)
	db.roots = []uint32{1}
	if err := db.readSchema(); err != nil {
		return nil, err
	}
	return db, nil
}

// parseHeader checks the file header's magic and text encoding and returns
// its page size and reserved bytes per page.
func parseHeader(data []byte) (ps, reserved int, err error) {
	if len(data) < 100 || string(data[:16]) != "SQLite format 3\x00" {
		return 0, 0, ErrNotSQLite
	}
	ps = int(binary.BigEndian.Uint16(data[16:18]))
	if ps == 1 {
		ps = 65536
	}
	if ps < 512 || ps&(ps-1) != 0 {
		return 0, 0, fmt.Errorf("%w: bad page size %d", ErrCorrupt, ps)
	}
	switch enc := binary.BigEndian.Uint32(data[56:60]); enc {
	case 0, 1: // UTF-8 (0: not yet set, an empty database)
	case 2, 3:
		return 0, 0, fmt.Errorf("%w (the file's text encoding is UTF-16%s; nsys writes UTF-8)", ErrUTF16, [...]string{"le", "be"}[enc-2])
	default:
		return 0, 0, fmt.Errorf("%w: bad text encoding %d in the header", ErrCorrupt, enc)
	}
	return ps, int(data[20]), nil
}

func recoverCorrupt(err *error) {
	if r := recover(); r != nil {
		*err = fmt.Errorf("%w: %v", ErrCorrupt, r)
	}
}

// Close releases the mapping.
func (db *DB) Close() error {
	db.waitCensus()
	if db.file != nil {
		db.file.Close()
		db.file = nil
	}
	if db.unmap != nil {
		u := db.unmap
		db.unmap = nil
		return u()
	}
	return nil
}

// Tables lists the tables in schema order.
func (db *DB) Tables() []*Table {
	out := make([]*Table, 0, len(db.order))
	for _, n := range db.order {
		out = append(out, db.tables[n])
	}
	return out
}

// Table returns the named table (case-insensitive), or nil.
func (db *DB) Table(name string) *Table { return db.tables[strings.ToLower(name)] }

func (db *DB) readSchema() error {
	// sqlite_schema: type, name, tbl_name, rootpage, sql
	return db.scanTree(1, nil, nil, func(rowid int64, rec []byte) error {
		vals, err := decodeAll(rec, 5)
		if err != nil {
			return err
		}
		if vals[3].Type == Integer && vals[3].I > 0 && vals[3].I <= math.MaxUint32 {
			db.roots = append(db.roots, uint32(vals[3].I))
		}
		if vals[0].Type != Text || string(vals[0].B) != "table" {
			return nil
		}
		name := string(vals[1].B)
		if strings.HasPrefix(name, "sqlite_") {
			return nil
		}
		sql := string(vals[4].B)
		cols, withoutRowid := parseCreateTable(sql)
		if withoutRowid {
			return nil // index b-tree layout: nsys never writes these
		}
		if vals[3].I <= 0 {
			return nil // virtual table
		}
		t := &Table{Name: name, Root: uint32(vals[3].I), Columns: cols}
		key := strings.ToLower(name)
		if _, dup := db.tables[key]; !dup {
			db.order = append(db.order, key)
		}
		db.tables[key] = t
		return nil
	})
}

func (db *DB) page(n uint32) ([]byte, error) {
	if n < 1 || int(n) > db.nPages {
		return nil, fmt.Errorf("%w: page %d out of range (file has %d pages)", ErrCorrupt, n, db.nPages)
	}
	if db.at != nil {
		p, err := db.at.page(n)
		if err != nil {
			return nil, err
		}
		return p[:db.usable], nil
	}
	off := int(n-1) * db.pageSize
	if db.wal != nil {
		if p := db.wal[n]; p != nil {
			return p[:db.usable], nil
		}
		if off+db.pageSize > len(db.data) {
			return nil, fmt.Errorf("%w: page %d is in neither the file nor its WAL", ErrCorrupt, n)
		}
	}
	return db.data[off : off+db.usable], nil
}

// btreePage returns a table B-tree page, the offset of its header (100 on
// page 1), its cell count and whether it is a leaf; the cell pointer array is
// checked to lie within the page.
func (db *DB) btreePage(pg uint32) (p []byte, hdr, ncell int, leaf bool, err error) {
	if p, err = db.page(pg); err != nil {
		return nil, 0, 0, false, err
	}
	return treePage(p, pg)
}

// treePage is btreePage's checks of page pg's bytes p.
func treePage(p []byte, pg uint32) (_ []byte, hdr, ncell int, leaf bool, err error) {
	if pg == 1 {
		hdr = 100
	}
	if hdr+12 > len(p) {
		return nil, 0, 0, false, fmt.Errorf("%w: short page %d", ErrCorrupt, pg)
	}
	ncell = int(binary.BigEndian.Uint16(p[hdr+3:]))
	switch p[hdr] {
	case 0x0D: // table leaf
		leaf = true
		if hdr+8+2*ncell > len(p) {
			return nil, 0, 0, false, fmt.Errorf("%w: cell pointers overrun page %d", ErrCorrupt, pg)
		}
	case 0x05: // table interior
		if hdr+12+2*ncell > len(p) {
			return nil, 0, 0, false, fmt.Errorf("%w: cell pointers overrun page %d", ErrCorrupt, pg)
		}
	default:
		return nil, 0, 0, false, fmt.Errorf("%w: page %d is not a table B-tree page (type %d)", ErrCorrupt, pg, p[hdr])
	}
	return p, hdr, ncell, leaf, nil
}

// child returns the i-th child of an interior page (i == ncell: the
// right-most pointer).
func child(p []byte, hdr, ncell, i int) (uint32, error) {
	if i == ncell {
		return binary.BigEndian.Uint32(p[hdr+8:]), nil
	}
	off := int(binary.BigEndian.Uint16(p[hdr+12+2*i:]))
	if off+4 > len(p) {
		return 0, fmt.Errorf("%w: cell offset past page", ErrCorrupt)
	}
	return binary.BigEndian.Uint32(p[off:]), nil
}

// scanTree walks a table B-tree in rowid order, calling fn with each record.
// The record slice aliases the mapping or a scratch buffer: copy to keep.
// With a non-nil sh, the first record of each leaf page is checked against
// it; with a non-nil st, st.leafDone follows each leaf page (context checks
// and page releases).
func (db *DB) scanTree(root uint32, sh *shape, st *stream, fn func(rowid int64, rec []byte) error) error {
	var scratch []byte
	var done func(pg uint32)
	if st != nil && st.release {
		done = st.interiorDone
	}
	return db.walkLeavesThen(root, func(p []byte, hdr, ncell int, pg uint32, lo, hi int64) error {
		return db.scanLeaf(p, hdr, ncell, pg, lo, hi, sh, st, &scratch, fn)
	}, done)
}

// scanLeaf calls fn with each record of a leaf page, checking that its
// rowids increase within [lo, hi] and its first record against sh; scratch
// holds records that overflow the page.
func (db *DB) scanLeaf(p []byte, hdr, ncell int, pg uint32, lo, hi int64, sh *shape, st *stream, scratch *[]byte, fn func(rowid int64, rec []byte) error) error {
	if st != nil && st.first != nil {
		return db.scanLeafFirst(p, hdr, ncell, pg, lo, hi, sh, st, scratch, fn)
	}
	ptrs := hdr + 8
	if touchCells(p, hdr) == 0x5A && ncell < 0 { // never true: keeps the loads
		return nil
	}
	for i := 0; i < ncell; i++ {
		off := int(binary.BigEndian.Uint16(p[ptrs+2*i:]))
		if off >= len(p) {
			return fmt.Errorf("%w: cell offset past page %d", ErrCorrupt, pg)
		}
		size, n1 := varint(p[off:])
		rowid, n2 := varint(p[off+n1:])
		if n1 == 0 || n2 == 0 || size > 1<<31 {
			return fmt.Errorf("%w: bad cell in page %d", ErrCorrupt, pg)
		}
		if r := int64(rowid); r < lo || r > hi {
			return keyOrderErr(pg, r, lo, hi)
		} else if lo = r + 1; r == math.MaxInt64 {
			hi = math.MinInt64 // no cell may follow
		}
		rec, sc, err := db.payload(p, off+n1+n2, int(size), *scratch)
		if err != nil {
			return err
		}
		if i == 0 && sh != nil {
			if err := sh.check(rec, pg); err != nil {
				return err
			}
		}
		// stored only when it grew: ranges scanned at once have their
		// scratch headers side by side, and a store for every row would
		// move the cache line between their cores
		if cap(sc) != cap(*scratch) {
			*scratch = sc
		}
		if st != nil && st.first != nil && refusedFirst(rec, st.first) {
			continue
		}
		if err := fn(int64(rowid), rec); err != nil {
			return err
		}
	}
	if st != nil {
		return st.leafDone(pg, ncell)
	}
	return nil
}

// payload returns the record of a leaf cell, following overflow pages when the
// record does not fit in the page.
func (db *DB) payload(p []byte, start, size int, scratch []byte) ([]byte, []byte, error) {
	u := db.usable
	x := u - 35
	if size <= x {
		if start+size > len(p) {
			return nil, scratch, fmt.Errorf("%w: record overruns page", ErrCorrupt)
		}
		return p[start : start+size], scratch, nil
	}
	m := ((u-12)*32/255 - 23)
	k := m + (size-m)%(u-4)
	local := m
	if k <= x {
		local = k
	}
	if start+local+4 > len(p) {
		return nil, scratch, fmt.Errorf("%w: record overruns page", ErrCorrupt)
	}
	if (size-local)/(u-4) >= db.nPages { // more overflow pages than the file has: a chain that loops
		return nil, scratch, fmt.Errorf("%w: record larger than the file", ErrCorrupt)
	}
	buf := append(scratch[:0], p[start:start+local]...)
	next := binary.BigEndian.Uint32(p[start+local:])
	var last uint32
	for len(buf) < size {
		op, err := db.page(next)
		if err != nil {
			return nil, buf, err
		}
		n := size - len(buf)
		if n > u-4 {
			n = u - 4
		}
		buf = append(buf, op[4:4+n]...)
		last, next = next, binary.BigEndian.Uint32(op)
		if len(buf) > size {
			break
		}
	}
	// SQLite ends a chain with a next pointer of 0: anything else on the
	// last page read (a B-tree page's type byte and header, where a page
	// of another tree was swapped into the chain) is damage that the
	// record's bytes would not show.
	if next != 0 {
		return nil, buf, fmt.Errorf("%w: overflow page %d of a record does not end its chain (a page of another tree? pages swapped or duplicated)", ErrCorrupt, last)
	}
	return buf, buf, nil
}

// Scan reads the named columns of every row of t, in rowid order. For a column
// that is the INTEGER PRIMARY KEY, the rowid is returned. The vals slice is
// reused between calls; Text and Blob bytes alias the file.
func (db *DB) Scan(t *Table, cols []string, fn func(rowid int64, vals []Value) error) (err error) {
	defer recoverCorrupt(&err)
	want, rowidCols, err := t.positions(cols, false)
	if err != nil {
		return err
	}
	db.startCensus()
	vals := make([]Value, len(cols))
	err = db.scanTree(t.Root, t.shape(), nil, func(rowid int64, rec []byte) error {
		if err := decodeWant(rec, want, vals); err != nil {
			return err
		}
		for _, j := range rowidCols {
			vals[j] = Value{Type: Integer, I: rowid}
		}
		return fn(rowid, vals)
	})
	if err == nil {
		err = db.checkPages(t)
	}
	return err
}

// positions maps the named columns to the records of t: want[col] is the
// position in cols of the table's column col, or -1 when it is not asked for,
// and rowidCols lists the positions of the INTEGER PRIMARY KEY, which reads
// as the rowid. A column t lacks is an error, or left out when absentOK.
func (t *Table) positions(cols []string, absentOK bool) (want, rowidCols []int, err error) {
	idx := make([]int, len(cols))
	maxIdx := -1
	for i, c := range cols {
		idx[i] = -1
		for j, tc := range t.Columns {
			if strings.EqualFold(tc.Name, c) {
				idx[i] = j
				if tc.RowidKey {
					rowidCols = append(rowidCols, i)
				}
				break
			}
		}
		if idx[i] < 0 && !absentOK {
			return nil, nil, fmt.Errorf("table %s has no column %s", t.Name, c)
		}
		maxIdx = max(maxIdx, idx[i])
	}
	want = make([]int, maxIdx+1)
	for i := range want {
		want[i] = -1
	}
	for j, c := range idx {
		if c >= 0 {
			want[c] = j
		}
	}
	return want, rowidCols, nil
}

// Count returns the number of rows of t from the cell counts of its leaf
// pages, without decoding any record.
func (db *DB) Count(t *Table) (n int, err error) {
	defer recoverCorrupt(&err)
	db.startCensus()
	err = db.walkLeaves(t.Root, func(_ []byte, _, ncell int, _ uint32, _, _ int64) error {
		n += ncell
		return nil
	})
	if err == nil {
		err = db.checkPages(t)
	}
	return n, err
}

// touchCells reads one byte of each cache line of a leaf page's cells
// before they are decoded. The loads do not depend on each other, so the
// processor fetches the lines of the page at once instead of one miss per
// cell, each waiting behind the previous row's decoding: a quarter less
// time for a gated scan of NVTX_EVENTS (BenchmarkScanFields covers the
// decoding loop). Go has no prefetch instruction to say this directly.
func touchCells(p []byte, hdr int) byte {
	start := int(binary.BigEndian.Uint16(p[hdr+5:])) // the cell content area (0 means 65536)
	var s byte
	for i := start &^ 63; i < len(p); i += 64 {
		s |= p[i]
	}
	return s
}
