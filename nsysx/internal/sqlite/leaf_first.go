package sqlite

import (
	"encoding/binary"
	"fmt"
	"math"
)

// scanLeafFirst is scanLeaf for a scan with a GateFirst gate, where most
// records are refused on one field and none of their fields is decoded: a
// gated scan of the runtime calls or the NVTX events is bound by this loop
// (docs/performance.md, "The GateFirst leaf loop"). The usual cell (a
// payload size of one or two bytes, a rowid of up to four, a record within
// the page) is read here without calls. A record's header up to the gated
// column's serial type (its first n bytes) says where that field lies, and
// successive records mostly share it: the answer for the latest such prefix
// is kept (firstKey), so the header is walked only when it changes. The
// gate's answer for small values comes from a table (gate.refusedTable).
// Any other cell takes scanLeaf's general steps, with the same checks and
// errors.
func (db *DB) scanLeafFirst(p []byte, hdr, ncell int, pg uint32, lo, hi int64, sh *shape, st *stream, scratch *[]byte, fn func(rowid int64, rec []byte) error) error {
	g := st.first
	refused := g.refusedTable()
	ptrs := hdr + 8
	if touchCells(p, hdr) == 0x5A && ncell < 0 { // never true: keeps the loads
		return nil
	}
	maxLocal := db.usable - 35
	fks := &st.firstKeys
	fks.init(g.col + 2)
	for i := 0; i < ncell; i++ {
		off := int(binary.BigEndian.Uint16(p[ptrs+2*i:]))
		if off+8 <= len(p) && i > 0 {
			c := p[off : off+8 : off+8]
			size, k := int(c[0]), 1
			if size >= 0x80 {
				if c[1] >= 0x80 {
					goto general
				}
				size, k = (size&0x7f)<<7|int(c[1]), 2
			}
			// the rowid: one to four bytes (up to 2^28), unrolled
			b := c[k]
			rowid := int64(b & 0x7f)
			if b >= 0x80 {
				b = c[k+1]
				rowid = rowid<<7 | int64(b&0x7f)
				k++
				if b >= 0x80 {
					b = c[k+1]
					rowid = rowid<<7 | int64(b&0x7f)
					k++
					if b >= 0x80 {
						b = c[k+1]
						rowid = rowid<<7 | int64(b&0x7f)
						k++
						if b >= 0x80 {
							goto general
						}
					}
				}
			}
			start := off + k + 1
			if rowid < lo || rowid > hi || size > maxLocal || start+size > len(p) {
				goto general
			}
			lo = rowid + 1
			rec := p[start : start+size]
			var refuse bool
			if size >= 8 && fks.n <= 8 {
				key := binary.LittleEndian.Uint64(rec) & fks.mask
				fk := &fks.slot[(key*0x9E3779B97F4A7C15)>>(64-firstKeyBits)]
				if key != fk.key { // an empty slot (key 0, keyWalk) answers as refusedFirst would
					fk.read(key, rec, fks.n, g)
				}
				switch fk.class {
				case keyInt:
					if e := fk.at + fk.size; e <= size {
						var v int64
						if e >= 8 { // the 8 bytes ending with the field, its sign extended
							v = int64(binary.BigEndian.Uint64(rec[e-8:e])<<fk.shift) >> fk.shift
						} else {
							v = intField(fk.st, rec[fk.at:e])
						}
						if uint64(v) < uint64(len(refused)*64) {
							refuse = refused[v>>6]&(1<<(v&63)) != 0
						} else {
							refuse = !g.keep(v)
						}
					}
				case keyConst:
					refuse = fk.refused && fk.at <= size
				case keyWalk:
					refuse = refusedFirst(rec, g)
				}
			} else {
				refuse = refusedFirst(rec, g)
			}
			if refuse {
				continue
			}
			if err := fn(rowid, rec); err != nil {
				return err
			}
			continue
		}
	general:
		// scanLeaf's steps, written out again: one function for a cell,
		// called from both loops, made the load loop 6-8 % slower
		// (BenchmarkScanFields)
		if off >= len(p) {
			return fmt.Errorf("%w: cell offset past page %d", ErrCorrupt, pg)
		}
		size, n1 := varint(p[off:])
		rowid, n2 := varint(p[off+n1:])
		if n1 == 0 || n2 == 0 || size > 1<<31 {
			return fmt.Errorf("%w: bad cell in page %d", ErrCorrupt, pg)
		}
		if r := int64(rowid); r < lo || r > hi {
			return keyOrderErr(pg, r, lo, hi)
		} else if lo = r + 1; r == math.MaxInt64 {
			hi = math.MinInt64 // no cell may follow
		}
		rec, sc, err := db.payload(p, off+n1+n2, int(size), *scratch)
		if err != nil {
			return err
		}
		if i == 0 && sh != nil {
			if err := sh.check(rec, pg); err != nil {
				return err
			}
		}
		if cap(sc) != cap(*scratch) {
			*scratch = sc
		}
		if refusedFirst(rec, g) {
			continue
		}
		if err := fn(int64(rowid), rec); err != nil {
			return err
		}
	}
	return st.leafDone(pg, ncell)
}

// firstKeys is what scanLeafFirst knows of the record header prefixes it
// met: a prefix is the first n bytes of a record (its header size and its
// serial types through the gated column's), read as a little-endian word
// and masked. A table's records share a few prefixes (an NVTX event's
// header size changes with its text's length, a timestamp's serial type
// with its magnitude), so the answers of the latest ones are kept in a
// small table indexed by a hash of the prefix.
type firstKeys struct {
	n    int
	mask uint64
	slot [1 << firstKeyBits]firstKey
}

const firstKeyBits = 4

// firstKey is the answer for one prefix.
type firstKey struct {
	key   uint64
	class uint8
	// keyInt: the gated field is an INTEGER of size bytes at offset at
	// (keyConst: a constant, at offset at), of serial type st; shift is
	// 64 - 8*size
	at, size int
	st       uint64
	shift    uint
	refused  bool // keyConst: whether the gate refuses the constant
}

const (
	keyWalk  uint8 = iota // a prefix the fast walk does not read: refusedFirst decides
	keyPass               // the gated field is NULL, REAL, TEXT or BLOB: never refused
	keyInt                // an INTEGER stored in the record: the gate decides
	keyConst              // the INTEGER constant 0 or 1 (serial types 8, 9)
)

// init readies k for prefixes of n bytes, forgetting the answers for
// another n.
func (k *firstKeys) init(n int) {
	if k.n == n {
		return
	}
	*k = firstKeys{n: n, mask: ^uint64(0)}
	if n < 8 {
		k.mask = 1<<(8*n) - 1
	}
}

// read answers for the prefix key of rec (at least 8 bytes), as
// refusedFirst's fast path does, under gate g.
func (k *firstKey) read(key uint64, rec []byte, n int, g *gate) {
	*k = firstKey{key: key, class: keyWalk}
	if rec[0] >= 0x80 || int(rec[0]) < n {
		return
	}
	at := int(rec[0])
	for _, c := range rec[1 : n-1] {
		sz := serialSize[c&0x7f]
		if c >= 0x80 || sz < 0 {
			return
		}
		at += int(sz)
	}
	switch st := rec[n-1]; {
	case st >= 0x80:
	case st == 0 || st == 7 || st > 9:
		k.class = keyPass
	case st == 8 || st == 9:
		k.class, k.at, k.refused = keyConst, at, !g.keep(int64(st)-8)
	default:
		k.class, k.at, k.size, k.st = keyInt, at, int(serialSize[st]), uint64(st)
		k.shift = uint(64 - 8*k.size)
	}
}
