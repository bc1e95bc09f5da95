package nsysx

import (
	"fmt"
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

// loadNVTX scans NVTX_EVENTS once and returns the selected ranges.
func (c *Ctx) loadNVTX(sel nvtxSel) (*nvtxData, error) {
	sc, err := c.filteredScanner(tNVTX, sel.raw, nvtxScanCols(c.P)...)
	if err != nil {
		return nil, err
	}
	d := &nvtxData{}
	type domRow struct {
		start int64
		name  string
		null  bool
	}
	type gkey struct{ id, g int64 }
	domRows := map[gkey]*domRow{} // GROUP BY domainId, globalTid
	type dkey struct{ id, pidBits int64 }
	dkeys := map[dkey]int32{}
	var dkeyList []dkey
	texts := map[string]int32{}
	var textList []string
	byTextID := map[int64]int32{}
	pairs := map[uint64]int32{}
	var pairList []uint64
	intern := func(b []byte) int32 {
		if k, ok := texts[string(b)]; ok {
			return k
		}
		k := int32(len(textList))
		s := string(b)
		texts[s] = k
		textList = append(textList, s)
		return k
	}
	lastDK, lastDV := dkey{-1, -1}, int32(-1)
	err = sc.run(func(rowid int64, v rowVals) {
		s, e, eNull := v.int(0), v.int(1), v.null(1)
		ty := v.int(2)
		d.maxAll.add(s, e, eNull)
		var fl uint8
		switch ty {
		case nvtxPushPop, nvtxTPushPop:
			d.maxPP.add(s, e, eNull)
			if !sel.pushPop {
				return
			}
		case nvtxStartEnd, nvtxTStartEnd:
			d.maxSE.add(s, e, eNull)
			if !sel.startEnd {
				return
			}
			fl = nvStartEnd
		case nvtxDomainCreate:
			if v.null(6) || v.null(3) {
				return
			}
			k := gkey{v.int(6), v.int(3)}
			r := domRows[k]
			if r == nil || s < r.start {
				name, null := "", true
				if !v.null(4) {
					name, null = c.P.String(v.int(4))
					null = !null
				}
				if null && !v.null(5) {
					name, null = string(v.bytes(5)), false
				}
				domRows[k] = &domRow{s, name, null}
			}
			return
		default:
			return
		}
		if !v.null(7) {
			if sel.sameThread {
				return
			}
			fl |= nvCross
		}
		if eNull {
			fl |= nvOpen
		}
		g := v.int(3)
		if v.null(3) {
			fl |= nvNoTid
		}
		// text: StringIds(textId), else text, else ''
		tk := int32(-1)
		if !v.null(4) {
			id := v.int(4)
			k, ok := byTextID[id]
			if !ok {
				k = -1
				if str, found := c.P.String(id); found {
					k = intern(unsafe.Slice(unsafe.StringData(str), len(str)))
				}
				byTextID[id] = k
			}
			tk = k
		}
		if tk < 0 {
			tk = intern(v.bytes(5))
		}
		// domain: (domainId, PID bits)
		dk := int32(-1)
		if !v.null(6) && fl&nvNoTid == 0 {
			k := dkey{v.int(6), g & nvtxDomainPIDMask}
			if k == lastDK {
				dk = lastDV
			} else {
				var ok bool
				if dk, ok = dkeys[k]; !ok {
					dk = int32(len(dkeyList))
					dkeys[k] = dk
					dkeyList = append(dkeyList, k)
				}
				lastDK, lastDV = k, dk
			}
		}
		pk := uint64(uint32(dk+1))<<32 | uint64(uint32(tk))
		p, ok := pairs[pk]
		if !ok {
			p = int32(len(pairList))
			pairs[pk] = p
			pairList = append(pairList, pk)
		}
		d.start = append(d.start, s)
		d.end = append(d.end, e)
		d.flags = append(d.flags, fl)
		d.pair = append(d.pair, p)
		if sel.ids {
			d.rowid = append(d.rowid, rowid)
			d.gtid = append(d.gtid, g)
		}
	})
	if err != nil {
		return nil, err
	}
	d.n = len(d.start)
	// Domain names per (domainId, PID bits): one per creating thread.
	domNames := make([][]*domRow, len(dkeyList))
	for k, r := range domRows {
		if dk, ok := dkeys[dkey{k.id, k.g & nvtxDomainPIDMask}]; ok {
			domNames[dk] = append(domNames[dk], r)
		}
	}
	d.pairNames = make([][]string, len(pairList))
	for i, pk := range pairList {
		dk, tk := int32(pk>>32)-1, int32(uint32(pk))
		t := textList[tk]
		if dk < 0 || len(domNames[dk]) == 0 {
			d.pairNames[i] = []string{":" + t}
			continue
		}
		for _, r := range domNames[dk] {
			d.pairNames[i] = append(d.pairNames[i], r.name+":"+t)
		}
	}
	return d, nil
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
