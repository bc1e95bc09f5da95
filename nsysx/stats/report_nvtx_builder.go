package stats

import (
	"slices"
	"sync/atomic"
	"unsafe"
)

// The builder of the NVTX loader (report_nvtx_load.go): rows of NVTX_EVENTS
// in, the selected ranges in columns out, texts interned and domains resolved.

// nvDomRow is a domain creation: GROUP BY domainId, globalTid, the name
// taken from the earliest row.
type nvDomRow struct {
	start int64
	name  string
}

type nvGroupKey struct{ id, g int64 }

// nvDomKey is what a range joins its domain on: domainId and PID bits.
type nvDomKey struct{ id, pidBits int64 }

// nvtxBuilder turns NVTX_EVENTS rows into an nvtxData.
type nvtxBuilder struct {
	c        *Ctx
	sel      nvtxSel
	d        *nvtxData
	domRows  map[nvGroupKey]*nvDomRow
	dkeys    map[nvDomKey]int32
	dkeyList []nvDomKey
	texts    textTable
	byTextID map[int64]int32
	// the pairs: pairList[p] is pair p's domain key + 1 (high half) and
	// text (low half); textPair[t] is text t's latest pair (-1: none yet)
	// and pairNext[p] the pair of the same text before p (-1: none). Most
	// texts have one pair: 8 bytes a text rather than a row of texts per
	// domain key.
	pairList []uint64
	textPair []int32
	pairNext []int32
	// Until a text meets a second domain key, or a pair is not of the
	// next text, the pairs are only counted: onePairs pairs of domain key
	// oneDK, pair p of text p. A profile of ranges of one domain (most
	// have none) then needs no pair arrays.
	manyPairs       bool
	onePairs, oneDK int32
	lastDK          nvDomKey
	lastDV          int32
	tids            map[int64]int32 // globalTid -> index into d.threads
	lastT           int32           // the last thread's index
	// hint is the rows the table is expected to hold (0: unknown);
	// expected says whether the texts were sized from it (addRows), and
	// textsExpected is the texts they were sized for (0: none).
	hint          int
	expected      bool
	textsExpected int
	hashes        []uint32 // addRows's scratch
}

// nvtxTouchRows is how many rows addRows hashes and touches at a time: their
// slots of the text table stay in the cache until the rows are added.
const nvtxTouchRows = 256

// addRows adds rows. When the text table is large (a capture of many
// distinct names), each run of nvtxTouchRows rows first has its inline
// texts hashed and their slots touched, so that the slots' cache misses
// overlap instead of stalling each lookup in turn; and once the table has
// 64 Ki texts, if most ranges so far had a text of their own, the table is
// sized for the texts the rest of the rows should bring at that rate
// (expectTexts): one rehash rather than one per doubling.
func (b *nvtxBuilder) addRows(rows []nvtxRow) {
	t := &b.texts
	for lo := 0; lo < len(rows); lo += nvtxTouchRows {
		run := rows[lo:min(lo+nvtxTouchRows, len(rows))]
		if len(t.slots) >= textPrefetchSlots {
			hs := b.hashes[:0]
			for i := range run {
				r := &run[i]
				if r.null&(nvNullTextID|nvNullText) == nvNullTextID { // an inline text
					r.hash, r.hashed = t.hash(r.text), true
					hs = append(hs, r.hash)
				}
			}
			b.hashes = hs
			touchSink.Add(t.touch(hs))
		}
		for i := range run {
			b.add(&run[i])
		}
		if !b.expected && len(t.strs) >= 1<<16 {
			b.expectTexts()
		}
	}
}

// touchSink keeps the value of the slots addRows touches.
var touchSink atomic.Uint32

