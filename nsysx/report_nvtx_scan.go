package nsysx

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/nsysx/nsysx/nsysx/internal/sqlite"
)

// A fast path for the one big table of NVTX-heavy profiles. NVTX_EVENTS
// holds millions of rows (2.7 M in train x50, 220 MB of pages); the NVTX
// reports need eight of its columns once. Instead of the generic reader's
// per-row value decoding, this walks the table's B-tree pages in a private
// read-only mapping of the export and decodes just those fields straight into
// nvtxRow batches, then unmaps the file, so that the pages do not stay in the
// process's resident set while the reports build their results.

// errNoFastPath says the fast path does not apply (not a plain SQLite file,
// or a platform without mmap); the generic scanner is used instead.
var errNoFastPath = errors.New("no NVTX fast path")

// pageFile is a mapped SQLite file.
type pageFile struct {
	data     []byte
	pageSize int
	usable   int
}

// nvtxColumns lists, in nvtxScanCols order, each column's position in the
// table's records (-1 when the table lacks it).
func nvtxColumns(t *sqlite.Table) ([8]int, error) {
	var pos [8]int
	for i, name := range nvtxScanCols(nil) {
		pos[i] = -1
		for j, c := range t.Columns {
			if strings.EqualFold(c.Name, name) {
				if c.RowidKey {
					return pos, errNoFastPath
				}
				pos[i] = j
			}
		}
	}
	if pos[0] < 0 || pos[1] < 0 || pos[2] < 0 {
		return pos, errNoFastPath
	}
	return pos, nil
}

// fastScanNVTX streams NVTX_EVENTS rows passing rf to full, in rowid order,
// reading the export file directly.
func fastScanNVTX(p *Profile, rf *rowFilter, newBatch func() *nvtxBatch, full chan<- *nvtxBatch) error {
	src, ok := p.src.(*sqliteSource)
	lp := strings.ToLower(p.Path)
	if !ok || p.Format != "sqlite" || strings.HasSuffix(lp, ".nsys-rep") || strings.HasSuffix(lp, ".qdrep") {
		return errNoFastPath
	}
	t := src.db.Table(tNVTX)
	if t == nil {
		return errNoFastPath
	}
	pos, err := nvtxColumns(t)
	if err != nil {
		return err
	}
	f, err := os.Open(p.Path)
	if err != nil {
		return errNoFastPath
	}
	defer f.Close()
	data, release, unmap, err := mapReadOnly(f)
	if err != nil {
		return errNoFastPath
	}
	defer unmap()
	pf, err := newPageFile(data)
	if err != nil {
		return errNoFastPath
	}
	w := &nvtxWalker{pf: pf, pos: pos, rf: rf, newBatch: newBatch, full: full, release: release}
	for i := range w.slot {
		w.slot[i] = -1
	}
	for k, c := range pos {
		if c >= len(w.slot) {
			return errNoFastPath
		}
		if c >= 0 {
			w.slot[c] = int8(k)
			w.maxCol = max(w.maxCol, c)
		}
	}
	w.cur = newBatch()
	w.cur.hint = pf.estimateRows(t.Root)
	if err := w.walk(t.Root, 0); err != nil {
		return err
	}
	if len(w.cur.rows) > 0 {
		full <- w.cur
	}
	return nil
}

func newPageFile(data []byte) (*pageFile, error) {
	if len(data) < 100 || string(data[:16]) != "SQLite format 3\x00" {
		return nil, errNoFastPath
	}
	ps := int(binary.BigEndian.Uint16(data[16:18]))
	if ps == 1 {
		ps = 65536
	}
	if ps < 512 || ps&(ps-1) != 0 || int(data[20]) > ps-480 {
		return nil, errNoFastPath
	}
	return &pageFile{data: data, pageSize: ps, usable: ps - int(data[20])}, nil
}

var errCorruptNVTX = fmt.Errorf("%w: NVTX_EVENTS", sqlite.ErrCorrupt)

func (pf *pageFile) page(n uint32) ([]byte, error) {
	off := int64(n-1) * int64(pf.pageSize)
	if n < 1 || off+int64(pf.usable) > int64(len(pf.data)) {
		return nil, errCorruptNVTX
	}
	return pf.data[off : off+int64(pf.usable)], nil
}

