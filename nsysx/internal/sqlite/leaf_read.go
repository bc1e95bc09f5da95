package sqlite

import (
	"errors"
	"fmt"
	"io"
	"os"
)

// leafBuf reads a range's leaf pages into a buffer of its own with pread,
// instead of through the file's mapping, for the GateFirst scans: a gated
// scan reads every leaf of a big table once and keeps next to nothing, and
// reading a page through a fresh mapping costs its fault (mapping the
// fault-around block, and later the release that unmaps it again) and a
// TLB miss for each 4 KB page, where pread copies the page-cache pages into
// the buffer through the kernel's own mapping of memory, and the loop then
// reads them from the cache the copy left them in (docs/performance.md,
// "Gated scans read their leaves with pread"). A run of leaves that follow
// each other in the file is read in one call, up to leafBufBytes.
type leafBuf struct {
	f     *os.File
	db    *DB
	buf   []byte
	first uint32 // the page at buf[0]
	n     uint32 // the pages read into buf
}

// leafBufBytes is the most one read brings in (a variable for the tests
// and benchmarks): small enough that the pages are still in the core's
// cache when the loop reads them.
var leafBufBytes = 128 << 10

// readLeaves says whether a scan of db's leaves with st may use a leafBuf:
// a GateFirst scan of a mapped file without a WAL (whose pages may be in
// the WAL instead).
func (db *DB) readLeaves(st *stream) bool {
	return readLeavesOn && st != nil && st.first != nil && db.mapped && db.file != nil && db.wal == nil && db.at == nil
}

// readLeavesOn turns leafBuf off (for the benchmarks that compare).
var readLeavesOn = true

func (db *DB) newLeafBuf() *leafBuf {
	return &leafBuf{f: db.file, db: db, buf: make([]byte, max(1, leafBufBytes/db.pageSize)*db.pageSize)}
}

// page returns the bytes of leaf piece[j] as db.page would: from buf, read
// there first, with the leaves after it in piece that follow it in the
// file, when it is not.
func (b *leafBuf) page(piece []leafRef, j int) ([]byte, error) {
	db, pg := b.db, piece[j].pg
	if pg-b.first >= b.n { // not in buf (pg < first wraps round)
		if pg < 1 || int(pg) > db.nPages {
			return db.page(pg) // its error
		}
		k, most := 1, len(b.buf)/db.pageSize
		for k < most && j+k < len(piece) && piece[j+k].pg == pg+uint32(k) && int(pg)+k <= db.nPages {
			k++
		}
		n, err := b.f.ReadAt(b.buf[:k*db.pageSize], int64(pg-1)*int64(db.pageSize))
		if n < k*db.pageSize {
			b.n = 0
			if err == nil || errors.Is(err, io.EOF) {
				err = io.ErrUnexpectedEOF
			}
			return nil, fmt.Errorf("reading page %d: %w", pg, err)
		}
		b.first, b.n = pg, uint32(k)
	}
	off := int(pg-b.first) * db.pageSize
	return b.buf[off : off+db.usable], nil
}
