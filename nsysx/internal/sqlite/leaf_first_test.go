package sqlite

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// randomRecord is a record of ncol fields of random serial types: small and
// large integers (some gated values under gateTableValues, some over it,
// some negative), NULLs, REALs, texts and blobs short and long (two-byte
// serial types), now and then with a two-byte header size.
func randomRecord(r *rand.Rand, ncol int) []byte {
	var hdr, body []byte
	for range ncol {
		var st uint64
		switch k := r.IntN(12); {
		case k < 8:
			st = uint64(r.IntN(10))
		case k < 11:
			st = uint64(12 + r.IntN(40))
		default:
			st = uint64(12 + r.IntN(300))
		}
		hdr = putVarint(hdr, st)
		size := 0
		if st >= 12 {
			size = int(st-12) / 2
		} else {
			size = []int{0, 1, 2, 3, 4, 6, 8, 8, 0, 0}[st]
		}
		for range size {
			body = append(body, byte(r.Uint32()))
		}
		if st >= 1 && st <= 6 && r.IntN(2) == 0 { // small non-negative values, the gate table's
			v := uint64(r.IntN(2 * gateTableValues))
			for i := range size {
				body[len(body)-1-i] = byte(v >> (8 * i))
			}
			if size > 0 && body[len(body)-size]&0x80 != 0 {
				body[len(body)-size] &= 0x7f
			}
		}
	}
	hs := len(hdr) + 1
	if hs >= 0x80 {
		return append(append(putVarint(nil, uint64(len(hdr)+2)), hdr...), body...)
	}
	return append(append([]byte{byte(hs)}, hdr...), body...)
}

// TestScanLeafFirstMatchesGeneral builds random leaf pages, cells of every
// shape (payload sizes and rowids of one to nine bytes, records of one- and
// two-byte headers, some cut short, rowids now and then out of order), and
// checks that the GateFirst leaf loop passes on the same records, in the
// same order, with the same rowids, as the general loop followed by the
// general header walk, and that it fails where that fails.
func TestScanLeafFirstMatchesGeneral(t *testing.T) {
	db, err := FromBytes(syncDB(t))
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(7, 9))
	keep := func(v int64) bool { return v%3 == 0 || v < 0 }
	kept, refused, failed := 0, 0, 0
	for iter := range 3000 {
		page := make([]byte, db.usable)
		page[0] = 0x0d
		hdr := 0
		var cells [][]byte
		var rowid int64
		switch r.IntN(4) {
		case 0:
			rowid = int64(r.Uint64() >> 1) // eight and nine byte rowids
		case 1:
			rowid = -int64(r.IntN(1000)) - 1
		default:
			rowid = int64(r.IntN(1 << 22))
		}
		ncol := 1 + r.IntN(10)
		gcol := r.IntN(ncol)
		used := 8
		for {
			rec := randomRecord(r, ncol)
			if r.IntN(30) == 0 {
				rec = rec[:r.IntN(len(rec)+1)]
			}
			if len(rec) > db.usable-35 {
				continue // overflow cells need pages of their own
			}
			step := int64(1 + r.IntN(3))
			if r.IntN(200) == 0 {
				step = -1 // out of order
			}
			if step > 0 && rowid > math.MaxInt64-step {
				break
			}
			rowid += step
			c := putVarint(nil, uint64(len(rec)))
			c = putVarint(c, uint64(rowid))
			c = append(c, rec...)
			if used+2*(len(cells)+1)+totalLen(cells)+len(c) > len(page) {
				break
			}
			cells = append(cells, c)
		}
		if len(cells) == 0 {
			continue
		}
		end := len(page)
		for i, c := range cells {
			end -= len(c)
			copy(page[end:], c)
			binary.BigEndian.PutUint16(page[hdr+8+2*i:], uint16(end))
		}
		binary.BigEndian.PutUint16(page[hdr+3:], uint16(len(cells)))
		binary.BigEndian.PutUint16(page[hdr+5:], uint16(end))

		g := &gate{col: gcol, k: 0, keep: keep, first: true}
		var want, got []string
		var scratch []byte
		werr := db.scanLeaf(page, hdr, len(cells), 1, math.MinInt64, math.MaxInt64, nil, nil, &scratch, func(rowid int64, rec []byte) error {
			if !refusedFirstSlow(rec, g) {
				want = append(want, fmt.Sprintf("%d % x", rowid, rec))
			}
			return nil
		})
		st := &stream{db: db, first: g}
		gerr := db.scanLeaf(page, hdr, len(cells), 1, math.MinInt64, math.MaxInt64, nil, st, &scratch, func(rowid int64, rec []byte) error {
			got = append(got, fmt.Sprintf("%d % x", rowid, rec))
			return nil
		})
		if (werr == nil) != (gerr == nil) {
			t.Fatalf("page %d: general loop %v, GateFirst loop %v", iter, werr, gerr)
		}
		if werr != nil {
			failed++
			continue
		}
		if fmt.Sprint(want) != fmt.Sprint(got) {
			t.Fatalf("page %d (gate on column %d of %d): general loop passes on\n%v\nGateFirst loop\n%v", iter, gcol, ncol, want, got)
		}
		kept += len(got)
		refused += len(cells) - len(got)
	}
	if kept == 0 || refused == 0 || failed == 0 {
		t.Fatalf("kept %d, refused %d, pages failing %d: the pages miss a case", kept, refused, failed)
	}
}

func totalLen(cells [][]byte) int {
	n := 0
	for _, c := range cells {
		n += len(c)
	}
	return n
}
