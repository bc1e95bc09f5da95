package sqlite

import (
	"context"
	"encoding/binary"
	"fmt"
	"slices"

	"github.com/nsysx/nsysx/nsysx/internal/fields"
)

// Streaming: one pass over a big table (millions of rows) that wants a few
// integer columns and a text or two, as fast as the records can be decoded,
// without keeping the table resident and stopping when the caller's context
// is cancelled.

// MaxFields is the most columns a Fields holds.
const MaxFields = fields.MaxFields

// Fields is one decoded row (package fields).
type Fields = fields.Fields

// ScanFields reads the named columns (at most MaxFields) of every row of t,
// in rowid order, into a Fields passed to fn: the hot loop of NVTX_EVENTS
// and tables like it, cheaper per row than Scan's Values. For a column that
// is the INTEGER PRIMARY KEY, the rowid is returned.
func (db *DB) ScanFields(t *Table, cols []string, opt ScanOptions, fn func(rowid int64, f *Fields) error) (err error) {
	defer recoverCorrupt(&err)
	if len(cols) > MaxFields {
		return fmt.Errorf("ScanFields: %d columns, at most %d", len(cols), MaxFields)
	}
	want, rowidCols, err := t.positions(cols, opt.AbsentNull)
	if err != nil {
		return err
	}
	all := uint32(1)<<len(cols) - 1
	if opt.Context != nil {
		if err := opt.Context.Err(); err != nil {
			return err
		}
	}
	g, err := opt.gate(want, cols)
	if err != nil {
		return err
	}
	db.startCensus()
	st := opt.stream(db).withFirst(db, g)
	if st != nil && st.release {
		defer st.flush()
	}
	dec := gatedFieldsFn(want, rowidCols, all, g, fn)
	if rows := opt.Rows; rows != nil {
		all := dec
		dec = func(rowid int64, rec []byte) error {
			if !rows(rowid) {
				return nil
			}
			return all(rowid, rec)
		}
	}
	if err := db.scanTree(t.Root, t.shape(), st, dec); err != nil {
		return err
	}
	return db.checkPages(t)
}

// gate returns the gate of the options, or nil.
func (o ScanOptions) gate(want []int, cols []string) (*gate, error) {
	if o.Gate == nil {
		return nil, nil
	}
	if o.GateField < 0 || o.GateField >= len(cols) {
		return nil, fmt.Errorf("ScanFields: gate field %d of %d", o.GateField, len(cols))
	}
	for c, k := range want {
		if k == o.GateField {
			g := &gate{col: c, k: k, keep: o.Gate, first: o.GateFirst}
			if g.first {
				g.refusedTable() // now: the ranges of ScanFieldsParts share g
			}
			return g, nil
		}
	}
	return nil, nil // a column the table lacks (AbsentNull): NULL, every row kept
}

// gatedFieldsFn decodes each record into one Fields and passes it to fn,
// through the gate g (nil: none). A GateFirst gate's refused records do not
// come here: the leaf loop skips them (stream.first).
func gatedFieldsFn(want, rowidCols []int, all uint32, g *gate, fn func(rowid int64, f *Fields) error) func(int64, []byte) error {
	f, rest := new(Fields), new(restFit)
	return func(rowid int64, rec []byte) error {
		f.Null, f.Text, f.Blob, f.Real, f.Gated = all, 0, 0, 0, false
		var err error
		if g == nil {
			err = decodeRecord(rec, want, nil, f, rest)
		} else {
			err = decodeGated(rec, want, g, f, rest)
		}
		if err != nil {
			return err
		}
		for _, k := range rowidCols {
			bit := uint32(1) << k
			f.I[k], f.Null, f.Text, f.Blob, f.Real = rowid, f.Null&^bit, f.Text&^bit, f.Blob&^bit, f.Real&^bit
		}
		return fn(rowid, f)
	}
}

