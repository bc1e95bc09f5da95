package sqlite

import (
	"errors"
	"fmt"
	"io"
	"sync"
)

// OpenReaderAt reads the schema of a database of size bytes through r,
// fetching each page it touches once (a report on a remote filesystem whose
// few small tables are wanted: only those pages travel). No census runs
// (it would read every page), so Scan does not detect pages swapped out of
// a B-tree, and a WAL beside the file is not read: meant for a few facts
// that a full Open checks again.
func OpenReaderAt(r io.ReaderAt, size int64) (db *DB, err error) {
	if size < 100 {
		return nil, ErrNotSQLite
	}
	hdr := make([]byte, 100)
	if _, err := r.ReadAt(hdr, 0); err != nil {
		return nil, fmt.Errorf("reading the header: %w", err)
	}
	ps, reserved, err := parseHeader(hdr)
	if err != nil {
		return nil, err
	}
	db = &DB{pageSize: ps, usable: ps - reserved, nPages: int(size / int64(ps)), tables: map[string]*Table{},
		at: &pageFetcher{r: r, size: ps, pages: map[uint32][]byte{}}}
	if db.usable < 480 {
		return nil, fmt.Errorf("%w: bad reserved size", ErrCorrupt)
	}
	db.waitCensus() // marks the census done: none runs
	defer recoverCorrupt(&err)
	db.roots = []uint32{1}
	if err := db.readSchema(); err != nil {
		return nil, err
	}
	return db, nil
}

// pageFetcher reads pages through an io.ReaderAt and keeps them.
type pageFetcher struct {
	r     io.ReaderAt
	size  int
	mu    sync.Mutex
	pages map[uint32][]byte
}

func (f *pageFetcher) page(n uint32) ([]byte, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if p, ok := f.pages[n]; ok {
		return p, nil
	}
	p := make([]byte, f.size)
	k, err := f.r.ReadAt(p, int64(n-1)*int64(f.size))
	if k < len(p) {
		if err == nil || errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		return nil, fmt.Errorf("reading page %d: %w", n, err)
	}
	f.pages[n] = p
	return p, nil
}
