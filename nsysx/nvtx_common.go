package nsysx

import (
	"fmt"
	"hash/maphash"
	"math"
	"strconv"
	"unsafe"

	"github.com/nsysx/nsysx/nsysx/internal/sqlite"
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

// scanner streams the rows of one table in rowid order with the filter's row
// test applied, without materialising columns: NVTX_EVENTS holds millions of
// rows and the NVTX reports need one pass over them.
type scanner struct {
	p     *Profile
	table string
	cols  []string   // wanted columns; absent ones read as NULL
	rf    *rowFilter // nil: every row
}

// rowVals is one row as a scanner delivers it; i is the position in the
// scanner's cols.
type rowVals struct {
	v   []sqlite.Value
	pos []int // wanted column -> index in v, -1 when the table lacks it
}

func (r rowVals) has(i int) bool { return r.pos[i] >= 0 }

func (r rowVals) null(i int) bool {
	p := r.pos[i]
	return p < 0 || r.v[p].Type == sqlite.Null
}

func (r rowVals) int(i int) int64 {
	p := r.pos[i]
	if p < 0 {
		return 0
	}
	switch v := r.v[p]; v.Type {
	case sqlite.Integer:
		return v.I
	case sqlite.Float:
		return int64(v.F)
	case sqlite.Text:
		n, _ := strconv.ParseInt(string(v.B), 10, 64)
		return n
	}
	return 0
}

// bytes returns a text value; it aliases the file and is valid only during
// the callback.
func (r rowVals) bytes(i int) []byte {
	p := r.pos[i]
	if p < 0 {
		return nil
	}
	switch v := r.v[p]; v.Type {
	case sqlite.Text, sqlite.Blob:
		return v.B
	case sqlite.Integer:
		return strconv.AppendInt(nil, v.I, 10)
	case sqlite.Float:
		return []byte(PyFloat(v.F))
	}
	return nil
}

// filteredScanner returns a scanner over table under the context's filter
// (none when raw).
func (c *Ctx) filteredScanner(table string, raw bool, cols ...string) (*scanner, error) {
	sc := &scanner{p: c.P, table: table, cols: cols}
	if c.Filter != nil && !raw {
		st := c.Filter.state(c.P)
		if st.err != nil {
			return nil, st.err
		}
		if st.skip != "" {
			return nil, &SkipError{Msg: st.skip}
		}
		sc.rf = c.Filter.predicate(c.P, st, table)
	}
	return sc, nil
}

// run calls fn for every row that passes the filter.
func (sc *scanner) run(fn func(rowid int64, v rowVals)) error {
	schema := sc.p.Schema(sc.table)
	if schema == nil {
		return &MissingTableError{Table: sc.table}
	}
	var names []string
	pos := make([]int, len(sc.cols))
	find := func(col string) int {
		for j, n := range names {
			if lower(n) == lower(col) {
				return j
			}
		}
		if !sc.p.HasColumn(sc.table, col) {
			return -1
		}
		names = append(names, col)
		return len(names) - 1
	}
	for i, col := range sc.cols {
		pos[i] = find(col)
	}
	ps, pe, pg := -1, -1, -1
	if sc.rf != nil {
		ps, pe = find("start"), find("end")
		if sc.rf.needsThread() {
			if sc.rf.useTid {
				pg = find("globalTid")
			} else {
				pg = find("globalPid")
			}
		}
	}
	keep := func(v []sqlite.Value) bool {
		if sc.rf == nil {
			return true
		}
		s, e := v[ps], v[pe]
		var g sqlite.Value
		if pg >= 0 {
			g = v[pg]
		}
		return sc.rf.keep(s.I, s.Type == sqlite.Null, e.I, e.Type == sqlite.Null, g.I, g.Type == sqlite.Null)
	}
	if src, ok := sc.p.src.(*sqliteSource); ok {
		if t := src.db.Table(sc.table); t != nil {
			return src.db.Scan(t, names, func(rowid int64, v []sqlite.Value) error {
				if keep(v) {
					fn(rowid, rowVals{v, pos})
				}
				return nil
			})
		}
	}
	return sc.runLoaded(names, pos, keep, fn)
}

// runLoaded is run for exports other than SQLite: the columns are loaded and
// replayed as values.
func (sc *scanner) runLoaded(names []string, pos []int, keep func([]sqlite.Value) bool, fn func(int64, rowVals)) error {
	t, err := sc.p.Load(sc.table, names...)
	if err != nil {
		return err
	}
	cols := make([]*Column, len(names))
	for j, n := range names {
		cols[j] = t.Col(n)
	}
	v := make([]sqlite.Value, len(names))
	for i := 0; i < t.N; i++ {
		for j, c := range cols {
			switch {
			case c.IsNull(i):
				v[j] = sqlite.Value{}
			case c.Type == Int:
				v[j] = sqlite.Value{Type: sqlite.Integer, I: c.Ints[i]}
			case c.Type == Float:
				v[j] = sqlite.Value{Type: sqlite.Float, F: c.Floats[i], I: int64(c.Floats[i])}
			default:
				s := c.Strs[i]
				v[j] = sqlite.Value{Type: sqlite.Text, B: unsafe.Slice(unsafe.StringData(s), len(s))}
			}
		}
		if !keep(v) {
			continue
		}
		rowid := int64(i + 1)
		if t.RowIDs != nil {
			rowid = t.RowIDs[i]
		}
		fn(rowid, rowVals{v, pos})
	}
	return nil
}

// nvtxScanCols are the NVTX_EVENTS columns the NVTX reports read, in the
// order rowVals indexes them.
func nvtxScanCols(p *Profile) []string {
	return []string{"start", "end", "eventType", "globalTid", "textId", "text", "domainId", "endGlobalTid"}
}

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
	ids               bool // keep rowid and globalTid
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
// rowid order, with names resolved as the NVTX reports resolve them (§2.9).
type nvtxData struct {
	n          int
	start, end []int64 // end is meaningful unless nvOpen
	flags      []uint8
	pair       []int32 // (domain, text) pair: names come from pairNames
	rowid      []int64 // with sel.ids
	gtid       []int64 // with sel.ids

	// pairNames lists each pair's display names "Domain:text": one per
	// domain creation row the range joins (usually exactly one).
	pairNames [][]string
	// maxima over every row, the push/pop rows and the start/end rows.
	maxAll, maxPP, maxSE nvMax
}

// name returns range i's display name; multi is set when its domain was
// created by several threads, which nsys's R-tree reports reject.
func (d *nvtxData) name(i int) (name string, multi bool) {
	ns := d.pairNames[d.pair[i]]
	return ns[0], len(ns) > 1
}

// style returns "PushPop" or "StartEnd".
func nvtxStyle(flags uint8) string {
	if flags&nvStartEnd != 0 {
		return "StartEnd"
	}
	return "PushPop"
}

// multiDomain reports whether any range joins several domain rows.
func (d *nvtxData) multiDomain() bool {
	for _, ns := range d.pairNames {
		if len(ns) > 1 {
			return true
		}
	}
	return false
}

// nvtxRow is one NVTX_EVENTS row as the loader reads it.
type nvtxRow struct {
	rowid, start, end, typ, gtid, textID, domainID int64
	null                                           uint8 // nvNull* bits
	text                                           []byte
}

// NULL bits of an nvtxRow.
const (
	nvNullEnd uint8 = 1 << iota
	nvNullTid
	nvNullTextID
	nvNullText
	nvNullDomain
	nvNullEndTid
)

// nvtxBatch carries rows from the scanning goroutine to the one building
// the ranges; text bytes are copied into buf, which never grows.
type nvtxBatch struct {
	rows []nvtxRow
	buf  []byte
	hint int // in the first batch: the table's estimated row count, or 0
}

const (
	nvtxBatchRows  = 4096
	nvtxBatchBytes = 256 << 10
)

// nvtxFastPath enables the direct NVTX_EVENTS reader (report_nvtx_scan.go);
// tests turn it off to compare with the generic reader.
var nvtxFastPath = true

// scanNVTX streams NVTX_EVENTS in batches to fn: the scan (decoding the
// file) runs on its own goroutine while fn works on the previous batch.
func (sc *scanner) scanNVTX(fn func(*nvtxBatch)) error {
	full := make(chan *nvtxBatch, 4)
	free := make(chan *nvtxBatch, 6)
	newBatch := func() *nvtxBatch {
		select {
		case b := <-free:
			b.rows, b.buf, b.hint = b.rows[:0], b.buf[:0], 0
			return b
		default:
			return &nvtxBatch{rows: make([]nvtxRow, 0, nvtxBatchRows), buf: make([]byte, 0, nvtxBatchBytes)}
		}
	}
	var scanErr error
	go func() {
		defer close(full)
		defer func() {
			if e := recover(); e != nil {
				scanErr = fmt.Errorf("%w: reading %s: %v", sqlite.ErrCorrupt, sc.table, e)
			}
		}()
		if sc.table == tNVTX && nvtxFastPath {
			if scanErr = fastScanNVTX(sc.p, sc.rf, newBatch, full); scanErr != errNoFastPath {
				return
			}
		}
		cur := newBatch()
		scanErr = sc.run(func(rowid int64, v rowVals) {
			t := v.bytes(5)
			if len(cur.rows) == nvtxBatchRows || len(cur.buf)+len(t) > cap(cur.buf) {
				full <- cur
				cur = newBatch()
			}
			r := nvtxRow{rowid: rowid, start: v.int(0), end: v.int(1), typ: v.int(2), gtid: v.int(3),
				textID: v.int(4), domainID: v.int(6)}
			for k, bit := range [...]uint8{1: nvNullEnd, 3: nvNullTid, 4: nvNullTextID, 5: nvNullText, 6: nvNullDomain, 7: nvNullEndTid} {
				if bit != 0 && v.null(k) {
					r.null |= bit
				}
			}
			if len(t) > cap(cur.buf) { // a text longer than a batch buffer
				r.text = append([]byte(nil), t...)
			} else if r.null&nvNullText == 0 {
				o := len(cur.buf)
				cur.buf = append(cur.buf, t...)
				r.text = cur.buf[o:len(cur.buf):len(cur.buf)]
			}
			cur.rows = append(cur.rows, r)
		})
		if len(cur.rows) > 0 {
			full <- cur
		}
	}()
	for b := range full {
		fn(b)
		select {
		case free <- b:
		default:
		}
	}
	return scanErr
}

// loadNVTX scans NVTX_EVENTS once and returns the selected ranges.
func (c *Ctx) loadNVTX(sel nvtxSel) (*nvtxData, error) {
	sc, err := c.filteredScanner(tNVTX, sel.raw, nvtxScanCols(c.P)...)
	if err != nil {
		return nil, err
	}
	b := &nvtxBuilder{c: c, sel: sel, d: &nvtxData{}, domRows: map[nvGroupKey]*nvDomRow{},
		dkeys: map[nvDomKey]int32{}, byTextID: map[int64]int32{}, lastDK: nvDomKey{-1, -1}}
	if err := sc.scanNVTX(func(batch *nvtxBatch) {
		if batch.hint > 0 && b.d.start == nil {
			b.reserve(batch.hint)
		}
		for i := range batch.rows {
			b.add(&batch.rows[i])
		}
	}); err != nil {
		return nil, err
	}
	b.finish()
	return b.d, nil
}

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
	pairOf   [][]int32 // per domain key + 1, per text: the pair, -1 when none yet
	pairList []uint64  // pair -> domain key + 1 (high half), text (low half)
	lastDK   nvDomKey
	lastDV   int32
}