// ScanOptions tune ScanFields.
type ScanOptions struct {
	// Context, when not nil, is checked before the scan and then every
	// 65536 rows or so (after the leaf page that passes the count): the scan
	// stops with its error once it is cancelled.
	Context context.Context
	// Release drops the table's leaf pages from the process's resident set
	// as the scan leaves them behind, every ReleaseEvery bytes of pages, so
	// that one pass over a big table does not leave all of it resident. The
	// pages stay in the OS page cache: a later read of them, by this scan's
	// caller or by any other reader of the DB, concurrent or not, faults the
	// same bytes back in. Only Linux file mappings are released (not a DB
	// read into memory); elsewhere Release does nothing.
	Release bool
	// ReleaseEvery is the bytes of the mapping the leaf pages read may have
	// made resident (each fault maps the 64 KB around the page) between two
	// releases; 0 means 16 MB.
	ReleaseEvery int
	// AbsentNull makes a column the table lacks read as NULL instead of
	// failing the scan.
	AbsentNull bool
	// Gate, when not nil, is asked about field GateField (an index into
	// the columns) of each row as soon as the record's decoding reaches
	// it, when the field is an INTEGER: a row it refuses is passed on with
	// Gated set and without the fields of the table's columns after that
	// one (NULL), which are not decoded, so that the rows a scan wants
	// few of cost little more than their header. The INTEGER PRIMARY KEY
	// cannot be gated (every row is kept).
	Gate      func(v int64) bool
	GateField int
	// GateFirst asks the gate before any field is decoded: the header is
	// walked to the gated column, and a row the gate refuses is skipped
	// (fn does not see it), not passed on with Gated set. The gate is then
	// asked about the values 0 to 4095 once, before the scan, and its
	// answers kept (gate.refusedTable): it must answer the same for a
	// value every time. The leaves of a GateFirst scan of a mapped file
	// are read with pread into a buffer that the next leaves reuse
	// (leafReader, pread.go), so the TEXT and BLOB bytes fn gets are valid only during
	// the call: copy to keep.
	GateFirst bool
	// PartDone, when not nil, is called by ScanFieldsParts on range i's
	// goroutine once the range is read, with its error (nil when it read
	// every row): a range's rows can be handed on in order as they come,
	// each range closing its own stream.
	PartDone func(part int, err error)
	// Pread reads the leaf pages of ScanFieldsParts's ranges with pread,
	// in runs of consecutive pages, into a buffer of each range's own
	// rather than through the file's mapping (pread.go): no page faults and
	// nothing to release (Release is then moot for the leaves). A field's
	// bytes are valid only until the callback returns. It does nothing for
	// a DB that is not a mapped file, or that has a WAL.
	Pread bool
	// Rows, when not nil, is asked about each row's rowid before its
	// record is decoded: a row it refuses is skipped (fn does not see it),
	// so that reading a few rows of a big table costs little more than
	// walking its pages. ScanFieldsParts ignores it.
	Rows func(rowid int64) bool
}

// defaultReleaseEvery is ScanOptions' ReleaseEvery when it is 0.
const defaultReleaseEvery = 16 << 20

// split returns the options of one of n ranges scanned at once: the bytes
// between releases are shared among them, at least two fault-around blocks
// each (the block a range reads and the one before), so that n ranges keep
// about as much of the mapping resident as one scan would, not n times it
// (docs/performance.md, "Ranges read at once share the page-release budget").
func (o ScanOptions) split(n int) ScanOptions {
	every := o.ReleaseEvery
	if every <= 0 {
		every = defaultReleaseEvery
	}
	o.ReleaseEvery = max(every/max(n, 1), 2*faultAround)
	return o
}

// checkEvery is how many rows a scan with a Context reads between two
// checks (a variable for the tests).
var checkEvery = 1 << 16

