package sqlite

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"strings"
)

// The census: every page of the file in one place. The walk's checks
// (btree.go) see only the pages a table's tree reaches, and one damage
// leaves them nothing to see: a root page swapped with a page of its own
// tree. The root's place then holds that page's subtree, a well-formed
// B-tree of the table's rows (a single leaf when it was a leaf), and the
// walk reads a fraction of the table without a fault; SQLite's own
// queries do the same, and only PRAGMA integrity_check, which accounts
// for every page of the file, notices. The census does that accounting,
// once per DB (on a goroutine of its own, while the first scan reads its
// table), with what it can afford: it reads the interior pages of every
// B-tree of the schema (tables, indexes and SQLite's own) and lists
// their leaves without reading them, claims the freelist, the pointer-map
// pages and the pending-byte page, and then reads the first byte of each
// page left unclaimed. Those should be overflow pages, whose first four
// bytes are the next overflow page's number (0 for the last), so in a
// file of fewer than 2^24 pages their first byte is 0; one that starts
// with a B-tree page's type instead is part of a tree no root reaches.
//
// Such a page is charged to the tables whose rows it holds: the first
// record of an unreached leaf has as many fields as the table has
// columns and passes its shape check (btree.go), as the records of the
// damaged table's lost leaves do (a root swapped with its own page leaves
// at least one such leaf, since an interior page has two children or
// more), and the unreached interior pages are theirs. A read of one of
// those tables fails, naming the page; the other tables of the file read
// as before, so that a report that needs only them still runs. An
// unreached leaf that no table's rows fit, an index's page, or interior
// pages without a charged leaf are charged to every table: the file is
// damaged where the census cannot tell. The census runs after a
// table's own walk has succeeded, whose errors name the damage better.
//
// On train x50 (70 518 pages) that is 199 interior pages, the leftmost
// path of each tree and 3 overflow pages (docs/performance.md, "The
// census and the record-size check").

// census is what the census found: the unreached leaf page whose rows fit
// each table (by lower-case name), and an unreached B-tree page that fits
// none (0: none).
type census struct {
	lost  map[string]uint32
	stray uint32
}

// startCensus starts the census, once per DB, on a goroutine of its own:
// a scan starts it and waits for it when it has read its table
// (checkPages), so that the census overlaps the first scan.
func (db *DB) startCensus() {
	db.censusOnce.Do(func() {
		db.censusDone = make(chan struct{})
		go func() {
			defer close(db.censusDone)
			db.census, db.censusErr = db.takeCensus()
		}()
	})
}

// waitCensus waits for a census under way (Close: the census reads the
// mapping), and keeps one from starting.
func (db *DB) waitCensus() {
	db.censusOnce.Do(func() {
		db.censusDone = make(chan struct{})
		close(db.censusDone)
	})
	<-db.censusDone
}

// checkPages is the census's verdict on table t.
func (db *DB) checkPages(t *Table) error {
	db.startCensus()
	<-db.censusDone
	switch {
	case db.censusErr != nil:
		return db.censusErr
	case db.census.lost[strings.ToLower(t.Name)] != 0:
		return fmt.Errorf("%w: table %s: page %d holds rows of it that its B-tree does not reach: pages swapped or duplicated, the table would read short", ErrCorrupt, t.Name, db.census.lost[strings.ToLower(t.Name)])
	case db.census.stray != 0:
		return fmt.Errorf("%w: page %d is a B-tree page that no table reaches: pages swapped or duplicated", ErrCorrupt, db.census.stray)
	}
	return nil
}

