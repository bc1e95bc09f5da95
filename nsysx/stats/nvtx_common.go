package stats

import (
	"hash/maphash"
	"slices"
	"unsafe"
)

// NVTX event types (ENUM_NSYS_EVENT_TYPE) the NVTX reports read.
const (
	nvtxMark          = 34
	nvtxPushPop       = 59
	nvtxStartEnd      = 60
	nvtxTPushPop      = 70
	nvtxTStartEnd     = 71
	nvtxDomainCreate  = 75
	nvtxDomainPIDMask = 0x0000FFFFFF000000 // a range joins its domain on these bits
)

// Range flags.
const (
	nvStartEnd uint8 = 1 << iota // a start/end range (types 60, 71), else push/pop
	nvOpen                       // end is NULL
	nvCross                      // endGlobalTid is set: ended on another thread
	nvNoTid                      // globalTid is NULL
)

// nvtxSel says which NVTX_EVENTS rows become ranges.
type nvtxSel struct {
	pushPop, startEnd bool // types 59/70, types 60/71
	sameThread        bool // only ranges with endGlobalTid NULL
	raw               bool // ignore the filter
	ids               bool // keep globalTid
	rowids            bool // keep rowid (the ranges are in rowid order: comparisons use their index)
}

// nvMax is SQLite's max(max(start), max(end)) over a set of rows: NULL when
// the set is empty or no row has an end.
type nvMax struct {
	start, end       int64
	hasStart, hasEnd bool
}

func (m *nvMax) add(s int64, e int64, eNull bool) {
	if !m.hasStart || s > m.start {
		m.start, m.hasStart = s, true
	}
	if !eNull && (!m.hasEnd || e > m.end) {
		m.end, m.hasEnd = e, true
	}
}

func (m nvMax) merge(o nvMax) nvMax {
	if o.hasStart {
		m.add(o.start, o.end, !o.hasEnd)
	}
	return m
}

// value returns the maximum, ok false for NULL.
func (m nvMax) value() (int64, bool) {
	if !m.hasStart || !m.hasEnd {
		return 0, false
	}
	return max(m.start, m.end), true
}

// nvtxData holds the selected NVTX ranges of a profile, one entry per range in
// rowid order, with names resolved as the NVTX reports resolve them (docs/stats.md §2.9).
type nvtxData struct {
	n          int
	start, end []int64 // end is meaningful unless nvOpen
	flags      []uint8
	pair       []int32 // (domain, text) pair: names come from pairName
	rowid      []int64 // with sel.rowids
	// tid is each range's thread (with sel.ids): an index into threads,
	// the distinct globalTids (4 bytes a range instead of 8: a PyTorch
	// capture holds tens of millions of ranges on a few threads).
	tid     []int32
	threads []int64

	// pairName is each pair's display name "Domain:text", an index into
	// names, the distinct names in the order of their first pairs. Pairs of
	// two domain ids that registered the same name share it. A PyTorch
	// capture holds a million distinct names: each is one string, and the
	// reports group by these ids, not by the strings (docs/performance.md,
	// "Names counted once").
	pairName []int32
	names    []string
	// maxima over every row, the push/pop rows and the start/end rows.
	// They are used only for open ranges (NULL end); when the load has none
	// they may leave out the rows its scan skipped, and maxLater, when not
	// nil, computes them over every row (maxima).
	maxAll, maxPP, maxSE nvMax
	maxLater             func() ([3]nvMax, error)
}

// maxima completes maxAll, maxPP and maxSE over every row of the table, if
// the load left that for later (maxLater).
func (d *nvtxData) maxima() error {
	if d.maxLater == nil {
		return nil
	}
	m, err := d.maxLater()
	if err != nil {
		return err
	}
	d.maxLater = nil
	d.maxAll, d.maxPP, d.maxSE = d.maxAll.merge(m[0]), d.maxPP.merge(m[1]), d.maxSE.merge(m[2])
	return nil
}

// gtid is range i's globalTid (with sel.ids).
func (d *nvtxData) gtid(i int) int64 { return d.threads[d.tid[i]] }

// name returns range i's display name.
func (d *nvtxData) name(i int) string { return d.names[d.pairName[d.pair[i]]] }

// style returns "PushPop" or "StartEnd".
func nvtxStyle(flags uint8) string {
	if flags&nvStartEnd != 0 {
		return "StartEnd"
	}
	return "PushPop"
}

// textTable interns byte strings (NVTX range texts read straight from the
// file) with one hash and, usually, one probe per lookup. Range names recur
// in the same order every iteration of an annotated loop, so the text that
// followed the previous one last time is tried first.
//
// The texts are cut from blocks of memory (arena) rather than allocated one
// by one: a PyTorch capture's autograd ranges are a million texts of 40
// bytes, each of which would be an allocation of its own. Each text is kept
// behind a ':', so that colon gives the display name of a range without a
// domain (":text") without a copy.
type textTable struct {
	seed  maphash.Seed
	slots []textSlot // open addressing, power-of-two size
	strs  []string
	next  []int32 // per text, the text seen after it last time (-1: none)
	last  int32   // the previous text, -1 at first
	arena []byte  // the free end of the current block
}

// textSlot is a slot of the table: 8 bytes, so that the table of a million
// texts is 32 MB, not 64.
type textSlot struct {
	h   uint32 // the hash's high half: the slot and the first comparison
	idx int32  // index+1 into strs; 0 for an empty slot
}

// textArenaBlock is the size of the arena's blocks; a longer text has a
// block of its own.
const textArenaBlock = 256 << 10

