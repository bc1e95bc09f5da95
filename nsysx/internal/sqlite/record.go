package sqlite

import (
	"encoding/binary"
	"fmt"
	"math"
)

// Record decoding: varints, the record header, and the fields a scan asks for.

// varint decodes a SQLite varint; n is 0 if b is too short. A one-byte
// varint is decoded inline, longer ones by varintLong.
func varint(b []byte) (uint64, int) {
	if len(b) > 0 && b[0] < 0x80 {
		return uint64(b[0]), 1
	}
	return varintLong(b)
}

// varintLong is varint for any length; with 9 bytes or more at hand its
// loop runs without bounds checks.
func varintLong(b []byte) (uint64, int) {
	if len(b) < 9 {
		return varintShort(b)
	}
	b = b[:9]
	var v uint64
	for i := 0; i < 8; i++ {
		c := b[i]
		v = v<<7 | uint64(c&0x7f)
		if c < 0x80 {
			return v, i + 1
		}
	}
	return v<<8 | uint64(b[8]), 9
}

// varintShort is varint for fewer than 9 bytes.
func varintShort(b []byte) (uint64, int) {
	var v uint64
	for i := range b {
		v = v<<7 | uint64(b[i]&0x7f)
		if b[i] < 0x80 {
			return v, i + 1
		}
	}
	return 0, 0
}

// decodeAll decodes the first n fields of a record (missing ones are NULL).
func decodeAll(rec []byte, n int) ([]Value, error) {
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	out := make([]Value, n)
	return out, decodeInto(rec, idx, out)
}

// decodeInto decodes the fields at the given positions into out. Fields past
// the end of the record are NULL.
func decodeInto(rec []byte, idx []int, out []Value) error {
	maxIdx := -1
	for _, c := range idx {
		maxIdx = max(maxIdx, c)
	}
	want := make([]int, maxIdx+1)
	for i := range want {
		want[i] = -1
	}
	for j, c := range idx {
		want[c] = j
	}
	return decodeWant(rec, want, out)
}

// header walks the fields of a record: the serial types of its header and
// the bytes of its body. It is a value that its functions return updated
// (h, st, ok = h.next(rec)) rather than change through a pointer, so that
// it stays in registers in the decoding loops, and the record is passed to
// each of them rather than kept, for the same reason.
type header struct {
	hp, hs int // the next serial type, the end of the header
	lo     int // the current field's bytes are rec[lo:body]
	body   int // the next field's bytes
}

var errBadHeader = fmt.Errorf("%w: bad record header", ErrCorrupt)

// startHeader starts on a record whose header size is one byte (a record of
// fewer than about 120 columns); when it is false, startHeaderSlow does the
// work. (The split keeps it within the inliner's budget.)
func startHeader(rec []byte) (header, bool) {
	if len(rec) == 0 || rec[0] == 0 || rec[0] >= 0x80 || int(rec[0]) > len(rec) {
		return header{}, false
	}
	hs := int(rec[0])
	return header{hp: 1, hs: hs, body: hs}, true
}

// startHeaderSlow is startHeader for any header size; it is false for a bad
// header.
func startHeaderSlow(rec []byte) (header, bool) {
	hsize, n := varint(rec)
	if n == 0 || hsize > uint64(len(rec)) || int(hsize) < n {
		return header{}, false
	}
	return header{hp: n, hs: int(hsize), body: int(hsize)}, true
}

// more reports whether the header has another field.
func (h header) more() bool { return h.hp < h.hs }

// serialSize is the body size of each one-byte serial type; -1 for the
// reserved 10 and 11.
var serialSize = func() (t [128]int8) {
	for st := range t {
		switch {
		case st <= 4:
			t[st] = int8(st)
		case st == 5:
			t[st] = 6
		case st == 6 || st == 7:
			t[st] = 8
		case st == 8 || st == 9:
			t[st] = 0
		case st >= 12:
			t[st] = int8((st - 12) / 2)
		default:
			t[st] = -1
		}
	}
	return t
}()

// next moves to the next field (more must be true) when its serial type is
// one byte long and its bytes lie within the record, and returns the type;
// its bytes are then rec[lo:body]. Otherwise it returns false and nextSlow
// does the work. (The split keeps next within the inliner's budget.)
func (h header) next(rec []byte) (header, uint64, bool) {
	c := rec[h.hp]
	sz := int(serialSize[c&0x7f])
	if c >= 0x80 || sz < 0 || sz > len(rec)-h.body {
		return h, 0, false
	}
	return header{hp: h.hp + 1, hs: h.hs, lo: h.body, body: h.body + sz}, uint64(c), true
}