// reserve sizes the range arrays for n rows, so that millions of ranges
// are not copied again and again as the arrays grow.
func (b *nvtxBuilder) reserve(n int) {
	d := b.d
	d.start, d.end = make([]int64, 0, n), make([]int64, 0, n)
	d.flags, d.pair = make([]uint8, 0, n), make([]int32, 0, n)
	if b.sel.ids {
		d.rowid, d.gtid = make([]int64, 0, n), make([]int64, 0, n)
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
		d.rowid = append(d.rowid, r.rowid)
		d.gtid = append(d.gtid, r.gtid)
	}
}

// text interns a range's text: StringIds(textId), else text, else ”.
func (b *nvtxBuilder) text(r *nvtxRow) int32 {
	if r.null&nvNullTextID == 0 {
		k, ok := b.byTextID[r.textID]
		if !ok {
			k = -1
			if str, found := b.c.P.String(r.textID); found {
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
	for int(dk+1) >= len(b.pairOf) {
		b.pairOf = append(b.pairOf, nil)
	}
	row := b.pairOf[dk+1]
	for int(tk) >= len(row) {
		row = append(row, -1)
	}
	b.pairOf[dk+1] = row
	p := row[tk]
	if p < 0 {
		p = int32(len(b.pairList))
		row[tk] = p
		b.pairList = append(b.pairList, uint64(uint32(dk+1))<<32|uint64(uint32(tk)))
	}
	return p
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
		name, ok = b.c.P.String(r.textID)
	}
	if !ok && r.null&nvNullText == 0 {
		name = string(r.text)
	}
	b.domRows[k] = &nvDomRow{r.start, name}
}

// finish resolves each pair's display names.
func (b *nvtxBuilder) finish() {
	d := b.d
	d.n = len(d.start)
	domNames := make([][]*nvDomRow, len(b.dkeyList))
	for k, r := range b.domRows {
		if dk, ok := b.dkeys[nvDomKey{k.id, k.g & nvtxDomainPIDMask}]; ok {
			domNames[dk] = append(domNames[dk], r)
		}
	}
	d.pairNames = make([][]string, len(b.pairList))
	for i, pk := range b.pairList {
		dk, tk := int32(pk>>32)-1, int32(uint32(pk))
		t := b.texts.strs[tk]
		if dk < 0 || len(domNames[dk]) == 0 {
			d.pairNames[i] = []string{":" + t}
			continue
		}
		for _, r := range domNames[dk] {
			d.pairNames[i] = append(d.pairNames[i], r.name+":"+t)
		}
	}
}

// textTable interns byte strings (NVTX range texts read straight from the
// file) with one hash and, usually, one probe per lookup. Range names recur
// in the same order every iteration of an annotated loop, so the text that
// followed the previous one last time is tried first.
type textTable struct {
	seed  maphash.Seed
	slots []textSlot // open addressing, power-of-two size
	strs  []string
	next  []int32 // per text, the text seen after it last time (-1: none)
	last  int32   // the previous text, -1 at first
}

type textSlot struct {
	h   uint64
	idx int32 // index+1 into strs; 0 for an empty slot
}

// intern returns the index of b's text, adding it when new.
func (t *textTable) intern(b []byte) int32 {
	if t.slots == nil {
		t.seed = maphash.MakeSeed()
		t.slots = make([]textSlot, 1024)
		t.last = -1
	}
	if t.last >= 0 {
		if n := t.next[t.last]; n >= 0 && t.strs[n] == string(b) {
			t.last = n
			return n
		}
	}
	k := t.lookup(b)
	if t.last >= 0 {
		t.next[t.last] = k
	}
	t.last = k
	return k
}

// lookup finds or adds b by hash.
func (t *textTable) lookup(b []byte) int32 {
	h := maphash.Bytes(t.seed, b)
	mask := uint64(len(t.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		s := &t.slots[i]
		if s.idx == 0 {
			t.strs = append(t.strs, string(b))
			t.next = append(t.next, -1)
			s.h, s.idx = h, int32(len(t.strs))
			if 2*len(t.strs) > len(t.slots) {
				t.grow()
			}
			return int32(len(t.strs) - 1)
		}
		if s.h == h && t.strs[s.idx-1] == string(b) {
			return s.idx - 1
		}
	}
}

func (t *textTable) grow() {
	old := t.slots
	t.slots = make([]textSlot, 2*len(old))
	mask := uint64(len(t.slots) - 1)
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

// nvtxInternalError is the error nsys reports when its R-tree temp tables
// reject a range joined to two domain creation rows.
func nvtxInternalError(c *Ctx, table string) error {
	return fmt.Errorf("Report '%s.py' encountered an internal error: UNIQUE constraint failed: %s.rangeId", c.Report.Name, table)
}

// nvtxPrereq runs the checks every NVTX report starts with: StringIds and
// NVTX_EVENTS present.
func (c *Ctx) nvtxPrereq() (*Result, bool) {
	if r, skip := c.skipNoStrings(); skip {
		return r, true
	}
	if !c.Has(tNVTX) {
		r, _ := c.Skip(c.Path() + " does not contain NV Tools Extension (NVTX) data.")
		return r, true
	}
	return nil, false
}

// round1 is Round1 (SQLite's round(x, 1): ties away from zero on the exact
// binary value) without the decimal expansion, for summaries of many
// thousands of groups. With FMA the error of x*10 is known exactly, which
// settles the floor and the tie.
func round1(x float64) float64 {
	if !(math.Abs(x) < 1<<49) { // x*10 must stay an exact float integer
		return Round1(x)
	}
	a := math.Abs(x)
	y := a * 10
	e := math.FMA(a, 10, -y) // a*10 == y+e exactly
	f := math.Floor(y)
	fr := y - f // exact
	n := f
	switch {
	case fr < -e: // a*10 lies just below the integer f: floor f-1, rounds up to f
	case fr-1 >= -e: // at or above f+1
		n = f + 1
	case fr-0.5 >= -e:
		n = f + 1
	}
	r := n / 10
	if x < 0 {
		r = -r
	}
	return r
}

// r1 is R1 with round1.
func r1(v Value) Value {
	switch v.Kind {
	case IntKind:
		return FloatV(float64(v.I)) // an integer needs no rounding
	case FloatKind:
		return FloatV(round1(v.F))
	}
	return v
}

// fastSummary is Agg.Summary (the STATS(d, N) block) with round1.
func fastSummary(a *Agg, grand int64) []Value {
	pct := Null
	if grand != 0 {
		pct = FloatV(round1(float64(a.Total()) * 100.0 / float64(grand)))
	}
	return []Value{pct, a.Sum(), IntV(a.Count()), r1(a.Avg()), r1(a.Median()), a.Min(), a.Max(), r1(a.Stdev())}
}