// intern returns the index of b's text, adding it when new.
func (t *textTable) intern(b []byte) int32 {
	t.init()
	if k, ok := t.follows(b); ok {
		return k
	}
	return t.found(t.lookup(b, t.hash(b)))
}

// internHashed is intern of b whose hash (t.hash) is h.
func (t *textTable) internHashed(b []byte, h uint32) int32 {
	if k, ok := t.follows(b); ok {
		return k
	}
	return t.found(t.lookup(b, h))
}

func (t *textTable) init() {
	if t.slots == nil {
		t.seed = maphash.MakeSeed()
		t.slots = make([]textSlot, 1024)
		t.last = -1
	}
}

// hash is b's hash in the table (its high half: the slot and the first
// comparison); t must be initialised.
func (t *textTable) hash(b []byte) uint32 { return uint32(maphash.Bytes(t.seed, b) >> 32) }

// follows reports whether b is the text that followed the previous one
// last time, and its index.
func (t *textTable) follows(b []byte) (int32, bool) {
	if t.last >= 0 {
		if n := t.next[t.last]; n >= 0 && t.strs[n] == string(b) {
			t.last = n
			return n, true
		}
	}
	return 0, false
}

// found records text k as the one after the previous text.
func (t *textTable) found(k int32) int32 {
	if t.last >= 0 {
		t.next[t.last] = k
	}
	t.last = k
	return k
}

// textPrefetchSlots is the size of the table from which touch is worth
// its hashing: below it the slots stay in the cache anyway.
const textPrefetchSlots = 1 << 17

// touch reads the slots of the texts of hashes h, many at a time, so that
// their cache misses overlap rather than come one by one as each text is
// looked up (the lookups of a million distinct texts were one miss each).
// It returns a value of the slots only so that the reads are kept.
func (t *textTable) touch(hs []uint32) uint32 {
	mask := uint32(len(t.slots) - 1)
	var acc uint32
	for _, h := range hs {
		acc += t.slots[h&mask].h
	}
	return acc
}

// expect makes room for n texts in all: the slots, the strings and the
// successors, each sized once rather than doubled from small (the rehash of
// every doubling touched each slot again).
func (t *textTable) expect(n int) {
	t.init()
	if n <= len(t.strs) {
		return
	}
	if size := len(t.slots); 2*n > size {
		for size < 2*n {
			size *= 2
		}
		t.rehash(size)
	}
	t.strs = slices.Grow(t.strs, n-len(t.strs))
	t.next = slices.Grow(t.next, n-len(t.next))
}

// colon returns ":" followed by text k.
func (t *textTable) colon(k int32) string {
	s := t.strs[k]
	if s == "" {
		return ":"
	}
	return unsafe.String((*byte)(unsafe.Add(unsafe.Pointer(unsafe.StringData(s)), -1)), len(s)+1)
}

// store copies b into the arena behind a ':' and returns the copy (the
// arena is never written again).
func (t *textTable) store(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	n := len(b) + 1
	if n > len(t.arena) {
		if n > textArenaBlock/8 {
			t.arena = nil
			buf := make([]byte, n)
			buf[0] = ':'
			copy(buf[1:], b)
			return unsafe.String(&buf[1], len(b))
		}
		t.arena = make([]byte, textArenaBlock)
	}
	buf := t.arena[:n:n]
	t.arena = t.arena[n:]
	buf[0] = ':'
	copy(buf[1:], b)
	return unsafe.String(&buf[1], len(b))
}

// lookup finds or adds b, whose hash is h.
func (t *textTable) lookup(b []byte, h uint32) int32 {
	mask := uint32(len(t.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		s := &t.slots[i]
		if s.idx == 0 {
			t.strs = appendDoubling(t.strs, t.store(b))
			t.next = appendDoubling(t.next, -1)
			s.h, s.idx = h, int32(len(t.strs))
			if 2*len(t.strs) > len(t.slots) {
				t.rehash(2 * len(t.slots))
			}
			return int32(len(t.strs) - 1)
		}
		if s.h == h && t.strs[s.idx-1] == string(b) {
			return s.idx - 1
		}
	}
}

// appendDoubling is append(s, v) that doubles s's capacity when s is full.
// append grows a large slice by a quarter, and the copies it leaves behind
// add up to four times the final size: for the arrays of a million NVTX
// names, a hundred MB of garbage that raised the collector's target (and
// the peak RSS) for the rest of the run (docs/performance.md, "Names
// counted once").
func appendDoubling[T any](s []T, v T) []T {
	if len(s) < cap(s) {
		return append(s, v)
	}
	// exactly twice: slices.Grow rounds up to 2.4 times, which the arrays
	// keep to the end
	return append(append(make([]T, 0, max(2*cap(s), 64)), s...), v)
}

// rehash moves the slots into a table of size slots.
func (t *textTable) rehash(size int) {
	old := t.slots
	t.slots = make([]textSlot, size)
	mask := uint32(len(t.slots) - 1)
	for _, s := range old {
		if s.idx == 0 {
			continue
		}
		i := s.h & mask
		for t.slots[i].idx != 0 {
			i = (i + 1) & mask
		}
		t.slots[i] = s
	}
}

// nvtxPrereq runs the checks every NVTX report starts with: StringIds and
// NVTX_EVENTS present (StringIds may be empty: a range's text may be
// inline).
func nvtxPrereq(c *Ctx) (*Result, bool) {
	if r, skip := skipNoStringsTable(c); skip {
		return r, true
	}
	if !c.Has(tNVTX) {
		r, _ := c.Skip(c.Path() + " does not contain NV Tools Extension (NVTX) data.")
		return r, true
	}
	return nil, false
}