func (db *DB) takeCensus() (res census, err error) {
	defer recoverCorrupt(&err)
	p1, err := db.page(1)
	if err != nil {
		return res, err
	}
	n := db.nPages
	// pages past the database's size in its header are not part of it
	// (the size is valid while the header's version-valid-for number
	// matches its change counter, as SQLite reads it)
	if h := int(binary.BigEndian.Uint32(p1[28:])); db.wal == nil && h > 0 && h < n && binary.BigEndian.Uint32(p1[92:]) == binary.BigEndian.Uint32(p1[24:]) {
		n = h
	}
	if n >= 1<<24 {
		return res, nil // an overflow page may start with any byte
	}
	c := &censusWalk{db: db, n: n, claimed: make([]uint64, n/64+1)}
	for _, root := range db.roots {
		c.tree(root)
	}
	c.freelist(binary.BigEndian.Uint32(p1[32:]))
	if pb := 1<<30/db.pageSize + 1; pb <= n { // the pending-byte page: never used
		c.mark(uint32(pb))
	}
	if binary.BigEndian.Uint32(p1[52:]) != 0 { // auto-vacuum: pointer-map pages from page 2 on
		for pg := 2; pg <= n; pg += db.usable/5 + 1 {
			c.mark(uint32(pg))
		}
	}
	var shapes []*shape // made for the first unreached leaf
	var interior uint32 // the first unreached table interior page
	for pg := 2; pg <= n; pg++ {
		if c.claimed[pg/64]&(1<<(pg%64)) != 0 {
			continue
		}
		p, ok := c.page(uint32(pg), 0, 1)
		if !ok {
			break // a page in neither the file nor its WAL: the walk that needs it says so
		}
		switch p[0] {
		case 0x0D:
			if p, ok = c.page(uint32(pg), 0, db.usable); !ok {
				break
			}
			if shapes == nil {
				for _, t := range db.Tables() {
					shapes = append(shapes, t.shape())
				}
			}
			if chargeLeaf(p, uint32(pg), shapes, &res) {
				continue
			}
		case 0x05:
			interior = cmp.Or(interior, uint32(pg))
			continue
		case 0x02, 0x0A:
		default:
			continue
		}
		res.stray = cmp.Or(res.stray, uint32(pg))
	}
	if len(res.lost) == 0 { // an interior page of lost leaves is theirs
		res.stray = cmp.Or(res.stray, interior)
	}
	return res, nil
}

// chargeLeaf charges the unreached table leaf pg to the tables its first
// record fits (shape.fits); false when it fits none.
func chargeLeaf(p []byte, pg uint32, shapes []*shape, res *census) (charged bool) {
	ncell := int(binary.BigEndian.Uint16(p[3:]))
	if ncell == 0 || 10 > len(p) {
		return false
	}
	off := int(binary.BigEndian.Uint16(p[8:]))
	if off >= len(p) {
		return false
	}
	size, n1 := varint(p[off:])
	_, n2 := varint(p[off+n1:])
	if n1 == 0 || n2 == 0 || off+n1+n2 >= len(p) {
		return false
	}
	// the record's bytes on this page: its header (all fits reads) comes
	// first, and an overflow chain is not followed
	rec := p[off+n1+n2:]
	if size < uint64(len(rec)) {
		rec = rec[:size]
	}
	for _, sh := range shapes {
		if sh.fits(rec) {
			if res.lost == nil {
				res.lost = map[string]uint32{}
			}
			if k := strings.ToLower(sh.t.Name); res.lost[k] == 0 {
				res.lost[k] = pg
			}
			charged = true
		}
	}
	return charged
}

// censusWalk is the census's state: the pages claimed so far (bit n:
// page n), and a buffer for a page at each depth of a walk.
type censusWalk struct {
	db      *DB
	n       int
	claimed []uint64
	bufs    [][]byte
}