// stream returns the per-scan state the options need, or nil.
func (o ScanOptions) stream(db *DB) *stream {
	release := o.Release && db.mapped
	if o.Context == nil && !release {
		return nil
	}
	every := o.ReleaseEvery
	if every <= 0 {
		every = defaultReleaseEvery
	}
	return &stream{db: db, ctx: o.Context, release: release, releasePages: max(1, every/db.pageSize)}
}

// withFirst returns s, made if nil, with g as its first gate when g is a
// GateFirst gate.
func (s *stream) withFirst(db *DB, g *gate) *stream {
	if g == nil || !g.first {
		return s
	}
	if s == nil {
		s = &stream{db: db}
	}
	s.first = g
	return s
}

// stream is the state of a scan with ScanOptions: rows since the last
// context check, leaf pages read since the last release, as runs of
// consecutive page numbers, and the pages of the mapping they may have
// made resident; and the gate that the leaf loop asks about each record
// before passing it on (GateFirst), when not nil.
type stream struct {
	first        *gate
	firstKeys    firstKeys // scanLeafFirst's latest header prefixes
	db           *DB
	ctx          context.Context
	rows         int
	release      bool
	releasePages int         // mapped pages between releases
	runs         [][2]uint32 // first and last page of each run
	spans        [][2]int64  // the runs' byte ranges, for releasePages
	keep         [][2]uint32 // scratch of flushBehind
	keepBlk      []int64     // scratch of keptBlocks
	// recent holds the fault-around blocks the runs lie in, each once:
	// pages counts each of them as a whole block
	recent []int64
	// prev is the leaf read last and other the one read before the scan
	// last jumped, by more than a block or backwards, to prev's part of
	// the file; back says that a jump went backwards: the leaves alternate
	// between two parts of the file
	prev, other uint32
	back        bool
	pages       int
	flushes     int // releases so far (for the tests)
}

// leafDone is called after the cells of each leaf page.
func (s *stream) leafDone(pg uint32, ncell int) error {
	if s.ctx != nil {
		if s.rows += ncell; s.rows >= checkEvery {
			s.rows = 0
			if err := s.ctx.Err(); err != nil {
				return err
			}
		}
	}
	if !s.release {
		return nil
	}
	if s.prev != 0 && (pg < s.prev || pg-s.prev > uint32(s.blockPages())) {
		s.other, s.back = s.prev, s.back || pg < s.prev
	}
	s.prev = pg
	s.touch(s.block(pg))
	if k := len(s.runs) - 1; k >= 0 && s.runs[k][1]+1 == pg {
		s.runs[k][1] = pg
	} else {
		s.runs = append(s.runs, [2]uint32{pg, pg})
	}
	if s.pages >= s.releasePages {
		s.flushBehind(pg)
	}
	return nil
}

// interiorDone is called after the children of each interior page: the
// page is released with the next leaves. An interior page lies anywhere in
// the file, often in a block whose leaves were released already, and each
// return to it (between its children) maps its block again; without this
// those blocks stayed resident, some 2 MB per interior page of a big table.
func (s *stream) interiorDone(pg uint32) {
	s.runs = append(s.runs, [2]uint32{pg, pg})
	s.touch(s.block(pg))
	if s.pages >= s.releasePages {
		s.flush()
	}
}

// touch notes that the scan reads a page of fault-around block b: a block
// not read since the last release counts as the whole block, the pages its
// fault may map (release_linux.go); one read again counts nothing more. A
// table whose leaves, in key order, alternate between two parts of the
// file (a leaf split by an update in place lands at the file's end) used to
// count each return to a block as a new block, and so released the blocks
// it was still reading every few leaves.
func (s *stream) touch(b int64) {
	if n := len(s.recent); n > 0 && s.recent[n-1] == b || slices.Contains(s.recent, b) {
		return
	}
	s.recent = append(s.recent, b)
	s.pages += s.blockPages()
}

// blockPages is the pages of a fault-around block.
func (s *stream) blockPages() int { return max(1, faultAround/s.db.pageSize) }

