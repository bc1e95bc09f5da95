package sqlite

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// A database in WAL mode (header bytes 18 and 19 are 2) may have committed
// transactions still in its "-wal" file, not yet copied into the database
// file (a checkpoint does that). SQLite reads a page from the newest
// committed frame that holds it, else from the database file; so does this
// reader. The WAL file is read (O_RDONLY), never written, and the "-shm"
// index is neither read nor created: the frames are found by scanning the
// WAL as SQLite's recovery does.
//
// WAL format: a 32-byte header (magic 0x377f0682 or 0x377f0683, the latter
// for big-endian checksums; version 3007000; page size; checkpoint number;
// two salts; a checksum of the first 24 bytes), then frames of a 24-byte
// header (page number; the database size in pages for the last frame of a
// commit, else 0; the two salts; a running checksum over every frame so far,
// header first 8 bytes and page included) and one page. Frames count while
// their salts match the header's and their checksum holds; of those, only
// frames up to the last commit frame are committed.

// walPages is the committed content of a WAL: pages[n] is page n's newest
// copy (nil when the WAL holds none), n the database size it commits.
type walPages struct {
	pages [][]byte
	n, ps int
}

// readWAL reads the committed frames of path+"-wal" when the database
// (whose first bytes are data) is in WAL mode and the file exists; nil when
// there is nothing to apply.
func readWAL(path string, data []byte) (*walPages, error) {
	if len(data) < 100 || data[18] != 2 {
		return nil, nil
	}
	wpath := path + "-wal"
	st, err := os.Stat(wpath)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err == nil && !st.Mode().IsRegular() {
		err = fmt.Errorf("not a regular file")
	}
	var w []byte
	if err == nil {
		w, err = os.ReadFile(wpath)
	}
	if err != nil {
		return nil, fmt.Errorf("reading the WAL file %s: %w", wpath, err)
	}
	return parseWAL(w)
}

func parseWAL(w []byte) (*walPages, error) {
	if len(w) < 32 {
		return nil, nil
	}
	magic := binary.BigEndian.Uint32(w)
	if magic&^1 != 0x377f0682 || binary.BigEndian.Uint32(w[4:]) != 3007000 {
		return nil, nil // not a WAL SQLite would use: no frames
	}
	order := binary.ByteOrder(binary.LittleEndian)
	if magic&1 == 1 {
		order = binary.BigEndian
	}
	ps := int(binary.BigEndian.Uint32(w[8:]))
	if ps < 512 || ps > 65536 || ps&(ps-1) != 0 {
		return nil, nil
	}
	s0, s1 := walChecksum(order, w[:24], 0, 0)
	if s0 != binary.BigEndian.Uint32(w[24:]) || s1 != binary.BigEndian.Uint32(w[28:]) {
		return nil, nil
	}
	out := &walPages{ps: ps}
	pending := map[uint32][]byte{}
	for off := 32; off+24+ps <= len(w); off += 24 + ps {
		fh, page := w[off:off+24], w[off+24:off+24+ps]
		if string(fh[8:16]) != string(w[16:24]) {
			break // a frame of an earlier generation of the WAL
		}
		s0, s1 = walChecksum(order, fh[:8], s0, s1)
		s0, s1 = walChecksum(order, page, s0, s1)
		pg := binary.BigEndian.Uint32(fh)
		if pg == 0 || s0 != binary.BigEndian.Uint32(fh[16:]) || s1 != binary.BigEndian.Uint32(fh[20:]) {
			break
		}
		pending[pg] = page
		if commit := int(binary.BigEndian.Uint32(fh[4:])); commit > 0 {
			out.commit(pending, commit)
			clear(pending)
		}
	}
	if out.n == 0 {
		return nil, nil
	}
	return out, nil
}

// commit applies the frames of one transaction, which leaves n pages.
func (wp *walPages) commit(frames map[uint32][]byte, n int) {
	if len(wp.pages) < n+1 {
		wp.pages = append(wp.pages, make([][]byte, n+1-len(wp.pages))...)
	}
	for pg, b := range frames {
		if int(pg) <= n {
			wp.pages[pg] = b
		}
	}
	wp.pages = wp.pages[:n+1]
	wp.n = n
}

// walChecksum continues a WAL checksum over b (a multiple of 8 bytes).
func walChecksum(order binary.ByteOrder, b []byte, s0, s1 uint32) (uint32, uint32) {
	for i := 0; i+8 <= len(b); i += 8 {
		s0 += order.Uint32(b[i:]) + s1
		s1 += order.Uint32(b[i+4:]) + s0
	}
	return s0, s1
}
