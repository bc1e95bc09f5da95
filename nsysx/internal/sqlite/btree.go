package sqlite

import (
	"encoding/binary"
	"fmt"
	"math"
	"strings"
)

// The invariants of a table B-tree that a walk checks on the way, from the
// bytes it reads anyway (no extra page): every page is a table page and is
// reached once; all leaves lie at one depth; the keys of an interior page
// increase and lie within the range its parent gives it; child i holds the
// rowids in (key[i-1], key[i]], the right-most child those above the last
// key; a leaf's rowids increase within its range (scanTree). A file whose
// pages were swapped or duplicated breaks one of them, and the error names
// the page, instead of the walk reading another table's rows. A leaf of
// another table in a table's place keeps the key order when it is the
// root, so the first record of each leaf is also checked against the
// table's columns (shape): no more fields than columns, NULL in the
// INTEGER PRIMARY KEY (SQLite keeps that value as the rowid), no NULL in
// a NOT NULL column, and no number in a column of TEXT affinity (SQLite
// stores numbers given to one as text). A root swapped with a page of its
// own tree breaks none of these: the census (census.go) finds it.

// maxDepth bounds the B-tree depth.
const maxDepth = 40

// walkLeaves visits the leaf pages of a table B-tree in rowid order; leaf gets
// the page, the offset of its header (100 on page 1), its cell count, and
// the range [lo, hi] its rowids must lie in.
func (db *DB) walkLeaves(root uint32, leaf func(p []byte, hdr, ncell int, pg uint32, lo, hi int64) error) error {
	return db.walkLeavesThen(root, leaf, nil)
}

// walkLeavesThen is walkLeaves that also calls interiorDone (when not nil)
// with each interior page once its children have been walked.
func (db *DB) walkLeavesThen(root uint32, leaf func(p []byte, hdr, ncell int, pg uint32, lo, hi int64) error, interiorDone func(pg uint32)) error {
	w := &walker{db: db, leaf: leaf, interiorDone: interiorDone, seen: make([]uint64, db.nPages/64+1), leafDepth: -1}
	return w.walk(root, 0, math.MinInt64, math.MaxInt64)
}

type walker struct {
	db        *DB
	leaf      func(p []byte, hdr, ncell int, pg uint32, lo, hi int64) error
	seen      []uint64 // bit n: page n was reached
	leafDepth int      // depth of the first leaf, -1 before it
	// collect, when not nil, gets the pages at leafDepth (set beforehand)
	// without their being read: the scan that reads them checks they are
	// leaves (leafParts).
	collect *leafChunks
	// interiorDone, when not nil, gets each interior page after its
	// children (a releasing scan releases it then: stream.interiorDone).
	interiorDone func(pg uint32)
}

func (w *walker) walk(pg uint32, depth int, lo, hi int64) error {
	if depth > maxDepth {
		return fmt.Errorf("%w: B-tree deeper than %d at page %d", ErrCorrupt, maxDepth, pg)
	}
	if err := w.markSeen(pg); err != nil {
		return err
	}
	if w.collect != nil && depth == w.leafDepth {
		w.collect.add(leafRef{pg, lo, hi})
		return nil
	}
	p, hdr, ncell, isLeaf, err := w.db.btreePage(pg)
	if err != nil {
		return err
	}
	if isLeaf {
		if w.leafDepth < 0 {
			w.leafDepth = depth
		} else if depth != w.leafDepth {
			return fmt.Errorf("%w: leaf page %d at depth %d, other leaves at %d", ErrCorrupt, pg, depth, w.leafDepth)
		}
		return w.leaf(p, hdr, ncell, pg, lo, hi)
	}
	// children at the leaf depth of a listing walk (leafParts) are listed
	// here, not by a call each: 56 000 calls for train x50's NVTX table, on
	// the goroutine every range waits for
	list := w.collect != nil && depth+1 == w.leafDepth
	right := binary.BigEndian.Uint32(p[hdr+8:]) // the right-most child
	for i := 0; i <= ncell; i++ {
		c, chi := right, hi
		if i < ncell { // cell i: the child, then its key (the largest rowid under it)
			off := int(binary.BigEndian.Uint16(p[hdr+12+2*i:]))
			if off+5 > len(p) {
				return fmt.Errorf("%w: cell offset past page %d", ErrCorrupt, pg)
			}
			k, n := varint(p[off+4:])
			if n == 0 {
				return fmt.Errorf("%w: bad cell in page %d", ErrCorrupt, pg)
			}
			if c, chi = binary.BigEndian.Uint32(p[off:]), int64(k); chi < lo || chi > hi {
				return keyOrderErr(pg, chi, lo, hi)
			}
		}
		if list {
			if err := w.markSeen(c); err != nil {
				return err
			}
			w.collect.add(leafRef{c, lo, chi})
		} else if err := w.walk(c, depth+1, lo, chi); err != nil {
			return err
		}
		if i < ncell {
			if chi == math.MaxInt64 {
				return keyOrderErr(pg, chi, lo, hi-1)
			}
			lo = chi + 1
		}
	}
	if w.interiorDone != nil {
		w.interiorDone(pg)
	}
	return nil
}

