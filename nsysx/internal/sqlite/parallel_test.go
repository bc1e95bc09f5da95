package sqlite

import "testing"

// scanParts digests every row of tb through ScanFieldsParts, the parts
// concatenated in order.
func scanParts(db *DB, tb *Table, cols []string, parts int) ([]uint64, int, error) {
	return scanPartsWith(db, tb, cols, parts, ScanOptions{Release: true, AbsentNull: true})
}

// scanPartsWith is scanParts with the options opt.
func scanPartsWith(db *DB, tb *Table, cols []string, parts int, opt ScanOptions) ([]uint64, int, error) {
	var got []*[]uint64 // a part's rows, each written by its own goroutine only
	n, err := db.ScanFieldsParts(tb, cols, opt, parts, func(i int) func(int64, *Fields) error {
		rows := new([]uint64)
		got = append(got, rows)
		return func(rowid int64, f *Fields) error {
			*rows = append(*rows, rowDigest(rowid, f, len(cols)))
			return nil
		}
	})
	var all []uint64
	for _, g := range got {
		all = append(all, *g...)
	}
	return all, n, err
}

// TestScanFieldsPartsMatchesScan reads every table of two real exports in
// up to three parts of one leaf or more and compares with Scan.
func TestScanFieldsPartsMatchesScan(t *testing.T) {
	defer func(m int) { MinPartLeaves = m }(MinPartLeaves)
	MinPartLeaves = 1
	cut := false
	eachRealTable(t, func(name string, db *DB, tb *Table, cols []string) {
		want := digestsScan(t, db, tb, cols)
		got, n, err := scanParts(db, tb, cols, 3)
		if err != nil {
			t.Fatalf("%s %s: %v", name, tb.Name, err)
		}
		cut = cut || n > 1
		if !sameDigests(got, want) {
			t.Errorf("%s %s: ScanFieldsParts (%d parts) differs from Scan", name, tb.Name, n)
		}
	})
	if !cut {
		t.Fatal("no table was cut into parts")
	}
}

// TestScanFieldsPartsCorrupt: on damaged files, a parallel scan fails
// exactly when the serial one does (the B-tree checks hold), and never
// panics.
func TestScanFieldsPartsCorrupt(t *testing.T) {
	defer func(m int) { MinPartLeaves = m }(MinPartLeaves)
	MinPartLeaves = 1
	orig := syncDB(t)
	damagedCopies(orig, len(orig)/300+1, func(off int, db *DB) {
		for _, tb := range db.Tables() {
			cols := columnsOf(tb)
			if len(cols) == 0 {
				continue
			}
			serr := db.ScanFields(tb, cols, ScanOptions{AbsentNull: true}, func(int64, *Fields) error { return nil })
			if _, _, perr := scanParts(db, tb, cols, 4); (serr == nil) != (perr == nil) {
				t.Errorf("offset %d, %s: serial scan %v, parallel %v", off, tb.Name, serr, perr)
			}
		}
	})
}

// TestGateFirstPartsMatchesScan: a GateFirst scan in up to three parts
// passes on exactly the rows of a plain Scan whose gated field is not an
// INTEGER the gate refuses, each with every field, and no other. Every
// table of two real exports, gated on each of its first four columns,
// keeping odd integers.
func TestGateFirstPartsMatchesScan(t *testing.T) {
	defer func(m int) { MinPartLeaves = m }(MinPartLeaves)
	MinPartLeaves = 1
	odd := func(v int64) bool { return v%2 != 0 }
	cut, refused := false, 0
	eachRealTable(t, func(name string, db *DB, tb *Table, cols []string) {
		for gf := range min(4, len(cols)) {
			if tb.Columns[gf].RowidKey {
				continue // the INTEGER PRIMARY KEY cannot be gated
			}
			var want []uint64
			f := new(Fields)
			err := db.Scan(tb, cols, func(rowid int64, vals []Value) error {
				if v := vals[gf]; v.Type == Integer && !odd(v.I) {
					refused++
					return nil
				}
				for k, v := range vals {
					f.Set(k, v)
				}
				want = append(want, rowDigest(rowid, f, len(cols)))
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			var got []*[]uint64
			opt := ScanOptions{AbsentNull: true, Gate: odd, GateField: gf, GateFirst: true}
			n, err := db.ScanFieldsParts(tb, cols, opt, 3, func(int) func(int64, *Fields) error {
				rows := new([]uint64)
				got = append(got, rows)
				return func(rowid int64, f *Fields) error {
					if f.Gated {
						t.Errorf("%s %s: a row passed on with Gated set", name, tb.Name)
					}
					*rows = append(*rows, rowDigest(rowid, f, len(cols)))
					return nil
				}
			})
			if err != nil {
				t.Fatalf("%s %s: %v", name, tb.Name, err)
			}
			var all []uint64
			for _, g := range got {
				all = append(all, *g...)
			}
			cut = cut || n > 1
			if !sameDigests(all, want) {
				t.Errorf("%s %s gated on %s: %d rows kept, Scan keeps %d", name, tb.Name, cols[gf], len(all), len(want))
			}
		}
	})
	if !cut || refused == 0 {
		t.Fatalf("cut into parts: %v, rows refused: %d", cut, refused)
	}
}

// TestLeafChunksSpan: the ranges cut from the collected blocks hold every
// leaf once, in order, whatever the cut points are relative to the blocks
// (the test profiles' tables have fewer leaves than one block).
func TestLeafChunksSpan(t *testing.T) {
	for _, n := range []int{0, 1, leafChunk - 1, leafChunk, leafChunk + 1, 3*leafChunk + 17} {
		var c leafChunks
		for i := range n {
			c.add(leafRef{pg: uint32(i + 1)})
		}
		for _, parts := range []int{1, 2, 3, 7} {
			next := uint32(1)
			for p := range parts {
				for _, piece := range c.span(n*p/parts, n*(p+1)/parts) {
					if len(piece) == 0 {
						t.Fatalf("%d leaves in %d parts: an empty piece in part %d", n, parts, p)
					}
					for _, l := range piece {
						if l.pg != next {
							t.Fatalf("%d leaves in %d parts: leaf %d where %d comes next (part %d)", n, parts, l.pg, next, p)
						}
						next++
					}
				}
			}
			if int(next-1) != n {
				t.Errorf("%d leaves in %d parts: %d leaves in the ranges", n, parts, next-1)
			}
		}
	}
}