// estimateRows guesses a table's row count from its B-tree without reading
// the leaves: the number of leaf pages times the cells of the first leaf. It
// returns 0 when the tree looks odd.
func (pf *pageFile) estimateRows(root uint32) int {
	depth, pg := 0, root
	for ; depth < 40; depth++ { // follow the leftmost path to a leaf
		p, err := pf.page(pg)
		if err != nil || len(p) < 112 {
			return 0
		}
		hdr := 0
		if pg == 1 {
			hdr = 100
		}
		if p[hdr] == 0x0D {
			break
		}
		if p[hdr] != 0x05 {
			return 0
		}
		if binary.BigEndian.Uint16(p[hdr+3:]) > 0 {
			pg = binary.BigEndian.Uint32(p[binary.BigEndian.Uint16(p[hdr+12:]):])
		} else {
			pg = binary.BigEndian.Uint32(p[hdr+8:])
		}
	}
	p, err := pf.page(pg)
	if err != nil {
		return 0
	}
	cells := int(binary.BigEndian.Uint16(p[3:]))
	var leaves func(pg uint32, d int) int
	leaves = func(pg uint32, d int) int {
		if d == depth {
			return 1
		}
		p, err := pf.page(pg)
		if err != nil || len(p) < 112 {
			return 0
		}
		hdr := 0
		if pg == 1 {
			hdr = 100
		}
		n := int(binary.BigEndian.Uint16(p[hdr+3:]))
		if d == depth-1 {
			return n + 1
		}
		total := leaves(binary.BigEndian.Uint32(p[hdr+8:]), d+1)
		for i := 0; i < n && hdr+12+2*i+2 <= len(p); i++ {
			off := int(binary.BigEndian.Uint16(p[hdr+12+2*i:]))
			if off+4 <= len(p) {
				total += leaves(binary.BigEndian.Uint32(p[off:]), d+1)
			}
		}
		return total
	}
	return leaves(root, 0) * cells
}

// nvtxWalker walks the table B-tree and fills batches.
type nvtxWalker struct {
	pf       *pageFile
	pos      [8]int
	maxCol   int
	slot     [64]int8 // record column -> wanted column k, -1 when not wanted
	rf       *rowFilter
	newBatch func() *nvtxBatch
	full     chan<- *nvtxBatch
	cur      *nvtxBatch
	scratch  []byte
	release  func() // drop mapped pages from the resident set
	leaves   int    // leaf pages read since the last release
}

// releaseEvery is how many leaf pages are read between releases of the
// mapping's resident pages (16 MB of 4 KB pages).
const releaseEvery = 4096

func (w *nvtxWalker) walk(pg uint32, depth int) error {
	if depth > 40 {
		return errCorruptNVTX
	}
	p, err := w.pf.page(pg)
	if err != nil {
		return err
	}
	hdr := 0
	if pg == 1 {
		hdr = 100
	}
	if hdr+12 > len(p) {
		return errCorruptNVTX
	}
	ncell := int(binary.BigEndian.Uint16(p[hdr+3:]))
	switch p[hdr] {
	case 0x0D:
		ptrs := hdr + 8
		if ptrs+2*ncell > len(p) {
			return errCorruptNVTX
		}
		for i := 0; i < ncell; i++ {
			off := int(binary.BigEndian.Uint16(p[ptrs+2*i:]))
			if err := w.cell(p, off); err != nil {
				return err
			}
		}
		if w.leaves++; w.leaves >= releaseEvery {
			w.release()
			w.leaves = 0
		}
		return nil
	case 0x05:
		ptrs := hdr + 12
		if ptrs+2*ncell > len(p) {
			return errCorruptNVTX
		}
		for i := 0; i < ncell; i++ {
			off := int(binary.BigEndian.Uint16(p[ptrs+2*i:]))
			if off+4 > len(p) {
				return errCorruptNVTX
			}
			if err := w.walk(binary.BigEndian.Uint32(p[off:]), depth+1); err != nil {
				return err
			}
		}
		return w.walk(binary.BigEndian.Uint32(p[hdr+8:]), depth+1)
	}
	return errCorruptNVTX
}

// uvarint decodes a SQLite varint at b[i:]; n is 0 when b is too short.
func uvarint(b []byte, i int) (v uint64, n int) {
	for k := 0; k < 8; k++ {
		if i+k >= len(b) {
			return 0, 0
		}
		c := b[i+k]
		v = v<<7 | uint64(c&0x7f)
		if c < 0x80 {
			return v, k + 1
		}
	}
	if i+8 >= len(b) {
		return 0, 0
	}
	return v<<8 | uint64(b[i+8]), 9
}

// cell decodes one leaf cell into the current batch.
func (w *nvtxWalker) cell(p []byte, off int) error {
	size, n1 := uvarint(p, off)
	rowid, n2 := uvarint(p, off+n1)
	if n1 == 0 || n2 == 0 || size > 1<<30 {
		return errCorruptNVTX
	}
	rec, err := w.payload(p, off+n1+n2, int(size))
	if err != nil {
		return err
	}
	return w.record(int64(rowid), rec)
}

