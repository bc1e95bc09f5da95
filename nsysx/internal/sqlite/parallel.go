package sqlite

import (
	"fmt"
	"math"
	"sync"
)

// Parallel scans: the leaves of a table B-tree cut into contiguous ranges
// decoded at once, one goroutine each. The interior pages are walked first,
// with the invariants of btree.go; the leaves are listed without being read
// (their depth taken from the leftmost path), so that the scans, releasing
// pages behind them, are the only readers of the leaf pages. Each range's
// scan checks that its pages are leaves, their rowids in the ranges their
// parents give them, and the first record of each against the table.

// leafRef is a page at the leaf depth and the range its rowids must lie in.
type leafRef struct {
	pg     uint32
	lo, hi int64
}

// leafChunks collects a walk's leaves in blocks of leafChunk: a big
// table's 56 000 leaves appended to one slice would allocate four times
// their size in the copies of its growth (7.5 MB on train x50's NVTX
// table: fresh pages to fault in, and enough to start the collector).
type leafChunks struct {
	full [][]leafRef
	cur  []leafRef
	n    int
}

const leafChunk = 4096

func (c *leafChunks) add(l leafRef) {
	if len(c.cur) == cap(c.cur) {
		if c.cur != nil {
			c.full = append(c.full, c.cur)
		}
		c.cur = make([]leafRef, 0, leafChunk)
	}
	c.cur = append(c.cur, l)
	c.n++
}

// span returns the leaves a to b (in walk order) as pieces of the blocks
// they were collected in: joining the blocks into one slice first copied
// 1.3 MB for train x50's NVTX table into fresh pages (page faults, on
// the one goroutine every range waits for).
func (c *leafChunks) span(a, b int) leafRange {
	var r leafRange
	for a < b {
		blk, off := c.cur, a%leafChunk
		if k := a / leafChunk; k < len(c.full) {
			blk = c.full[k]
		}
		end := min(len(blk), off+b-a)
		if end <= off { // b past the leaves collected: not for the callers here
			break
		}
		r = append(r, blk[off:end])
		a += end - off
	}
	return r
}

// leafRange is a run of a table's leaves in key order, in pieces.
type leafRange [][]leafRef

// MinPartLeaves is the fewest leaf pages a part of ScanFieldsParts gets
// (a variable for the tests).
var MinPartLeaves = 64

// leafParts lists the leaves of the tree at root and cuts them into up to
// parts ranges of at least MinPartLeaves leaves. The interior pages it
// reads are released from the resident set as it goes and at its end
// (readPages).
func (db *DB) leafParts(root uint32, parts int) ([]leafRange, error) {
	depth, _, err := db.leftmostLeaf(root)
	if err != nil {
		return nil, err
	}
	var chunks leafChunks
	var interior readPages // released during and after the walk, as in EstimateRows
	w := &walker{db: db, seen: make([]uint64, db.nPages/64+1), leafDepth: depth, collect: &chunks,
		interiorDone: func(pg uint32) { interior.add(db, pg) }}
	err = w.walk(root, 0, math.MinInt64, math.MaxInt64)
	interior.release(db)
	if err != nil {
		return nil, err
	}
	total := chunks.n
	n := min(parts, max(1, total/max(1, MinPartLeaves)))
	out := make([]leafRange, n)
	for i := range out {
		out[i] = chunks.span(total*i/n, total*(i+1)/n)
	}
	return out, nil
}

// leftmostLeaf returns the depth of the leftmost leaf of the tree at root
// and its cell count.
func (db *DB) leftmostLeaf(root uint32) (depth, ncell int, err error) {
	_, _, ncell, depth, err = db.edgeLeaf(root, false)
	return depth, ncell, err
}