// keptBlocks returns the blocks a release keeps, the scan is reading:
// leaf pg's, and, when the leaves alternate between two parts of the file
// (back) and the budget holds four blocks or more, the block of the last
// leaf read in the other part. A scan that only goes forward keeps one
// block, as much resident as before.
func (s *stream) keptBlocks(pg uint32) []int64 {
	kept := append(s.keepBlk[:0], s.block(pg))
	if s.back && s.other != 0 && s.releasePages/s.blockPages() >= 4 {
		if b := s.block(s.other); b != kept[0] {
			kept = append(kept, b)
		}
	}
	s.keepBlk = kept
	return kept
}

// readPages collects pages a walk read outside a releasing scan
// (EstimateRows, leafParts) and releases them from the resident set: at the
// end of the walk, and during it whenever the fault-around blocks it has
// read since the last release reach walkReleaseBlocks. A big table's
// interior pages lie all over the file, one to a block, and a fault maps
// the whole block: released only at the end, the 624 interior pages of
// train x200's NVTX table mapped 860 MB at once where the page cache held
// the file in 2 MB folios (TestWalkReleasesAsItGoes). A page released while
// the walk still reads it (an ancestor whose block went with the others)
// is just faulted in again, unchanged.
type readPages struct {
	spans  [][2]int64
	blocks int   // distinct blocks added since the last release
	last   int64 // the block of the last page added
}

// walkReleaseBlocks is how many fault-around blocks a walk's pages may
// have mapped before they are released (16 MB at 2 MB a block; a variable
// for the tests).
var walkReleaseBlocks = defaultReleaseEvery / faultAround

// add records page pg of db, first releasing the pages recorded so far
// when they reach walkReleaseBlocks blocks.
func (r *readPages) add(db *DB, pg uint32) {
	ps := int64(db.pageSize)
	off := int64(pg-1) * ps
	if b := off / faultAround; len(r.spans) == 0 || b != r.last {
		if r.blocks >= walkReleaseBlocks {
			r.release(db)
		}
		r.blocks++
		r.last = b
	}
	r.spans = append(r.spans, [2]int64{off, off + ps})
}

// release drops the recorded pages from the resident set of db's mapping
// (releasePages), when db is a file mapping, and forgets them. A pointer
// receiver, so that `defer r.release(db)` releases what was added after
// the defer.
func (r *readPages) release(db *DB) {
	if db.mapped && len(r.spans) > 0 {
		releasePages(db.data, r.spans)
	}
	r.spans, r.blocks = r.spans[:0], 0
}

// block is the fault-around block of page pg (in file offsets).
func (s *stream) block(pg uint32) int64 { return int64(pg-1) * int64(s.db.pageSize) / faultAround }

// flushBehind releases the pages of the runs but those in the blocks the
// scan is reading (keptBlocks), leaf pg's and the other part's: releasing
// them would only have the next leaves fault them in again, and count them
// again, so that with little between releases (ranges read at once, split)
// each block would be mapped twice. Those blocks' runs stay, each block
// counted once.
func (s *stream) flushBehind(pg uint32) {
	ps := int64(s.db.pageSize)
	kept := s.keptBlocks(pg)
	s.spans = s.spans[:0]
	keep := s.keep[:0]
	for _, r := range s.runs {
		a, b := int64(r[0]-1)*ps, int64(r[1])*ps
		for a < b { // cut [a, b) at the kept blocks' edges
			blk := a / faultAround
			end := min(b, (blk+1)*faultAround)
			if slices.Contains(kept, blk) {
				keep = append(keep, [2]uint32{uint32(a/ps) + 1, uint32(end / ps)})
			} else if n := len(s.spans); n > 0 && s.spans[n-1][1] == a {
				s.spans[n-1][1] = end
			} else {
				s.spans = append(s.spans, [2]int64{a, end})
			}
			a = end
		}
	}
	releasePages(s.db.data, s.spans)
	s.runs, s.keep = append(s.runs[:0], keep...), keep
	s.recent, s.pages = s.recent[:0], 0
	for _, r := range keep {
		s.touch(s.block(r[0]))
	}
	s.flushes++
}

