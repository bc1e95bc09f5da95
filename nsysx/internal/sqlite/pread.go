package sqlite

import (
	"fmt"
)

// Leaves read with pread. A scan through the mapping faults its leaf pages
// in and, releasing behind it, drops them again with madvise: on a virtual
// machine each fault costs tens of microseconds, and each release makes
// every core running the process flush its TLB, which with sixteen scans
// at once was most of a recipe's CPU. Read with pread into a buffer of the
// scan's own, a run of consecutive leaves costs one system call and a copy
// out of the page cache (through the kernel's own mapping of memory, no
// fault and no TLB miss per page), and leaves nothing of the file
// resident (docs/performance.md, "NCCL and pace: gated scans read with
// pread" and "Gated scans read their leaves with pread"). The record bytes
// then live in that buffer only until the next run is read, so a scan's
// callers must copy what they keep. Two kinds of scan read so: those that
// ask (ScanOptions.Pread: ScanParts's callers copy anyway) and every
// GateFirst scan, which reads every leaf of a big table once and keeps
// next to nothing.

// leafBufBytes is the most one read brings in (a variable for the tests
// and benchmarks): small enough that the pages are still in the core's
// cache when the loop decodes them (128 KB, from a sweep of 32 KB to 1 MB
// on the NVTX scan of a real capture).
var leafBufBytes = 128 << 10

// readLeavesOn lets GateFirst scans read with pread (off in the
// benchmarks that compare with the mapping).
var readLeavesOn = true

// leafReader reads a range's leaf pages in runs of consecutive page
// numbers into buf.
type leafReader struct {
	db       *DB
	buf      []byte
	first    uint32 // the page at buf[0]
	n        int    // pages in buf
	readRuns int    // reads so far (for the tests)
}

// leafReader returns the reader of a scan with opt through the gate g, or
// nil when the scan reads the mapping: neither Pread nor a GateFirst gate,
// or a DB that is not a mapped file (read into memory, or read on demand)
// or has a WAL (whose pages may be in the WAL instead).
func (db *DB) leafReader(opt ScanOptions, g *gate) *leafReader {
	if db.file == nil || !db.mapped || db.wal != nil || db.at != nil {
		return nil
	}
	if !opt.Pread && (!readLeavesOn || g == nil || !g.first) {
		return nil
	}
	return db.newLeafBuf()
}

// newLeafBuf is a reader with an empty buffer.
func (db *DB) newLeafBuf() *leafReader { return &leafReader{db: db} }

// btreePage is DB.btreePage of leaf piece[j], read with the run of the
// leaves after it whose pages follow it in the file when the buffer does
// not hold it.
func (r *leafReader) btreePage(piece []leafRef, j int) (p []byte, hdr, ncell int, leaf bool, err error) {
	if p, err = r.page(piece, j); err != nil {
		return nil, 0, 0, false, err
	}
	return treePage(p, piece[j].pg)
}

// page returns the bytes of leaf piece[j] as db.page would, from the
// buffer, read there first with the leaves after it in piece that follow
// it in the file when it is not.
func (r *leafReader) page(piece []leafRef, j int) ([]byte, error) {
	db, pg := r.db, piece[j].pg
	if pg < 1 || int(pg) > db.nPages {
		return db.page(pg) // its error
	}
	if r.n == 0 || pg < r.first || pg >= r.first+uint32(r.n) {
		if err := r.read(piece, j); err != nil {
			return nil, err
		}
	}
	off := int(pg-r.first) * db.pageSize
	return r.buf[off : off+db.usable], nil
}

// read fills the buffer with leaf piece[j]'s page and those of the
// leaves after it that follow it in the file, up to leafBufBytes.
func (r *leafReader) read(piece []leafRef, j int) error {
	db, pg := r.db, piece[j].pg
	most := max(1, leafBufBytes/db.pageSize)
	n := 1
	for j+n < len(piece) && n < most && piece[j+n].pg == pg+uint32(n) {
		n++
	}
	n = min(n, db.nPages-int(pg)+1)
	if need := most * db.pageSize; cap(r.buf) < need {
		r.buf = make([]byte, need)
	}
	b := r.buf[:n*db.pageSize]
	k, err := db.file.ReadAt(b, int64(pg-1)*int64(db.pageSize))
	if k < len(b) {
		r.n = 0
		return fmt.Errorf("%w: reading pages %d to %d: %v", ErrCorrupt, pg, int(pg)+n-1, err)
	}
	r.buf, r.first, r.n = b, pg, n
	r.readRuns++
	return nil
}