// edgeLeaf follows the first child pointers (last: the right-most ones)
// from root down to a leaf: its page, header offset, cell count and depth.
func (db *DB) edgeLeaf(root uint32, last bool) (p []byte, hdr, ncell, depth int, err error) {
	pg := root
	for ; ; depth++ {
		p, hdr, n, leaf, err := db.btreePage(pg)
		if err != nil {
			return nil, 0, 0, 0, err
		}
		if depth > maxDepth {
			return nil, 0, 0, 0, fmt.Errorf("%w: B-tree deeper than %d at page %d", ErrCorrupt, maxDepth, pg)
		}
		if leaf {
			return p, hdr, n, depth, nil
		}
		i := 0
		if last {
			i = n // the right-most pointer
		}
		if pg, err = child(p, hdr, n, i); err != nil {
			return nil, 0, 0, 0, err
		}
	}
}

// ScanFieldsParts is ScanFields over up to parts ranges of t's rows at
// once (with opt's Gate, not its Rows): it calls newFn(i) for each range
// i, in order, before any range is scanned, then the function it returned
// with each row of range i, on a goroutine of its own; every row of range
// i precedes, in rowid order, those of range i+1. It returns the number of
// ranges; on error, the first range's that failed, in range order.
func (db *DB) ScanFieldsParts(t *Table, cols []string, opt ScanOptions, parts int, newFn func(part int) func(rowid int64, f *Fields) error) (n int, err error) {
	defer recoverCorrupt(&err)
	if len(cols) > MaxFields {
		return 0, fmt.Errorf("ScanFields: %d columns, at most %d", len(cols), MaxFields)
	}
	want, rowidCols, err := t.positions(cols, opt.AbsentNull)
	if err != nil {
		return 0, err
	}
	if opt.Context != nil {
		if err := opt.Context.Err(); err != nil {
			return 0, err
		}
	}
	db.startCensus()
	ranges, err := db.leafParts(t.Root, parts)
	if err != nil {
		return 0, err
	}
	g, err := opt.gate(want, cols)
	if err != nil {
		return 0, err
	}
	all := uint32(1)<<len(cols) - 1
	sh := t.shape()
	opt = opt.split(len(ranges))
	errs := make([]error, len(ranges))
	var wg sync.WaitGroup
	fns := make([]func(int64, []byte) error, len(ranges))
	for i := range ranges { // every newFn before any scan: its callers may share state
		fns[i] = gatedFieldsFn(want, rowidCols, all, g, newFn(i))
	}
	for i, r := range ranges {
		fn := fns[i]
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = db.scanLeaves(r, sh, opt, g, fn)
			if opt.PartDone != nil {
				opt.PartDone(i, errs[i])
			}
		}()
	}
	wg.Wait()
	for _, e := range errs {
		if e != nil {
			return len(ranges), e
		}
	}
	return len(ranges), db.checkPages(t)
}

// scanLeaves scans the leaves r, which must be table leaf pages, through
// the gate g when it is a GateFirst gate (nil: none).
func (db *DB) scanLeaves(r leafRange, sh *shape, opt ScanOptions, g *gate, fn func(int64, []byte) error) (err error) {
	defer recoverCorrupt(&err)
	rd := db.leafReader(opt, g)
	if rd != nil {
		opt.Release = false // nothing of the mapping is read
	}
	st := opt.stream(db).withFirst(db, g)
	if st != nil && st.release {
		defer st.flush()
	}
	var scratch []byte
	for _, piece := range r {
		for j, l := range piece {
			var p []byte
			var hdr, ncell int
			var leaf bool
			var err error
			if rd != nil {
				p, hdr, ncell, leaf, err = rd.btreePage(piece, j)
			} else {
				p, hdr, ncell, leaf, err = db.btreePage(l.pg)
			}
			if err != nil {
				return err
			}
			if !leaf {
				return fmt.Errorf("%w: interior page %d at the depth of the leaves", ErrCorrupt, l.pg)
			}
			if err := db.scanLeaf(p, hdr, ncell, l.pg, l.lo, l.hi, sh, st, &scratch, fn); err != nil {
				return err
			}
		}
	}
	return nil
}
