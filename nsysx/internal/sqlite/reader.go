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
// overruns its page, a record header that lies) is reported as an error wrapping
// ErrCorrupt; the reader never panics on bad input.
package sqlite

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"os"
	"strings"
)

// ErrNotSQLite is returned by Open for a file that does not start with the
// SQLite 3 header.
var ErrNotSQLite = errors.New("not a SQLite 3 database")

// ErrCorrupt wraps every structural problem found while reading.
var ErrCorrupt = errors.New("corrupt or truncated SQLite file")

// Type is the storage class of a decoded value.
type Type uint8

// Storage classes, as in SQLite.
const (
	Null Type = iota
	Integer
	Float
	Text
	Blob
)

// Value is one decoded field. For Text and Blob, B aliases the file mapping
// and is only valid during the row callback: copy it to keep it.
type Value struct {
	Type Type
	I    int64
	F    float64
	B    []byte
}

// Column describes one column of a table from its CREATE TABLE statement.
type Column struct {
	Name     string
	Decl     string // declared type, upper case ("INTEGER", "TEXT", "REAL", ...)
	RowidKey bool   // INTEGER PRIMARY KEY: the value is the rowid
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
	pageSize int
	usable   int
	nPages   int
	tables   map[string]*Table // by lower-case name
	order    []string
}

// Open maps path read-only and reads its schema.
func Open(path string) (*DB, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
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
	data, unmap, err := mapFile(f, st.Size())
	if err != nil {
		return nil, err
	}
	db, err := FromBytes(data)
	if err != nil {
		unmap()
		return nil, err
	}
	db.unmap = unmap
	return db, nil
}

// FromBytes reads a database held in memory (used by tests and the fuzzer).
func FromBytes(data []byte) (db *DB, err error) {
	if len(data) < 100 || string(data[:16]) != "SQLite format 3\x00" {
		return nil, ErrNotSQLite
	}
	ps := int(binary.BigEndian.Uint16(data[16:18]))
	if ps == 1 {
		ps = 65536
	}
	if ps < 512 || ps&(ps-1) != 0 {
		return nil, fmt.Errorf("%w: bad page size %d", ErrCorrupt, ps)
	}
	reserved := int(data[20])
	if data[56] != 0 && binary.BigEndian.Uint32(data[56:60]) > 1 {
		return nil, fmt.Errorf("%w: only UTF-8 databases are supported", ErrCorrupt)
	}
	db = &DB{data: data, pageSize: ps, usable: ps - reserved, nPages: len(data) / ps, tables: map[string]*Table{}}
	if db.usable < 480 {
		return nil, fmt.Errorf("%w: bad reserved size", ErrCorrupt)
	}
	defer recoverCorrupt(&err)
	if err := db.readSchema(); err != nil {
		return nil, err
	}
	return db, nil
}

func recoverCorrupt(err *error) {
	if r := recover(); r != nil {
		*err = fmt.Errorf("%w: %v", ErrCorrupt, r)
	}
}