// markSeen records that the walk reached page pg, an error when it had
// already (a page out of the file is left to the read that follows).
func (w *walker) markSeen(pg uint32) error {
	if int(pg) <= w.db.nPages && pg > 0 {
		if w.seen[pg/64]&(1<<(pg%64)) != 0 {
			return fmt.Errorf("%w: page %d reached twice in one B-tree (pages swapped or duplicated)", ErrCorrupt, pg)
		}
		w.seen[pg/64] |= 1 << (pg % 64)
	}
	return nil
}

func keyOrderErr(pg uint32, key, lo, hi int64) error {
	return fmt.Errorf("%w: page %d: rowid %d out of order (its place in the B-tree holds %d..%d): pages swapped or duplicated?", ErrCorrupt, pg, key, lo, hi)
}

// shape is what each record of a table holds, for the first record of
// each leaf page.
type shape struct {
	t       *Table
	text    []bool // TEXT affinity (SQLite's rules): never INTEGER or REAL
	notNull []bool // declared NOT NULL: never NULL
	rowid   int    // the INTEGER PRIMARY KEY, stored as NULL; -1 when none
	minimum int    // fields a record holds at least: up to the last NOT NULL column without DEFAULT
}

func (t *Table) shape() *shape {
	sh := &shape{t: t, text: make([]bool, len(t.Columns)), notNull: make([]bool, len(t.Columns)), rowid: -1}
	for i, c := range t.Columns {
		sh.notNull[i] = c.NotNull && !c.RowidKey
		d := c.Decl
		sh.text[i] = !strings.Contains(d, "INT") && (strings.Contains(d, "CHAR") || strings.Contains(d, "CLOB") || strings.Contains(d, "TEXT"))
		if c.RowidKey {
			sh.rowid = i
		}
		if sh.notNull[i] && !c.Default {
			sh.minimum = i + 1 // a record older than an ADD COLUMN has a DEFAULT for what it lacks
		}
	}
	return sh
}

// check looks at the serial types of rec (a malformed header is left to
// the decoder).
func (sh *shape) check(rec []byte, pg uint32) error {
	hs, n := varint(rec)
	if n == 0 || hs > uint64(len(rec)) {
		return nil
	}
	i := 0
	for p := n; p < int(hs); i++ {
		st, k := varint(rec[p:hs])
		if k == 0 {
			return nil
		}
		p += k
		var what string
		switch {
		case i >= len(sh.text):
			what = fmt.Sprintf("a record of more fields than the %d columns", len(sh.text))
		case i == sh.rowid && st != 0:
			what = "a value stored for the INTEGER PRIMARY KEY " + sh.t.Columns[i].Name
		case sh.text[i] && st >= 1 && st <= 9:
			what = "a number in the TEXT column " + sh.t.Columns[i].Name
		case sh.notNull[i] && st == 0:
			what = "a NULL in the NOT NULL column " + sh.t.Columns[i].Name
		default:
			continue
		}
		return shapeErr(pg, what, sh.t)
	}
	if i < sh.minimum {
		return shapeErr(pg, fmt.Sprintf("a record of %d fields, without the NOT NULL column %s", i, sh.t.Columns[sh.minimum-1].Name), sh.t)
	}
	return nil
}

// fits reports whether rec, a record or its first bytes, could be a
// record of the table from its header alone: a serial type for each
// column, and check finds nothing wrong.
func (sh *shape) fits(rec []byte) bool {
	hs, n := varint(rec)
	if n == 0 || hs > uint64(len(rec)) || hs < uint64(n) {
		return false
	}
	fields := 0
	for p := n; p < int(hs); fields++ {
		_, k := varint(rec[p:hs])
		if k == 0 {
			return false
		}
		p += k
	}
	return fields == len(sh.text) && sh.check(rec, 0) == nil
}

func shapeErr(pg uint32, what string, t *Table) error {
	return fmt.Errorf("%w: page %d: %s of table %s (a page of another table?)", ErrCorrupt, pg, what, t.Name)
}