// expectTexts sizes the text table for the ranges still to come (hint)
// when at least half of the ranges so far brought a text of their own:
// the texts so far, scaled by the rows expected over the rows kept so far,
// and 1/16 more; the pairs' arrays too, once there are any (spreadPairs).
// The estimate scales what was seen: it is in proportion to the distinct
// texts, not the ranges.
func (b *nvtxBuilder) expectTexts() {
	b.expected = true
	texts, seen := len(b.texts.strs), len(b.d.start)
	if b.hint <= seen || 2*texts < seen {
		return
	}
	n := int(int64(texts) * int64(b.hint) / int64(seen))
	b.textsExpected = n + n/16
	b.texts.expect(b.textsExpected)
	if b.manyPairs { // and a pair each, most of them
		grow := func(n int) int { return max(b.textsExpected-n, 0) }
		b.pairList = slices.Grow(b.pairList, grow(len(b.pairList)))
		b.pairNext = slices.Grow(b.pairNext, grow(len(b.pairNext)))
		b.textPair = slices.Grow(b.textPair, grow(len(b.textPair)))
	}
}

// reserve sizes the range arrays for n rows, so that millions of ranges
// are not copied again and again as the arrays grow.
func (b *nvtxBuilder) reserve(n int) {
	b.hint = n
	d := b.d
	d.start, d.end = make([]int64, 0, n), make([]int64, 0, n)
	d.flags, d.pair = make([]uint8, 0, n), make([]int32, 0, n)
	if b.sel.ids {
		d.tid = make([]int32, 0, n)
	}
	if b.sel.rowids {
		d.rowid = make([]int64, 0, n)
	}
}

func (b *nvtxBuilder) add(r *nvtxRow) {
	d, sel := b.d, b.sel
	eNull := r.null&nvNullEnd != 0
	d.maxAll.add(r.start, r.end, eNull)
	var fl uint8
	switch r.typ {
	case nvtxPushPop, nvtxTPushPop:
		d.maxPP.add(r.start, r.end, eNull)
		if !sel.pushPop {
			return
		}
	case nvtxStartEnd, nvtxTStartEnd:
		d.maxSE.add(r.start, r.end, eNull)
		if !sel.startEnd {
			return
		}
		fl = nvStartEnd
	case nvtxDomainCreate:
		b.addDomain(r)
		return
	default:
		return
	}
	if r.null&nvNullEndTid == 0 {
		if sel.sameThread {
			return
		}
		fl |= nvCross
	}
	if eNull {
		fl |= nvOpen
	}
	if r.null&nvNullTid != 0 {
		fl |= nvNoTid
	}
	tk := b.text(r)
	dk := int32(-1)
	if r.null&(nvNullDomain|nvNullTid) == 0 {
		k := nvDomKey{r.domainID, r.gtid & nvtxDomainPIDMask}
		if k == b.lastDK {
			dk = b.lastDV
		} else {
			var ok bool
			if dk, ok = b.dkeys[k]; !ok {
				dk = int32(len(b.dkeyList))
				b.dkeys[k] = dk
				b.dkeyList = append(b.dkeyList, k)
			}
			b.lastDK, b.lastDV = k, dk
		}
	}
	d.start = append(d.start, r.start)
	d.end = append(d.end, r.end)
	d.flags = append(d.flags, fl)
	d.pair = append(d.pair, b.pair(dk, tk))
	if sel.ids {
		d.tid = append(d.tid, b.thread(r.gtid))
	}
	if sel.rowids {
		d.rowid = append(d.rowid, r.rowid)
	}
}

// thread is the index of globalTid g in d.threads, added when new.
func (b *nvtxBuilder) thread(g int64) int32 {
	d := b.d
	if n := len(d.threads); n > 0 && d.threads[b.lastT] == g {
		return b.lastT
	}
	k, ok := b.tids[g]
	if !ok {
		if b.tids == nil {
			b.tids = map[int64]int32{}
		}
		k = int32(len(d.threads))
		b.tids[g] = k
		d.threads = append(d.threads, g)
	}
	b.lastT = k
	return k
}