// Close releases the mapping.
func (db *DB) Close() error {
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
	return db.scanTree(1, func(rowid int64, rec []byte) error {
		vals, err := decodeAll(rec, 5)
		if err != nil {
			return err
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
	off := int(n-1) * db.pageSize
	return db.data[off : off+db.usable], nil
}

// walkLeaves visits the leaf pages of a table B-tree in rowid order; leaf gets
// the page, the offset of its header (100 on page 1) and its cell count.
func (db *DB) walkLeaves(root uint32, leaf func(p []byte, hdr, ncell int, pg uint32) error) error {
	var walk func(pg uint32, depth int) error
	walk = func(pg uint32, depth int) error {
		if depth > 40 {
			return fmt.Errorf("%w: B-tree too deep (a page cycle?)", ErrCorrupt)
		}
		p, err := db.page(pg)
		if err != nil {
			return err
		}
		hdr := 0
		if pg == 1 {
			hdr = 100
		}
		if hdr+12 > len(p) {
			return fmt.Errorf("%w: short page %d", ErrCorrupt, pg)
		}
		ncell := int(binary.BigEndian.Uint16(p[hdr+3:]))
		switch p[hdr] {
		case 0x0D: // table leaf
			if hdr+8+2*ncell > len(p) {
				return fmt.Errorf("%w: cell pointers overrun page %d", ErrCorrupt, pg)
			}
			return leaf(p, hdr, ncell, pg)
		case 0x05: // table interior
			ptrs := hdr + 12
			if ptrs+2*ncell > len(p) {
				return fmt.Errorf("%w: cell pointers overrun page %d", ErrCorrupt, pg)
			}
			for i := 0; i < ncell; i++ {
				off := int(binary.BigEndian.Uint16(p[ptrs+2*i:]))
				if off+4 > len(p) {
					return fmt.Errorf("%w: cell offset past page %d", ErrCorrupt, pg)
				}
				if err := walk(binary.BigEndian.Uint32(p[off:]), depth+1); err != nil {
					return err
				}
			}
			return walk(binary.BigEndian.Uint32(p[hdr+8:]), depth+1)
		}
		return fmt.Errorf("%w: page %d is not a table B-tree page (type %d)", ErrCorrupt, pg, p[hdr])
	}
	return walk(root, 0)
}

// scanTree walks a table B-tree in rowid order, calling fn with each record.
// The record slice aliases the mapping or a scratch buffer: copy to keep.
func (db *DB) scanTree(root uint32, fn func(rowid int64, rec []byte) error) error {
	var scratch []byte
	return db.walkLeaves(root, func(p []byte, hdr, ncell int, pg uint32) error {
		ptrs := hdr + 8
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
			rec, sc, err := db.payload(p, off+n1+n2, int(size), scratch)
			if err != nil {
				return err
			}
			scratch = sc
			if err := fn(int64(rowid), rec); err != nil {
				return err
			}
		}
		return nil
	})
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
	buf := append(scratch[:0], p[start:start+local]...)
	next := binary.BigEndian.Uint32(p[start+local:])
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
		next = binary.BigEndian.Uint32(op)
		if len(buf) > size {
			break
		}
	}
	return buf, buf, nil
}

// varint decodes a SQLite varint; n is 0 if b is too short.
func varint(b []byte) (uint64, int) {
	var v uint64
	for i := 0; i < 8; i++ {
		if i >= len(b) {
			return 0, 0
		}
		v = v<<7 | uint64(b[i]&0x7f)
		if b[i] < 0x80 {
			return v, i + 1
		}
	}
	if len(b) < 9 {
		return 0, 0
	}
	return v<<8 | uint64(b[8]), 9
}

func fieldSize(st uint64) int {
	switch {
	case st <= 4:
		return [...]int{0, 1, 2, 3, 4}[st]
	case st == 5:
		return 6
	case st == 6 || st == 7:
		return 8
	case st == 8 || st == 9:
		return 0
	case st >= 12:
		return int((st - 12) / 2)
	}
	return -1
}

func decodeField(st uint64, b []byte) Value {
	switch {
	case st == 0:
		return Value{}
	case st >= 1 && st <= 6:
		n := fieldSize(st)
		v := int64(int8(b[0]))
		for i := 1; i < n; i++ {
			v = v<<8 | int64(b[i])
		}
		return Value{Type: Integer, I: v}
	case st == 7:
		return Value{Type: Float, F: math.Float64frombits(binary.BigEndian.Uint64(b))}
	case st == 8:
		return Value{Type: Integer, I: 0}
	case st == 9:
		return Value{Type: Integer, I: 1}
	case st >= 12 && st%2 == 0:
		return Value{Type: Blob, B: b}
	case st >= 13:
		return Value{Type: Text, B: b}
	}
	return Value{}
}

// decodeAll decodes the first n fields of a record (missing ones are NULL).
func decodeAll(rec []byte, n int) ([]Value, error) {
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	out := make([]Value, n)
	return out, decodeInto(rec, idx, out)
}

// decodeInto decodes the fields at the given positions into out. Fields past
// the end of the record are NULL.
func decodeInto(rec []byte, idx []int, out []Value) error {
	maxIdx := -1
	for _, c := range idx {
		maxIdx = max(maxIdx, c)
	}
	want := make([]int, maxIdx+1)
	for i := range want {
		want[i] = -1
	}
	for j, c := range idx {
		want[c] = j
	}
	return decodeWant(rec, want, out)
}

// decodeWant decodes a record; want[col] is the output slot of column col, or
// -1 when the column is not wanted (len(want) bounds the columns read).
func decodeWant(rec []byte, want []int, out []Value) error {
	hsize, n := varint(rec)
	if n == 0 || int(hsize) > len(rec) || int(hsize) < n {
		return fmt.Errorf("%w: bad record header", ErrCorrupt)
	}
	for i := range out {
		out[i] = Value{}
	}
	hp, body := n, int(hsize)
	for col := 0; col < len(want) && hp < int(hsize); col++ {
		st, k := varint(rec[hp:hsize])
		if k == 0 {
			return fmt.Errorf("%w: bad record header", ErrCorrupt)
		}
		hp += k
		sz := fieldSize(st)
		if sz < 0 || body+sz > len(rec) {
			return fmt.Errorf("%w: record field overruns record", ErrCorrupt)
		}
		if j := want[col]; j >= 0 {
			out[j] = decodeField(st, rec[body:body+sz])
		}
		body += sz
	}
	return nil
}

// Scan reads the named columns of every row of t, in rowid order. For a column
// that is the INTEGER PRIMARY KEY, the rowid is returned. The vals slice is
// reused between calls; Text and Blob bytes alias the file.
func (db *DB) Scan(t *Table, cols []string, fn func(rowid int64, vals []Value) error) (err error) {
	defer recoverCorrupt(&err)
	idx := make([]int, len(cols))
	rowidCol := make([]bool, len(cols))
	for i, c := range cols {
		idx[i] = -1
		for j, tc := range t.Columns {
			if strings.EqualFold(tc.Name, c) {
				idx[i] = j
				rowidCol[i] = tc.RowidKey
				break
			}
		}
		if idx[i] < 0 {
			return fmt.Errorf("table %s has no column %s", t.Name, c)
		}
	}
	vals := make([]Value, len(cols))
	maxIdx := -1
	for _, c := range idx {
		maxIdx = max(maxIdx, c)
	}
	want := make([]int, maxIdx+1)
	for i := range want {
		want[i] = -1
	}
	for j, c := range idx {
		want[c] = j
	}
	return db.scanTree(t.Root, func(rowid int64, rec []byte) error {
		if err := decodeWant(rec, want, vals); err != nil {
			return err
		}
		for i, r := range rowidCol {
			if r {
				vals[i] = Value{Type: Integer, I: rowid}
			}
		}
		return fn(rowid, vals)
	})
}

// Count returns the number of rows of t from the cell counts of its leaf
// pages, without decoding any record.
func (db *DB) Count(t *Table) (n int, err error) {
	defer recoverCorrupt(&err)
	err = db.walkLeaves(t.Root, func(_ []byte, _, ncell int, _ uint32) error {
		n += ncell
		return nil
	})
	return n, err
}
