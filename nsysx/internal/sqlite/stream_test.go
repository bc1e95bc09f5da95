package sqlite

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"runtime"
	"sync"
	"testing"

	"github.com/nsysx/nsysx/internal/testutil"
)

// rowDigest is a digest of the first n fields of a row.
func rowDigest(rowid int64, f *Fields, n int) uint64 {
	h := fnv.New64a()
	fmt.Fprintf(h, "%d %x %x %x %x|", rowid, f.Null, f.Text, f.Blob, f.Real)
	for k := range n {
		bit := uint32(1) << k
		fmt.Fprintf(h, "%d,", f.I[k])
		if f.Real&bit != 0 {
			fmt.Fprintf(h, "%x,", math.Float64bits(f.F[k]))
		}
		if (f.Text|f.Blob)&bit != 0 {
			fmt.Fprintf(h, "%q,", f.B[k])
		}
	}
	return h.Sum64()
}

// columnsOf lists the first MaxFields columns of t.
func columnsOf(t *Table) []string {
	var cols []string
	for _, c := range t.Columns[:min(len(t.Columns), MaxFields)] {
		cols = append(cols, c.Name)
	}
	return cols
}

// digestsScan digests every row of t through Scan, the Values stored with
// Fields.Set.
func digestsScan(t testing.TB, db *DB, tb *Table, cols []string) []uint64 {
	var out []uint64
	f := new(Fields)
	err := db.Scan(tb, cols, func(rowid int64, vals []Value) error {
		for k, v := range vals {
			f.Set(k, v)
		}
		out = append(out, rowDigest(rowid, f, len(cols)))
		return nil
	})
	if err != nil {
		t.Fatalf("%s: %v", tb.Name, err)
	}
	return out
}

// digestsFields digests every row of t through ScanFields.
func digestsFields(t testing.TB, db *DB, tb *Table, cols []string, opt ScanOptions) []uint64 {
	var out []uint64
	err := db.ScanFields(tb, cols, opt, func(rowid int64, f *Fields) error {
		out = append(out, rowDigest(rowid, f, len(cols)))
		return nil
	})
	if err != nil {
		t.Fatalf("%s: %v", tb.Name, err)
	}
	return out
}

func sameDigests(a, b []uint64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestScanFieldsMatchesScan reads every table of two real exports both ways.
func TestScanFieldsMatchesScan(t *testing.T) {
	eachRealTable(t, func(name string, db *DB, tb *Table, cols []string) {
		want := digestsScan(t, db, tb, cols)
		if got := digestsFields(t, db, tb, cols, ScanOptions{}); !sameDigests(got, want) {
			t.Errorf("%s %s: ScanFields differs from Scan", name, tb.Name)
		}
	})
}

// eachRealTable calls fn for every table with columns of the sync and
// train exports.
func eachRealTable(t *testing.T, fn func(name string, db *DB, tb *Table, cols []string)) {
	for _, name := range []string{"sync", "train"} {
		db, err := Open(testutil.Profile(t, name))
		if err != nil {
			t.Fatal(err)
		}
		for _, tb := range db.Tables() {
			if cols := columnsOf(tb); len(cols) > 0 {
				fn(name, db, tb, cols)
			}
		}
		db.Close()
	}
}

// TestScanFieldsAbsentAndRowid: an absent column reads as NULL with
// AbsentNull (an error without), the INTEGER PRIMARY KEY as the rowid.
func TestScanFieldsAbsentAndRowid(t *testing.T) {
	db, err := FromBytes(syncDB(t))
	if err != nil {
		t.Fatal(err)
	}
	tb := db.Table("StringIds")
	cols := []string{"value", "nosuch", "id"}
	if err := db.ScanFields(tb, cols, ScanOptions{}, func(int64, *Fields) error { return nil }); err == nil {
		t.Error("absent column without AbsentNull: no error")
	}
	n := 0
	err = db.ScanFields(tb, cols, ScanOptions{AbsentNull: true}, func(rowid int64, f *Fields) error {
		if f.Null != 2 || f.Text != 1 || f.I[1] != 0 || f.I[2] != rowid {
			return fmt.Errorf("row %d: Null %b Text %b I %v", rowid, f.Null, f.Text, f.I[:3])
		}
		n++
		return nil
	})
	if err != nil || n != 317 {
		t.Errorf("%d rows: %v", n, err)
	}
	if err := db.ScanFields(tb, make([]string, MaxFields+1), ScanOptions{}, nil); err == nil {
		t.Error("too many columns: no error")
	}
}

// TestScanFieldsRelease scans every table of a mapped file releasing each
// page as it goes, while other goroutines read the same tables through the
// same mapping: everybody reads what a copy in memory holds.
func TestScanFieldsRelease(t *testing.T) {
	path := testutil.Profile(t, "train")
	db, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if !db.mapped && runtime.GOOS == "linux" {
		t.Fatal("the file is not mapped")
	}
	mem, err := FromBytes(append([]byte(nil), db.data...))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]uint64{}
	for _, tb := range mem.Tables() {
		want[tb.Name] = digestsScan(t, mem, tb, columnsOf(tb))
	}
	var wg sync.WaitGroup
	for g := range 3 {
		wg.Go(func() {
			for _, tb := range db.Tables() {
				var got []uint64
				if g == 0 {
					got = digestsScan(t, db, tb, columnsOf(tb))
				} else {
					got = digestsFields(t, db, tb, columnsOf(tb), ScanOptions{Release: true, ReleaseEvery: 1})
				}
				if !sameDigests(got, want[tb.Name]) {
					t.Errorf("reader %d, %s: rows differ from the copy in memory", g, tb.Name)
				}
			}
		})
	}
	wg.Wait()
	for _, tb := range db.Tables() { // and after the releases
		if got := digestsScan(t, db, tb, columnsOf(tb)); !sameDigests(got, want[tb.Name]) {
			t.Errorf("after the releases, %s: rows differ from the copy in memory", tb.Name)
		}
	}
}