// nextSlow is next for any serial type (the long ones are texts and blobs
// of 58 bytes or more); it is false for a corrupt record.
func (h header) nextSlow(rec []byte) (header, uint64, bool) {
	st, k := varint(rec[h.hp:h.hs])
	var sz uint64
	switch {
	case k == 0:
		return h, 0, false
	case st >= 12:
		sz = (st - 12) / 2
	case serialSize[st] >= 0:
		sz = uint64(serialSize[st])
	default:
		return h, 0, false
	}
	if sz > uint64(len(rec)-h.body) {
		return h, 0, false
	}
	return header{hp: h.hp + k, hs: h.hs, lo: h.body, body: h.body + int(sz)}, st, true
}

var errBadField = fmt.Errorf("%w: bad record field", ErrCorrupt)

var errRecordSize = fmt.Errorf("%w: a record whose header does not match its size (the fields its serial types declare do not fill the record)", ErrCorrupt)

// fits walks the rest of the header from h and reports whether the
// fields of all its serial types end where the record does: SQLite writes
// a record as its header and exactly those fields. A header whose size was
// damaged ends early or late, and its fields would be read from the wrong
// bytes, or as NULLs. It costs a table lookup and an add per remaining
// column (bodySize), only for records that are decoded.
func (h header) fits(rec []byte) bool {
	body := uint64(h.body)
	for _, c := range rec[h.hp:h.hs] {
		body += bodySize[c]
	}
	if body < 1<<32 {
		return body == uint64(len(rec))
	}
	// a serial type of two bytes or more (a text or blob of 58 bytes or
	// more), or a reserved one
	body, hp := uint64(h.body), h.hp
	for hp < h.hs {
		st, k := varint(rec[hp:h.hs])
		switch {
		case k == 0 || st < 12 && serialSize[st] < 0:
			return false
		case st >= 12:
			if body += (st - 12) / 2; body > uint64(len(rec)) {
				return false
			}
		default:
			body += uint64(serialSize[st])
		}
		hp += k
	}
	return body == uint64(len(rec))
}

// restFit keeps, for a scan into Fields, the serial types that followed
// the decoded columns in the last record (up to 16, as two words) and the
// bytes their fields take. A table's records mostly end in the same serial
// types (NULLs, small integers), so the check that a record's fields fill
// it (fits) is then two loads and a compare instead of a walk: the walk
// was a tenth of BenchmarkScanFields.
type restFit struct {
	w    [2]uint64
	n    int // the serial types' bytes; 0: none kept
	body int
}

// fitsRest is h.fits(rec) through the last record's answer r.
func (h header) fitsRest(rec []byte, r *restFit) bool {
	n := h.hs - h.hp
	if n == 0 || n > 16 || h.hp+16 > len(rec) {
		return h.fits(rec)
	}
	w0 := binary.LittleEndian.Uint64(rec[h.hp:])
	w1 := binary.LittleEndian.Uint64(rec[h.hp+8:])
	if n < 8 {
		w0, w1 = w0&(1<<(8*n)-1), 0
	} else {
		w1 &= 1<<(8*(n-8)) - 1
	}
	if n != r.n || w0 != r.w[0] || w1 != r.w[1] {
		var body uint64
		for _, c := range rec[h.hp:h.hs] {
			body += bodySize[c]
		}
		if body >= 1<<32 {
			return h.fits(rec)
		}
		*r = restFit{w: [2]uint64{w0, w1}, n: n, body: int(body)}
	}
	return h.body+r.body == len(rec)
}

// bodySize is serialSize for every byte of a header, as a uint64 to add up:
// 1<<32 for the bytes that are not a one-byte serial type (the reserved 10
// and 11, and the bytes of longer varints), so that a sum of 1<<32 or more
// says to walk the header with varint.
var bodySize = func() (t [256]uint64) {
	for c := range t {
		if c < 0x80 && serialSize[c] >= 0 {
			t[c] = uint64(serialSize[c])
		} else {
			t[c] = 1 << 32
		}
	}
	return t
}()