// page returns the first n bytes of page pg (n <= usable size). A mapped
// file's page is read with pread into the buffer of the walk's depth, not
// through the mapping: a fault maps the whole block around a page
// (faultAround), the census reads a page here and there all over the
// file, and those faults were most of its time (docs/performance.md, "The
// census and the record-size check"); nor does it leave the file resident.
func (c *censusWalk) page(pg uint32, depth, n int) ([]byte, bool) {
	db := c.db
	if pg < 1 || int(pg) > c.n {
		return nil, false
	}
	if db.file == nil || db.wal != nil && db.wal[pg] != nil {
		p, err := db.page(pg)
		return p, err == nil
	}
	for len(c.bufs) <= depth {
		c.bufs = append(c.bufs, make([]byte, db.pageSize))
	}
	b := c.bufs[depth][:n]
	if k, _ := db.file.ReadAt(b, int64(pg-1)*int64(db.pageSize)); k < n {
		return nil, false
	}
	return b, true
}

// mark claims page pg without checking that it was free.
func (c *censusWalk) mark(pg uint32) {
	if int(pg) <= c.n {
		c.claimed[pg/64] |= 1 << (pg % 64)
	}
}

// claim claims page pg and reports whether it was free; a page out of
// the file is not. A page claimed twice (two parents, or a parent that is
// its own descendant) is damage that the walks of the trees report.
func (c *censusWalk) claim(pg uint32) bool {
	if pg < 1 || int(pg) > c.n || c.claimed[pg/64]&(1<<(pg%64)) != 0 {
		return false
	}
	c.claimed[pg/64] |= 1 << (pg % 64)
	return true
}

// interior returns B-tree page pg, its header's offset and cell count when
// it is an interior page (of a table or an index) whose cell pointers lie
// within it; ok is false otherwise.
func (c *censusWalk) interior(pg uint32, depth int) (p []byte, hdr, ncell int, ok bool) {
	if p, ok = c.page(pg, depth, c.db.usable); !ok {
		return nil, 0, 0, false
	}
	if pg == 1 {
		hdr = 100
	}
	if hdr+12 > len(p) || p[hdr] != 0x05 && p[hdr] != 0x02 {
		return nil, 0, 0, false
	}
	ncell = int(binary.BigEndian.Uint16(p[hdr+3:]))
	return p, hdr, ncell, hdr+12+2*ncell <= len(p)
}

// tree claims the pages of the B-tree at root: its interior pages, read,
// and the pages at the depth of its leftmost leaf, listed by their parents
// and not read.
func (c *censusWalk) tree(root uint32) {
	depth := 0 // of the leftmost leaf
	for pg := root; depth <= maxDepth; depth++ {
		p, hdr, ncell, ok := c.interior(pg, 0)
		if !ok {
			break
		}
		pg = censusChild(p, hdr, ncell, 0)
	}
	c.walk(root, 0, depth)
}

func (c *censusWalk) walk(pg uint32, depth, leafDepth int) {
	if !c.claim(pg) || depth >= leafDepth {
		return
	}
	p, hdr, ncell, ok := c.interior(pg, depth)
	if !ok {
		return // a leaf above the leaves' depth, or no B-tree page: the walk reports it
	}
	for i := 0; i <= ncell; i++ {
		c.walk(censusChild(p, hdr, ncell, i), depth+1, leafDepth)
	}
}

// censusChild is child i of an interior page (i == ncell: the right-most
// pointer), 0 for a cell outside the page.
func censusChild(p []byte, hdr, ncell, i int) uint32 {
	c, err := child(p, hdr, ncell, i)
	if err != nil {
		return 0
	}
	return c
}

// freelist claims the trunk pages of the freelist from trunk on and the
// free pages they list.
func (c *censusWalk) freelist(trunk uint32) {
	for trunk != 0 && c.claim(trunk) {
		p, ok := c.page(trunk, 0, c.db.usable)
		if !ok {
			return
		}
		k := int(binary.BigEndian.Uint32(p[4:]))
		if k > len(p)/4-2 {
			return // not a trunk page: SQLite would call the file corrupt, its tables may still read
		}
		for i := range k {
			c.claim(binary.BigEndian.Uint32(p[8+4*i:]))
		}
		trunk = binary.BigEndian.Uint32(p)
	}
}
