package nsysx

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// nvtxHit is one NVTX range found by --filter-nvtx.
type nvtxHit struct {
	start, end int64
	endNull    bool
	gtid       int64
	rowid      int64
}

// findNVTXRange finds the range of a --filter-nvtx / nvtx= argument as nsys
// does (§3.3): the part after the last '/' is a 0-based index when it reads
// as a non-negative integer; a range's search key is coalesce(text,
// StringIds(textId)), followed by '@' and the text of its domain's creation
// row (same domainId, same process) when there is one; the index-th match in
// start order is taken. The lookup reads the unfiltered NVTX_EVENTS.
func findNVTXRange(ctx context.Context, p *Profile, arg string) (nvtxHit, string, error) {
	if !p.HasTable(tNVTX) {
		return nvtxHit{}, p.Path + " does not contain NV Tools Extension (NVTX) data.", nil
	}
	if !p.HasTable(tStrings) {
		return nvtxHit{}, p.Path + " file does not contain StringIds table.", nil
	}
	name, idx := arg, int64(0)
	if k := strings.LastIndex(arg, "/"); k >= 0 {
		if n, ok := parsePyInt(arg[k+1:]); ok && n >= 0 {
			name, idx = arg[:k], n
		}
	}
	type cand struct {
		nvtxHit
		text     string // coalesce(text, StringIds(textId))
		domainID int64
		domNull  bool
	}
	var cands []cand
	type domKey struct{ id, proc int64 }
	type domText struct {
		s    string
		null bool
	}
	doms := map[domKey][]domText{} // creation rows' text
	strCache := map[int64]struct {
		s  string
		ok bool
	}{}
	sc := &scanner{ctx: ctx, p: p, table: tNVTX, cols: nvtxScanCols(p)}
	err := sc.run(func(rowid int64, v rowVals) {
		ty := v.int(2)
		g, gNull := v.int(3), v.null(3)
		if ty == 75 {
			if !gNull && !v.null(6) {
				k := domKey{v.int(6), g >> 24}
				doms[k] = append(doms[k], domText{string(v.bytes(5)), v.null(5)})
			}
			return
		}
		if ty != 59 && ty != 60 && ty != 70 && ty != 71 {
			return
		}
		var text string
		switch {
		case !v.null(5):
			b := v.bytes(5)
			if len(b) > len(name) || string(b) != name[:len(b)] {
				return
			}
			text = string(b)
		case v.has(4) && !v.null(4):
			id := v.int(4)
			e, seen := strCache[id]
			if !seen {
				e.s, e.ok = p.String(ctx, id)
				strCache[id] = e
			}
			if !e.ok || !strings.HasPrefix(name, e.s) {
				return
			}
			text = e.s
		default:
			return
		}
		cands = append(cands, cand{nvtxHit: nvtxHit{start: v.int(0), end: v.int(1), endNull: v.null(1), gtid: g, rowid: rowid},
			text: text, domainID: v.int(6), domNull: v.null(6) || gNull})
	})
	if err != nil {
		return nvtxHit{}, "", err
	}
	var hits []nvtxHit
	for _, cd := range cands {
		var ds []domText
		if !cd.domNull {
			ds = doms[domKey{cd.domainID, cd.gtid >> 24}]
		}
		if len(ds) == 0 {
			if cd.text == name {
				hits = append(hits, cd.nvtxHit)
			}
			continue
		}
		for _, d := range ds {
			if d.null && cd.text == name || !d.null && cd.text+"@"+d.s == name {
				hits = append(hits, cd.nvtxHit)
			}
		}
	}
	sort.SliceStable(hits, func(i, j int) bool { return hits[i].start < hits[j].start })
	if idx >= int64(len(hits)) {
		return nvtxHit{}, fmt.Sprintf("NVTX range '%s' could not be found in %s.", arg, p.Path), nil
	}
	return hits[idx], "", nil
}

// parsePyInt parses s as Python's int(s) does: surrounding white space, an
// optional sign, decimal digits with single underscores between them.
func parsePyInt(s string) (int64, bool) {
	s = strings.TrimSpace(s)
	neg := false
	if s != "" && (s[0] == '+' || s[0] == '-') {
		neg = s[0] == '-'
		s = s[1:]
	}
	if s == "" || s[0] == '_' || s[len(s)-1] == '_' || strings.Contains(s, "__") {
		return 0, false
	}
	s = strings.ReplaceAll(s, "_", "")
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
	}
	if neg {
		s = "-" + s
	}
	n, err := strconv.ParseInt(s, 10, 64)
	return n, err == nil
}