// intField decodes an integer serial type (1 to 6, 8, 9) from its bytes.
func intField(st uint64, b []byte) int64 {
	switch len(b) {
	case 0:
		return int64(st) - 8
	case 1:
		return int64(int8(b[0]))
	case 2:
		return int64(int16(binary.BigEndian.Uint16(b)))
	case 3:
		return int64(int8(b[0]))<<16 | int64(binary.BigEndian.Uint16(b[1:]))
	case 4:
		return int64(int32(binary.BigEndian.Uint32(b)))
	case 6:
		return int64(int16(binary.BigEndian.Uint16(b)))<<32 | int64(binary.BigEndian.Uint32(b[2:]))
	}
	return int64(binary.BigEndian.Uint64(b))
}

// decodeWant decodes a record; want[col] is the output slot of column col, or
// -1 when the column is not wanted (len(want) bounds the columns read).
func decodeWant(rec []byte, want []int, out []Value) error {
	return decodeRecord(rec, want, out, nil, nil)
}

// decodeRecord is the decoding loop of every scan: it decodes the wanted
// fields of a record into out, as Values, or, when f is not nil, into f,
// whose masks the caller has reset (the Null bits set), with rest the
// scan's record-size cache (restFit). want[col] is the
// slot of column col, or -1 when it is not wanted; len(want) bounds the
// columns read. Columns past the end of the record are NULL.
func decodeRecord(rec []byte, want []int, out []Value, f *Fields, rest *restFit) error {
	h, ok := startHeader(rec)
	if !ok {
		if h, ok = startHeaderSlow(rec); !ok {
			return errBadHeader
		}
	}
	if f != nil {
		return decodeFields(rec, h, want, f, rest)
	}
	return decodeValues(rec, h, want, out)
}

// decodeFields is decodeRecord into f.
func decodeFields(rec []byte, h header, want []int, f *Fields, rest *restFit) error {
	h, col, err := decodeSpan(rec, h, want, 0, len(want), f)
	nullFrom(want, col, f)
	if err == nil && !h.fitsRest(rec, rest) {
		return errRecordSize
	}
	return err
}

// nullFrom zeroes the integers of the fields of columns col and later (their
// Null bits are already set).
func nullFrom(want []int, col int, f *Fields) {
	for ; col < len(want); col++ {
		if j := want[col]; j >= 0 {
			f.I[j&(MaxFields-1)] = 0
		}
	}
}

// decodeSpan decodes into f the wanted fields of columns col to end-1, h
// being at column col; it returns the header and the column where it
// stopped (before end when the record has fewer fields). An integer of 1
// to 8 bytes is read as one 8-byte load when the record holds 8 bytes
// from it, its sign extended by an arithmetic shift.
func decodeSpan(rec []byte, h header, want []int, col, end int, f *Fields) (header, int, error) {
	full := rec // never read past the record: it may end its mapping
	for ; col < end && h.more(); col++ {
		var st uint64
		var ok bool
		if h, st, ok = h.next(rec); !ok {
			if h, st, ok = h.nextSlow(rec); !ok {
				return h, col, errBadField
			}
		}
		j := want[col]
		if j < 0 {
			continue
		}
		j &= MaxFields - 1
		bit := uint32(1) << j
		switch {
		case st == 0:
			f.I[j] = 0
			continue
		case st <= 7:
			var u uint64
			if h.lo+8 <= len(full) {
				u = binary.BigEndian.Uint64(full[h.lo:])
			} else {
				u = uint64(intField(st, rec[h.lo:h.body])) << (64 - 8*(h.body-h.lo))
			}
			if st == 7 {
				v := math.Float64frombits(u)
				f.I[j], f.F[j], f.Real = int64(v), v, f.Real|bit
			} else {
				f.I[j] = int64(u) >> (64 - 8*(h.body-h.lo))
			}
		case st == 8 || st == 9:
			f.I[j] = int64(st) - 8
		case st&1 == 0:
			f.I[j], f.B[j], f.Blob = 0, rec[h.lo:h.body], f.Blob|bit
		default:
			f.I[j], f.B[j], f.Text = 0, rec[h.lo:h.body], f.Text|bit
		}
		f.Null &^= bit
	}
	return h, col, nil
}

// gate is ScanOptions' Gate: col is the table column of the gated field,
// k its index among the fields.
type gate struct {
	col, k  int
	keep    func(int64) bool
	first   bool     // GateFirst
	refuses []uint64 // refusedTable's bits, once made
}

// gateTableValues is how many small values (0 to 4095) a GateFirst gate
// asks keep about once, before the scan, so that the leaf loop looks a
// refused record's field up in a bit table instead of calling keep: the
// event types, string ids and memory kinds that the gates test are small
// numbers. ScanOptions.Gate must therefore answer the same for a value
// every time (a predicate of the value alone).
const gateTableValues = 4096

