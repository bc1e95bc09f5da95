package sqlite

import (
	"encoding/binary"
	"fmt"
)

// The census: every page of the file in one place. The walk's checks
// (btree.go) see only the pages a table's tree reaches, and one damage
// leaves them nothing to see: a root page swapped with a page of its own
// tree. The root's place then holds that page's subtree, a well-formed
// B-tree of the table's rows (a single leaf when it was a leaf), and the
// walk reads a fraction of the table without a fault; SQLite's own
// queries do the same, and only PRAGMA integrity_check, which accounts
// for every page of the file, notices. The census does that accounting,
// once per DB and before the first table is read (checkPages), with what
// it can afford: it reads the interior pages of every B-tree of the schema
// (tables, indexes and SQLite's own) and lists their leaves without
// reading them, claims the freelist, the pointer-map pages and the
// pending-byte page, and then reads the first byte of each page left
// unclaimed. Those should be overflow pages, whose first four bytes are
// the next overflow page's number (0 for the last), so in a file of fewer
// than 2^24 pages their first byte is 0; one that starts with a B-tree
// page's type instead is part of a tree no root reaches, and the file is
// damaged. A page claimed twice (two parents, or a parent that is its own
// descendant) is damage as well.
//
// On train x50 (70 518 pages) that is 199 interior pages, the leftmost
// path of each tree and 3 overflow pages (docs/performance.md, "The
// census"). Anything else wrong in a tree (a page out of the file, a
// child of another type, a bad cell) is left to the walk that reads it,
// which names it better.

// checkPages runs the census once and returns its verdict, for every
// scan of a table.
func (db *DB) checkPages() error {
	db.censusOnce.Do(func() { db.censusErr = db.census() })
	return db.censusErr
}

func (db *DB) census() (err error) {
	defer recoverCorrupt(&err)
	p1, err := db.page(1)
	if err != nil {
		return err
	}
	n := db.nPages
	// pages past the database's size in its header are not part of it
	// (the size is valid while the header's version-valid-for number
	// matches its change counter, as SQLite reads it)
	if h := int(binary.BigEndian.Uint32(p1[28:])); db.wal == nil && h > 0 && h < n && binary.BigEndian.Uint32(p1[92:]) == binary.BigEndian.Uint32(p1[24:]) {
		n = h
	}
	if n >= 1<<24 {
		return nil // an overflow page may start with any byte
	}
	c := &censusWalk{db: db, n: n, claimed: make([]uint64, n/64+1)}
	defer c.read.release(db)
	for _, root := range db.roots {
		if err := c.tree(root); err != nil {
			return err
		}
	}
	if err := c.freelist(binary.BigEndian.Uint32(p1[32:])); err != nil {
		return err
	}
	if pb := 1<<30/db.pageSize + 1; pb <= n { // the pending-byte page: never used
		c.mark(uint32(pb))
	}
	if binary.BigEndian.Uint32(p1[52:]) != 0 { // auto-vacuum: pointer-map pages from page 2 on
		for pg := 2; pg <= n; pg += db.usable/5 + 1 {
			c.mark(uint32(pg))
		}
	}
	for pg := 2; pg <= n; pg++ {
		if c.claimed[pg/64]&(1<<(pg%64)) != 0 {
			continue
		}
		p, err := db.page(uint32(pg))
		if err != nil {
			return nil // a page in neither the file nor its WAL: the walk that needs it says so
		}
		c.read.add(db, uint32(pg))
		switch p[0] {
		case 0x02, 0x05, 0x0A, 0x0D:
			return fmt.Errorf("%w: page %d is a B-tree page that no table reaches: pages swapped or duplicated (rows would be missing)", ErrCorrupt, pg)
		}
	}
	return nil
}

// censusWalk is the census's state: the pages claimed so far (bit n:
// page n) and the pages read, released as it goes (readPages).
type censusWalk struct {
	db      *DB
	n       int
	claimed []uint64
	read    readPages
}

// mark claims page pg without checking that it was free.
func (c *censusWalk) mark(pg uint32) {
	if int(pg) <= c.n {
		c.claimed[pg/64] |= 1 << (pg % 64)
	}
}

// claim claims page pg; a page claimed before is damage. A page out of
// the file is left to the walk that reads it.
func (c *censusWalk) claim(pg uint32) error {
	if pg < 1 || int(pg) > c.n {
		return nil
	}
	if c.claimed[pg/64]&(1<<(pg%64)) != 0 {
		return fmt.Errorf("%w: page %d is in two places of the file's B-trees: pages swapped or duplicated", ErrCorrupt, pg)
	}
	c.claimed[pg/64] |= 1 << (pg % 64)
	return nil
}

// interior returns B-tree page pg, its header's offset and cell count when
// it is an interior page (of a table or an index) whose cell pointers lie
// within it; ok is false otherwise.
func (c *censusWalk) interior(pg uint32) (p []byte, hdr, ncell int, ok bool) {
	if pg < 1 || int(pg) > c.n {
		return nil, 0, 0, false
	}
	p, err := c.db.page(pg)
	if err != nil {
		return nil, 0, 0, false
	}
	c.read.add(c.db, pg)
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
func (c *censusWalk) tree(root uint32) error {
	depth := 0 // of the leftmost leaf
	for pg := root; depth <= maxDepth; depth++ {
		p, hdr, ncell, ok := c.interior(pg)
		if !ok {
			break
		}
		pg = censusChild(p, hdr, ncell, 0)
	}
	return c.walk(root, 0, depth)
}

func (c *censusWalk) walk(pg uint32, depth, leafDepth int) error {
	if err := c.claim(pg); err != nil {
		return err
	}
	if depth >= leafDepth {
		return nil
	}
	p, hdr, ncell, ok := c.interior(pg)
	if !ok {
		return nil // a leaf above the leaves' depth, or no B-tree page: the walk reports it
	}
	for i := 0; i <= ncell; i++ {
		if err := c.walk(censusChild(p, hdr, ncell, i), depth+1, leafDepth); err != nil {
			return err
		}
	}
	return nil
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
func (c *censusWalk) freelist(trunk uint32) error {
	for steps := 0; trunk != 0 && steps <= c.n; steps++ {
		if err := c.claim(trunk); err != nil {
			return err
		}
		p, err := c.db.page(trunk)
		if err != nil {
			return nil
		}
		c.read.add(c.db, trunk)
		k := int(binary.BigEndian.Uint32(p[4:]))
		if k > len(p)/4-2 {
			return nil // not a trunk page: SQLite would call it corrupt, the tables may still read
		}
		for i := range k {
			if err := c.claim(binary.BigEndian.Uint32(p[8+4*i:])); err != nil {
				return err
			}
		}
		trunk = binary.BigEndian.Uint32(p)
	}
	return nil
}
