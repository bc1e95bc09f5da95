package sqlite

import (
	"encoding/binary"
	"fmt"
)

// Leaves read with pread (ScanOptions.Pread). A scan through the mapping
// faults its leaf pages in and, releasing behind it, drops them again with
// madvise: on a virtual machine each fault costs tens of microseconds, and
// each release makes every core running the process flush its TLB, which
// with sixteen scans at once was most of a recipe's CPU. Read with pread
// into a buffer of the scan's own, a run of consecutive leaves costs one
// system call and a copy out of the page cache, and leaves nothing of the
// file resident. The record bytes then live in that buffer only until the
// next run is read, so a scan's callers must copy what they keep (as
// ScanParts's callers must anyway).

// preadPages is the most pages one read takes (256 KB of 4 KB pages: a
// run stays in a core's cache while it is decoded).
const preadPages = 64

// leafReader reads a range's leaf pages in runs of consecutive page
// numbers into buf.
type leafReader struct {
	db       *DB
	buf      []byte
	first    uint32 // the page at buf[0]
	n        int    // pages in buf
	readRuns int    // reads so far (for the tests)
}

// leafReader returns the reader of a scan with opt, or nil when the scan
// reads the mapping: without Pread, for a DB not backed by a mapped file
// (read into memory, or read on demand) or with a WAL.
func (db *DB) leafReader(opt ScanOptions) *leafReader {
	if !opt.Pread || db.file == nil || db.wal != nil || db.at != nil {
		return nil
	}
	return &leafReader{db: db}
}

// btreePage is DB.btreePage of leaf piece[j], read with the run of the
// leaves after it whose pages follow it in the file when the buffer does
// not hold it.
func (r *leafReader) btreePage(piece []leafRef, j int) (p []byte, hdr, ncell int, leaf bool, err error) {
	db := r.db
	pg := piece[j].pg
	if pg < 1 || int(pg) > db.nPages {
		return db.btreePage(pg) // its error
	}
	if pg < r.first || pg >= r.first+uint32(r.n) || r.n == 0 {
		if err := r.read(piece, j); err != nil {
			return nil, 0, 0, false, err
		}
	}
	off := int(pg-r.first) * db.pageSize
	p = r.buf[off : off+db.usable]
	if pg == 1 {
		hdr = 100
	}
	ncell = int(binary.BigEndian.Uint16(p[hdr+3:]))
	if p[hdr] != 0x0D || hdr+8+2*ncell > len(p) {
		return db.btreePage(pg) // not a leaf, or a bad one: its error or kind
	}
	return p, hdr, ncell, true, nil
}

// read fills the buffer with leaf piece[j]'s page and those of the
// leaves after it that follow it in the file, up to preadPages.
func (r *leafReader) read(piece []leafRef, j int) error {
	db := r.db
	n := 1
	for j+n < len(piece) && n < preadPages && piece[j+n].pg == piece[j].pg+uint32(n) {
		n++
	}
	n = min(n, db.nPages-int(piece[j].pg)+1)
	if need := n * db.pageSize; cap(r.buf) < need {
		r.buf = make([]byte, preadPages*db.pageSize)
	}
	b := r.buf[:n*db.pageSize]
	k, err := db.file.ReadAt(b, int64(piece[j].pg-1)*int64(db.pageSize))
	if k < len(b) {
		return fmt.Errorf("%w: reading pages %d to %d: %v", ErrCorrupt, piece[j].pg, int(piece[j].pg)+n-1, err)
	}
	r.buf, r.first, r.n = b, piece[j].pg, n
	r.readRuns++
	return nil
}