// text interns a range's text: StringIds(textId), else text, else empty.
func (b *nvtxBuilder) text(r *nvtxRow) int32 {
	if r.hashed { // an inline text, hashed by addRows
		return b.texts.internHashed(r.text, r.hash)
	}
	if r.null&nvNullTextID == 0 {
		k, ok := b.byTextID[r.textID]
		if !ok {
			k = -1
			if str, found := b.c.String(r.textID); found {
				k = b.texts.intern(unsafe.Slice(unsafe.StringData(str), len(str)))
			}
			b.byTextID[r.textID] = k
		}
		if k >= 0 {
			return k
		}
	}
	return b.texts.intern(r.text)
}

// pair returns the (domain, text) pair id.
func (b *nvtxBuilder) pair(dk, tk int32) int32 {
	if !b.manyPairs {
		if b.onePairs == 0 {
			b.oneDK = dk
		}
		if dk == b.oneDK && tk <= b.onePairs {
			if tk == b.onePairs {
				b.onePairs++
			}
			return tk
		}
		b.spreadPairs()
	}
	for int(tk) >= len(b.textPair) {
		b.textPair = appendDoubling(b.textPair, -1)
	}
	key := uint64(uint32(dk+1))<<32 | uint64(uint32(tk))
	for p := b.textPair[tk]; p >= 0; p = b.pairNext[p] {
		if b.pairList[p] == key {
			return p
		}
	}
	p := int32(len(b.pairList))
	b.pairList = appendDoubling(b.pairList, key)
	b.pairNext = appendDoubling(b.pairNext, b.textPair[tk])
	b.textPair[tk] = p
	return p
}

// spreadPairs turns the counted pairs into the pair arrays.
func (b *nvtxBuilder) spreadPairs() {
	n := b.onePairs
	c := max(2*int(n), b.textsExpected) // most texts have one pair
	b.pairList = make([]uint64, n, c)
	b.pairNext = make([]int32, n, c)
	b.textPair = make([]int32, n, c)
	for p := range n {
		b.pairList[p] = b.pairKey(p)
		b.pairNext[p], b.textPair[p] = -1, p
	}
	b.manyPairs = true
}

// pairs is the number of pairs.
func (b *nvtxBuilder) pairs() int {
	if !b.manyPairs {
		return int(b.onePairs)
	}
	return len(b.pairList)
}

// pairKey is pair p's domain key + 1 (high half) and text (low half).
func (b *nvtxBuilder) pairKey(p int32) uint64 {
	if !b.manyPairs {
		return uint64(uint32(b.oneDK+1))<<32 | uint64(uint32(p))
	}
	return b.pairList[p]
}

func (b *nvtxBuilder) addDomain(r *nvtxRow) {
	if r.null&(nvNullDomain|nvNullTid) != 0 {
		return
	}
	k := nvGroupKey{r.domainID, r.gtid}
	if dr := b.domRows[k]; dr != nil && dr.start <= r.start {
		return
	}
	// coalesce(StringIds(textId), text); a NULL name joins as ''.
	name, ok := "", false
	if r.null&nvNullTextID == 0 {
		name, ok = b.c.String(r.textID)
	}
	if !ok && r.null&nvNullText == 0 {
		name = string(r.text)
	}
	b.domRows[k] = &nvDomRow{r.start, name}
}