// TestScanFieldsContext: a cancelled context stops a scan before its first
// row, or at the next check after it is cancelled.
func TestScanFieldsContext(t *testing.T) {
	db, err := Open(testutil.Profile(t, "train"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	tb := db.Table("NVTX_EVENTS")
	total, _ := db.Count(tb)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	rows := 0
	count := func(int64, *Fields) error { rows++; return nil }
	if err := db.ScanFields(tb, []string{"start"}, ScanOptions{Context: ctx}, count); !errors.Is(err, context.Canceled) || rows != 0 {
		t.Errorf("cancelled before: %v after %d rows", err, rows)
	}
	defer func(n int) { checkEvery = n }(checkEvery)
	checkEvery = 1000
	ctx, cancel = context.WithCancel(context.Background())
	err = db.ScanFields(tb, []string{"start"}, ScanOptions{Context: ctx}, func(int64, *Fields) error {
		if rows++; rows == 10 {
			cancel()
		}
		return nil
	})
	if !errors.Is(err, context.Canceled) || rows > 1000+500 || rows >= total {
		t.Errorf("cancelled during: %v after %d rows of %d", err, rows, total)
	}
}

// TestEstimateRows compares the estimates with the counts: exact for a
// table whose rowids are dense (those of an export), else near.
func TestEstimateRows(t *testing.T) {
	db, err := Open(testutil.Profile(t, "train"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	deep, dense := 0, 0
	for _, tb := range db.Tables() {
		n, err := db.Count(tb)
		if err != nil {
			t.Fatal(err)
		}
		est := db.EstimateRows(tb)
		if _, _, _, leaf, _ := db.btreePage(tb.Root); leaf {
			if est != n {
				t.Errorf("%s: one leaf of %d rows, estimated %d", tb.Name, n, est)
			}
			continue
		}
		deep++
		lo, hi, k := int64(math.MaxInt64), int64(math.MinInt64), 0
		if err := db.ScanFields(tb, nil, ScanOptions{}, func(rowid int64, _ *Fields) error {
			lo, hi, k = min(lo, rowid), max(hi, rowid), k+1
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		if hi-lo+1 == int64(k) {
			dense++
			if est != n {
				t.Errorf("%s: %d rows of dense rowids, estimated %d", tb.Name, n, est)
			}
			continue
		}
		// the first leaf is typical of a big table, less so of a small one
		low, high := n/2, 3*n
		if n >= 5000 {
			low, high = n*8/10, n*12/10
		}
		if est < low || est > high {
			t.Errorf("%s: %d rows, estimated %d", tb.Name, n, est)
		}
	}
	if deep == 0 || dense == 0 {
		t.Errorf("%d tables of more than one page, %d of them dense: the test checked little", deep, dense)
	}
}

// putVarint appends a SQLite varint.
func putVarint(b []byte, v uint64) []byte {
	if v>>56 != 0 {
		var g [9]byte
		g[8] = byte(v)
		v >>= 8
		for i := 7; i >= 0; i-- {
			g[i] = byte(v&0x7f) | 0x80
			v >>= 7
		}
		return append(b, g[:]...)
	}
	var g []byte
	for {
		g = append([]byte{byte(v & 0x7f)}, g...)
		if v >>= 7; v == 0 {
			break
		}
	}
	for i := range len(g) - 1 {
		g[i] |= 0x80
	}
	return append(b, g...)
}

// encodeRecord makes a record of nil, int64, float64, string (TEXT) and
// []byte (BLOB) values, with the smallest serial types, as SQLite does.
func encodeRecord(vals []any) []byte {
	var types, body []byte
	for _, v := range vals {
		switch v := v.(type) {
		case nil:
			types = putVarint(types, 0)
		case int64:
			switch {
			case v == 0 || v == 1:
				types = putVarint(types, uint64(8+v))
			default:
				st, n := uint64(6), 8
				for _, c := range []struct {
					st uint64
					n  int
				}{{1, 1}, {2, 2}, {3, 3}, {4, 4}, {5, 6}} {
					if lim := int64(1) << (8*c.n - 1); v >= -lim && v < lim {
						st, n = c.st, c.n
						break
					}
				}
				types = putVarint(types, st)
				for i := n - 1; i >= 0; i-- {
					body = append(body, byte(v>>(8*i)))
				}
			}
		case float64:
			types = putVarint(types, 7)
			body = binary.BigEndian.AppendUint64(body, math.Float64bits(v))
		case string:
			types = putVarint(types, uint64(13+2*len(v)))
			body = append(body, v...)
		case []byte:
			types = putVarint(types, uint64(12+2*len(v)))
			body = append(body, v...)
		}
	}
	hs := len(types) + 1
	for len(putVarint(nil, uint64(hs)))+len(types) != hs {
		hs++
	}
	return append(append(putVarint(nil, uint64(hs)), types...), body...)
}

// TestDecodeFieldsTypes decodes records of every serial type (short and
// long headers, long texts) with both decoders, whole and truncated.
func TestDecodeFieldsTypes(t *testing.T) {
	ints := []int64{0, 1, 2, -1, 127, -128, 128, 32767, -32768, 1<<23 - 1, -1 << 23, 1 << 23,
		1<<31 - 1, -1 << 31, 1<<47 - 1, -1 << 47, 1 << 47, math.MaxInt64, math.MinInt64}
	rec1 := []any{nil, 1.5, -2.75e300, "text", []byte{0, 1, 2}, "", []byte{}, string(make([]byte, 300)), math.Inf(-1)}
	for _, v := range ints {
		rec1 = append(rec1, v)
	}
	var rec2 []any // a header of more than 127 bytes
	for i := range 150 {
		rec2 = append(rec2, int64(i*i*1000))
	}
	for _, vals := range [][]any{rec1, rec2, rec1[:1], {}} {
		rec := encodeRecord(vals)
		n := min(len(vals), MaxFields)
		for cut := len(rec); cut >= 0; cut-- {
			// the last n columns, and one more than the record holds
			want := make([]int, len(vals)+1)
			for c := range want {
				want[c] = -1
				if k := c - (len(want) - 1 - n); k >= 0 && k < n {
					want[c] = k
				}
			}
			vs := make([]Value, n)
			errV := decodeWant(rec[:cut], want, vs)
			f, g := new(Fields), new(Fields)
			f.Null = 1<<n - 1
			errF := decodeRecord(rec[:cut], want, nil, f, new(restFit))
			if (errV == nil) != (errF == nil) {
				t.Fatalf("%d fields cut at %d: Values %v, Fields %v", len(vals), cut, errV, errF)
			}
			if errV != nil {
				continue
			}
			for k, v := range vs {
				g.Set(k, v)
			}
			if rowDigest(0, f, n) != rowDigest(0, g, n) {
				t.Fatalf("%d fields cut at %d: the decoders differ", len(vals), cut)
			}
			if cut == len(rec) {
				for k := range n {
					c := len(want) - 1 - n + k
					if c >= len(vals) {
						if vs[k].Type != Null {
							t.Errorf("column %d past the record: %+v", c, vs[k])
						}
						continue
					}
					var got any
					switch vs[k].Type {
					case Integer:
						got = vs[k].I
					case Float:
						got = vs[k].F
					case Text:
						got = string(vs[k].B)
					case Blob:
						got = vs[k].B
					}
					if fmt.Sprint(got) != fmt.Sprint(vals[c]) {
						t.Errorf("column %d: %v, want %v", c, got, vals[c])
					}
				}
			}
		}
	}
}

// TestScanFieldsGate gates every table of the real exports on a middle
// column, keeping its even values: a refused row must read as Scan's row
// cut after that column (the rowid column still the rowid), the others as
// Scan's whole row.
func TestScanFieldsGate(t *testing.T) {
	gated := 0
	eachRealTable(t, func(name string, db *DB, tb *Table, cols []string) {
		k := len(cols) / 2
		keep := func(v int64) bool { return v%2 == 0 }
		var want []uint64
		f := new(Fields)
		err := db.Scan(tb, cols, func(rowid int64, vals []Value) error {
			cut := vals[k].Type == Integer && !tb.Columns[k].RowidKey && !keep(vals[k].I)
			for j, v := range vals {
				if cut && j > k && !tb.Columns[j].RowidKey {
					v = Value{}
				}
				f.Set(j, v)
			}
			want = append(want, rowDigest(rowid, f, len(cols))^uint64(b2i(cut)))
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		var got []uint64
		err = db.ScanFields(tb, cols, ScanOptions{Gate: keep, GateField: k}, func(rowid int64, f *Fields) error {
			gated += b2i(f.Gated)
			got = append(got, rowDigest(rowid, f, len(cols))^uint64(b2i(f.Gated)))
			return nil
		})
		if err != nil || !sameDigests(got, want) {
			t.Errorf("%s %s: gated ScanFields differs from cut Scan rows (%v)", name, tb.Name, err)
		}
	})
	if gated == 0 {
		t.Error("no row was gated")
	}
	db, err := FromBytes(syncDB(t))
	if err != nil {
		t.Fatal(err)
	}
	tb := db.Tables()[0]
	if err := db.ScanFields(tb, columnsOf(tb)[:1], ScanOptions{Gate: func(int64) bool { return true }, GateField: 1}, func(int64, *Fields) error { return nil }); err == nil {
		t.Error("a gate field out of range was accepted")
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestRefusedFirstFastPath: the one-byte-header path of refusedFirst
// answers as the general walk does, on random records of every serial
// type (long ones included, which take the general walk), some cut short.
func TestRefusedFirstFastPath(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for range 20000 {
		ncol := 1 + r.IntN(12)
		var hdr, body []byte
		for range ncol {
			var st uint64
			switch k := r.IntN(10); {
			case k < 7:
				st = uint64(r.IntN(10)) // NULL, integers, REAL, 0, 1
			case k < 9:
				st = uint64(12 + r.IntN(40)) // short blobs and texts
			default:
				st = uint64(12 + r.IntN(400)) // long ones: a two-byte serial type
			}
			if st >= 0x80 {
				hdr = append(hdr, byte(st>>7)|0x80, byte(st&0x7f))
			} else {
				hdr = append(hdr, byte(st))
			}
			size := 0
			if st >= 12 {
				size = int(st-12) / 2
			} else if st < 10 {
				size = []int{0, 1, 2, 3, 4, 6, 8, 8, 0, 0}[st]
			}
			for range size {
				body = append(body, byte(r.Uint32()))
			}
		}
		rec := append(append([]byte{byte(len(hdr) + 1)}, hdr...), body...)
		if r.IntN(5) == 0 {
			rec = rec[:r.IntN(len(rec)+1)]
		}
		if len(rec) == 0 || rec[0] >= 0x80 {
			continue
		}
		g := &gate{col: r.IntN(ncol), keep: func(v int64) bool { return v%3 == 0 }}
		if fast, slow := refusedFirst(rec, g), refusedFirstSlow(rec, g); fast != slow {
			t.Fatalf("% x, column %d: refusedFirst %v, the general walk %v", rec, g.col, fast, slow)
		}
	}
}