// flush releases the pages of the runs.
func (s *stream) flush() {
	ps := int64(s.db.pageSize)
	s.spans = s.spans[:0]
	for _, r := range s.runs {
		s.spans = append(s.spans, [2]int64{int64(r[0]-1) * ps, int64(r[1]) * ps})
	}
	releasePages(s.db.data, s.spans)
	s.runs, s.recent, s.pages = s.runs[:0], s.recent[:0], 0
	s.flushes++
}

// EstimateRows guesses the number of rows of t without reading its leaf
// pages (but the first): the number of leaves times the cells of the first
// one. It is meant to size arrays before a scan that releases its pages, for
// which Count would make the whole table resident first. It returns 0 when
// the tree is damaged. The interior pages it reads are released from the
// resident set (when Release would release them) as it goes and before it
// returns (readPages): a fault maps the whole block around a page
// (faultAround), and a big table's interior pages lie all over the file, so
// reading them would otherwise leave most of the file resident before a
// releasing scan even starts.
func (db *DB) EstimateRows(t *Table) (n int) {
	defer func() {
		if recover() != nil {
			n = 0
		}
	}()
	depth, n, err := db.leftmostLeaf(t.Root)
	if err != nil {
		return 0
	}
	// leaves counts the leaves under the interior page pg at depth d; a
	// tree visits each page once at most, a damaged one may loop
	visits := 0
	var seen readPages // the interior pages read, released as the walk goes and at its end
	defer seen.release(db)
	var leaves func(pg uint32, d int) (int, error)
	leaves = func(pg uint32, d int) (int, error) {
		p, hdr, ncell, leaf, err := db.btreePage(pg)
		seen.add(db, pg)
		if visits++; err == nil && (leaf || visits > db.nPages) {
			err = ErrCorrupt
		}
		if err != nil {
			return 0, err
		}
		if d == depth-1 {
			return ncell + 1, nil
		}
		total := 0
		for i := 0; i <= ncell; i++ {
			c, err := child(p, hdr, ncell, i)
			if err != nil {
				return 0, err
			}
			k, err := leaves(c, d+1)
			if err != nil {
				return 0, err
			}
			total += k
		}
		return total, nil
	}
	if depth == 0 {
		return n
	}
	k, err := leaves(t.Root, 0)
	if err != nil {
		return 0
	}
	// The leaves times the first one's cells overestimates a table whose
	// first leaf is fuller than the rest (5-20 % for an export's big
	// tables); its rowid span is exact for the dense rowids an export
	// writes, and too high where rows were deleted: take the smaller.
	if lo, hi, ok := db.rowidRange(t.Root); ok && hi >= lo && hi-lo < int64(k*n) {
		return int(hi-lo) + 1
	}
	return k * n
}

// rowidRange returns the first and last rowid of the tree at root, read
// from its leftmost and rightmost leaves.
func (db *DB) rowidRange(root uint32) (lo, hi int64, ok bool) {
	if lo, ok = db.edgeRowid(root, false); !ok {
		return 0, 0, false
	}
	hi, ok = db.edgeRowid(root, true)
	return lo, hi, ok
}

// edgeRowid is the first rowid of the tree at root, or the last one when
// last is set.
func (db *DB) edgeRowid(root uint32, last bool) (int64, bool) {
	p, hdr, n, _, err := db.edgeLeaf(root, last)
	if err != nil || n == 0 {
		return 0, false
	}
	i := 0
	if last {
		i = n - 1
	}
	off := int(binary.BigEndian.Uint16(p[hdr+8+2*i:]))
	if off >= len(p) {
		return 0, false
	}
	_, n1 := varint(p[off:])
	r, n2 := varint(p[off+n1:])
	return int64(r), n1 > 0 && n2 > 0
}