// finish resolves each pair's display name.
func (b *nvtxBuilder) finish() {
	d := b.d
	d.n = len(d.start)
	domNames := make([][]*nvDomRow, len(b.dkeyList))
	for k, r := range b.domRows {
		if dk, ok := b.dkeys[nvDomKey{k.id, k.g & nvtxDomainPIDMask}]; ok {
			domNames[dk] = append(domNames[dk], r)
		}
	}
	// A domain id registered by several threads of one process names its
	// ranges once, after the earliest registration (nsys joins every
	// registration, double counting in summaries and failing in the R-tree
	// reports: see README, differences from nsys).
	prefix := make([]string, len(b.dkeyList)) // "" without a registration
	for dk, rs := range domNames {
		if len(rs) == 0 {
			continue
		}
		first := rs[0]
		for _, r := range rs[1:] {
			if r.start < first.start || (r.start == first.start && r.name < first.name) {
				first = r
			}
		}
		prefix[dk] = first.name
	}
	if b.plainNames(prefix) {
		return
	}
	nm := newNameIDs(d, &b.texts, prefix)
	d.names = make([]string, 0, b.pairs()) // no more names than pairs
	d.pairName = make([]int32, b.pairs())
	for i := range d.pairName {
		pk := b.pairKey(int32(i))
		dk, tk := int32(pk>>32)-1, int32(uint32(pk))
		p := ""
		if dk >= 0 {
			p = prefix[dk]
		}
		d.pairName[i] = nm.id(p, tk)
	}
}

// plainNames sets d.names and d.pairName when pair k is text k for every
// k and no pair has a domain name, as in a profile of ranges without
// domains: name k is then ":" + text k, and the texts' array becomes the
// names' (no second array of a million strings).
func (b *nvtxBuilder) plainNames(prefix []string) bool {
	strs := b.texts.strs
	if b.pairs() != len(strs) {
		return false
	}
	for i := range strs {
		pk := b.pairKey(int32(i))
		if dk := int32(pk>>32) - 1; int(uint32(pk)) != i || dk >= 0 && prefix[dk] != "" {
			return false
		}
	}
	d := b.d
	d.pairName = make([]int32, len(strs))
	for i := range strs {
		strs[i] = b.texts.colon(int32(i))
		d.pairName[i] = int32(i)
	}
	d.names, b.texts.strs = strs, nil
	return true
}

// nameIDs numbers the display names "prefix:text" of the pairs in d.names.
// Usually a name is known by its prefix and text index, without building
// the string to look it up: two pairs spell one name only with the same
// prefix and text, unless a prefix followed by ':' begins another prefix
// ("a" and "a:b"), and then the names are looked up by string.
type nameIDs struct {
	d      *nvtxData
	texts  *textTable
	prefix map[string]int32 // prefix -> index into byText
	byText [][]int32        // per prefix, per text: the name id, -1 for none yet
	byName map[string]int32 // when two prefixes can spell one name
}

func newNameIDs(d *nvtxData, texts *textTable, prefixes []string) *nameIDs {
	nm := &nameIDs{d: d, texts: texts, prefix: map[string]int32{"": 0}}
	for _, p := range prefixes {
		if _, ok := nm.prefix[p]; !ok {
			nm.prefix[p] = int32(len(nm.prefix))
		}
	}
	nm.byText = make([][]int32, len(nm.prefix))
	for p := range nm.prefix {
		for q := range nm.prefix {
			if len(q) > len(p) && q[len(p)] == ':' && q[:len(p)] == p {
				nm.byName = map[string]int32{}
			}
		}
	}
	return nm
}

// id returns the id of the name prefix:text tk, adding it when new.
func (nm *nameIDs) id(p string, tk int32) int32 {
	name := func() string {
		if p == "" {
			return nm.texts.colon(tk) // no copy
		}
		return p + nm.texts.colon(tk)
	}
	d := nm.d
	if nm.byName != nil {
		s := name()
		id, ok := nm.byName[s]
		if !ok {
			id = int32(len(d.names))
			nm.byName[s] = id
			d.names = append(d.names, s)
		}
		return id
	}
	k := nm.prefix[p]
	row := nm.byText[k]
	if row == nil {
		row = make([]int32, len(nm.texts.strs))
		for i := range row {
			row[i] = -1
		}
		nm.byText[k] = row
	}
	if row[tk] < 0 {
		row[tk] = int32(len(d.names))
		d.names = append(d.names, name())
	}
	return row[tk]
}