// payload returns a cell's record, following overflow pages when needed.
func (w *nvtxWalker) payload(p []byte, start, size int) ([]byte, error) {
	u := w.pf.usable
	if x := u - 35; size <= x {
		if start+size > len(p) {
			return nil, errCorruptNVTX
		}
		return p[start : start+size], nil
	}
	m := (u-12)*32/255 - 23
	local := m + (size-m)%(u-4)
	if local > u-35 {
		local = m
	}
	if start+local+4 > len(p) {
		return nil, errCorruptNVTX
	}
	buf := append(w.scratch[:0], p[start:start+local]...)
	next := binary.BigEndian.Uint32(p[start+local:])
	for len(buf) < size {
		op, err := w.pf.page(next)
		if err != nil {
			return nil, err
		}
		k := min(size-len(buf), u-4)
		buf = append(buf, op[4:4+k]...)
		next = binary.BigEndian.Uint32(op)
	}
	w.scratch = buf
	return buf, nil
}

// record decodes the wanted fields of one row and adds it to the batch.
// Fields are kept per wanted column k (the nvtxScanCols order).
func (w *nvtxWalker) record(rowid int64, rec []byte) error {
	var (
		ints  [8]int64
		texts [8][]byte
		null  uint8 = 0xFF // bit k: column k is NULL (or absent)
		isTxt uint8
	)
	hsize, n := uvarint(rec, 0)
	if n == 0 || int(hsize) > len(rec) || int(hsize) < n {
		return errCorruptNVTX
	}
	hp, body, hs := n, int(hsize), int(hsize)
	for col := 0; col <= w.maxCol && hp < hs; col++ {
		st := uint64(rec[hp])
		if st < 0x80 {
			hp++
		} else {
			var k int
			if st, k = uvarint(rec[:hs], hp); k == 0 {
				return errCorruptNVTX
			}
			hp += k
		}
		var sz int
		switch {
		case st <= 4:
			sz = int(st)
		case st == 5:
			sz = 6
		case st == 6 || st == 7:
			sz = 8
		case st == 8 || st == 9:
			sz = 0
		case st >= 12:
			sz = int(st-12) / 2
		default:
			return errCorruptNVTX
		}
		if body+sz > len(rec) {
			return errCorruptNVTX
		}
		if k := w.slot[col]; k >= 0 && st != 0 {
			bit := uint8(1) << k
			null &^= bit
			switch {
			case st <= 6:
				v := int64(int8(rec[body]))
				for _, c := range rec[body+1 : body+sz] {
					v = v<<8 | int64(c)
				}
				ints[k] = v
			case st == 7:
				ints[k] = int64(math.Float64frombits(binary.BigEndian.Uint64(rec[body:])))
			case st <= 9:
				ints[k] = int64(st - 8)
			default:
				texts[k], isTxt = rec[body:body+sz], isTxt|bit
			}
		}
		body += sz
	}
	isNull := func(k int) bool { return null&(1<<k) != 0 }
	if w.rf != nil && !w.rf.keep(ints[0], isNull(0), ints[1], isNull(1), ints[3], isNull(3)) {
		return nil
	}
	text := texts[5]
	if !isNull(5) && isTxt&(1<<5) == 0 { // a number in the text column reads as its digits
		text = strconv.AppendInt(nil, ints[5], 10)
	}
	if len(w.cur.rows) == nvtxBatchRows || len(w.cur.buf)+len(text) > cap(w.cur.buf) {
		w.full <- w.cur
		w.cur = w.newBatch()
	}
	r := nvtxRow{rowid: rowid, start: ints[0], end: ints[1], typ: ints[2], gtid: ints[3], textID: ints[4], domainID: ints[6]}
	// the NULL bits of nvtxRow follow the column order: end, thread, textId,
	// text, domainId, endGlobalTid are columns 1, 3, 4, 5, 6 and 7
	for k, bit := range [...]uint8{1: nvNullEnd, 3: nvNullTid, 4: nvNullTextID, 5: nvNullText, 6: nvNullDomain, 7: nvNullEndTid} {
		if bit != 0 && isNull(k) {
			r.null |= bit
		}
	}
	if !isNull(5) {
		r.text = w.cur.addText(text)
	}
	w.cur.rows = append(w.cur.rows, r)
	return nil
}

// addText copies a text into the batch buffer (or its own slice when it is
// longer than the buffer).
func (b *nvtxBatch) addText(t []byte) []byte {
	if len(t) > cap(b.buf)-len(b.buf) {
		return append([]byte(nil), t...)
	}
	o := len(b.buf)
	b.buf = append(b.buf, t...)
	return b.buf[o:len(b.buf):len(b.buf)]
}