// refusedTable returns the gate's table: bit v is set when keep refuses v,
// for 0 <= v < gateTableValues.
func (g *gate) refusedTable() []uint64 {
	if g.refuses == nil {
		t := make([]uint64, gateTableValues/64)
		for v := range gateTableValues {
			if !g.keep(int64(v)) {
				t[v>>6] |= 1 << (v & 63)
			}
		}
		g.refuses = t
	}
	return g.refuses
}

// decodeGated is decodeRecord into f with a gate: the columns up to the
// gate's, then, when its field is not an INTEGER that keep refuses, the
// rest; otherwise f.Gated is set and the fields of later columns are NULL.
func decodeGated(rec []byte, want []int, g *gate, f *Fields, rest *restFit) error {
	h, ok := startHeader(rec)
	if !ok {
		if h, ok = startHeaderSlow(rec); !ok {
			return errBadHeader
		}
	}
	h, col, err := decodeSpan(rec, h, want, 0, g.col+1, f)
	bit := uint32(1) << g.k
	if err == nil && col == g.col+1 && (f.Null|f.Text|f.Blob|f.Real)&bit == 0 && !g.keep(f.I[g.k]) {
		f.Gated = true
	} else if err == nil {
		h, col, err = decodeSpan(rec, h, want, col, len(want), f)
		if err == nil && !h.fitsRest(rec, rest) {
			err = errRecordSize
		}
	}
	nullFrom(want, col, f)
	return err
}

// refusedFirst walks the record's header to the gated column and reports
// whether its field is an INTEGER that the gate refuses; a record that
// ends first, a field of another class or a corrupt header is not
// refused (decodeGated then decodes it and finds what is wrong).
func refusedFirst(rec []byte, g *gate) bool {
	// most records: a one-byte header size and one-byte serial types up to
	// the gated column, whose field starts at the header's size plus the
	// sizes of the fields before it
	if n := g.col + 2; n <= len(rec) && rec[0] < 0x80 && int(rec[0]) >= n {
		off := int(rec[0])
		for _, c := range rec[1 : n-1] {
			sz := serialSize[c&0x7f]
			if c >= 0x80 || sz < 0 {
				return refusedFirstSlow(rec, g)
			}
			off += int(sz)
		}
		switch st := rec[n-1]; {
		case st >= 0x80:
			return refusedFirstSlow(rec, g)
		case st == 0 || st == 7 || st > 9:
			return false
		case off+int(serialSize[st]) > len(rec):
			return false
		default:
			return !g.keep(intField(uint64(st), rec[off:off+int(serialSize[st])]))
		}
	}
	return refusedFirstSlow(rec, g)
}

// refusedFirstSlow is refusedFirst for any record.
func refusedFirstSlow(rec []byte, g *gate) bool {
	h, ok := startHeader(rec)
	if !ok {
		if h, ok = startHeaderSlow(rec); !ok {
			return false
		}
	}
	var st uint64
	for col := 0; col <= g.col; col++ {
		if !h.more() {
			return false
		}
		if h, st, ok = h.next(rec); !ok {
			if h, st, ok = h.nextSlow(rec); !ok {
				return false
			}
		}
	}
	if st == 0 || st == 7 || st > 9 {
		return false
	}
	return !g.keep(intField(st, rec[h.lo:h.body]))
}

// decodeValues is decodeRecord into out.
func decodeValues(rec []byte, h header, want []int, out []Value) error {
	col := 0
	for ; col < len(want) && h.more(); col++ {
		var st uint64
		var ok bool
		if h, st, ok = h.next(rec); !ok {
			if h, st, ok = h.nextSlow(rec); !ok {
				return errBadField
			}
		}
		j := want[col]
		if j < 0 {
			continue
		}
		b := rec[h.lo:h.body]
		switch {
		case st == 0:
			out[j] = Value{}
		case st <= 6 || st == 8 || st == 9:
			out[j] = Value{Type: Integer, I: intField(st, b)}
		case st == 7:
			out[j] = Value{Type: Float, F: math.Float64frombits(binary.BigEndian.Uint64(b))}
		case st&1 == 0:
			out[j] = Value{Type: Blob, B: b}
		default:
			out[j] = Value{Type: Text, B: b}
		}
	}
	for ; col < len(want); col++ {
		if j := want[col]; j >= 0 {
			out[j] = Value{}
		}
	}
	if !h.fits(rec) {
		return errRecordSize
	}
	return nil
}
