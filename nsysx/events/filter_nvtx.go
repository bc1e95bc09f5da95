package events

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/nsysx/nsysx/nsysx/model"
)

// nvtxHit is one NVTX range found by --filter-nvtx.
type nvtxHit struct {
	start, end int64
	endNull    bool
	gtid       int64
	rowid      int64
}

// findNVTXRange finds the range of a --filter-nvtx / nvtx= argument as nsys
// does (docs/stats.md §3.3): the part after the last '/' is a 0-based index when it reads
// as a non-negative integer; a range's search key is coalesce(text,
// StringIds(textId)), followed by '@' and the text of its domain's creation
// row (same domainId, same process) when there is one; the index-th match in
// start order is taken. The lookup reads the unfiltered NVTX_EVENTS.
func findNVTXRange(ctx context.Context, p *model.Profile, arg string) (nvtxHit, string, error) {
	if !p.HasTable(TableNVTXEvents) {
		return nvtxHit{}, p.Path + " does not contain NV Tools Extension (NVTX) data.", nil
	}
	if !p.HasTable(TableStringIds) {
		return nvtxHit{}, p.Path + " file does not contain StringIds table.", nil
	}
	name, idx := arg, int64(0)
	if k := strings.LastIndex(arg, "/"); k >= 0 {
		if n, ok := ParsePyInt(arg[k+1:]); ok && n >= 0 {
			name, idx = arg[:k], n
		}
	}
	f := &nvtxFinder{ctx: ctx, p: p, name: name, doms: map[nvtxDomKey][]nvtxDomText{}, strs: map[int64]nvtxStr{}}
	sc := &Scanner{Ctx: ctx, P: p, Table: TableNVTXEvents, Cols: NVTXScanCols}
	if err := sc.Run(f.row); err != nil {
		return nvtxHit{}, "", err
	}
	hits := f.hits()
	if idx >= int64(len(hits)) {
		return nvtxHit{}, fmt.Sprintf("NVTX range '%s' could not be found in %s.", arg, p.Path), nil
	}
	return hits[idx], "", nil
}

// nvtxFinder collects, in one pass over NVTX_EVENTS, the ranges whose text
// is a prefix of the name looked for, and the domain creation rows' texts.
type nvtxFinder struct {
	ctx   context.Context
	p     *model.Profile
	name  string
	cands []nvtxCand
	doms  map[nvtxDomKey][]nvtxDomText // creation rows' text
	strs  map[int64]nvtxStr            // StringIds looked up
}

// nvtxCand is a range that may match.
type nvtxCand struct {
	nvtxHit
	text     string // coalesce(text, StringIds(textId))
	domainID int64
	domNull  bool
}

type nvtxDomKey struct{ id, proc int64 }

type nvtxDomText struct {
	s    string
	null bool
}

type nvtxStr struct {
	s  string
	ok bool
}

// row takes one NVTX_EVENTS row (columns as nvtxScanCols lists them).
func (f *nvtxFinder) row(rowid int64, v RowVals) {
	ty := v.Int(2)
	g, gNull := v.Int(3), v.Null(3)
	if ty == 75 {
		if !gNull && !v.Null(6) {
			k := nvtxDomKey{v.Int(6), model.GlobalTid(g).Upper()}
			f.doms[k] = append(f.doms[k], nvtxDomText{string(v.Bytes(5)), v.Null(5)})
		}
		return
	}
	if ty != 59 && ty != 60 && ty != 70 && ty != 71 {
		return
	}
	var text string
	switch {
	case !v.Null(5):
		b := v.Bytes(5)
		if len(b) > len(f.name) || string(b) != f.name[:len(b)] {
			return
		}
		text = string(b)
	case v.Has(4) && !v.Null(4):
		id := v.Int(4)
		e, seen := f.strs[id]
		if !seen {
			e.s, e.ok = f.p.String(f.ctx, id)
			f.strs[id] = e
		}
		if !e.ok || !strings.HasPrefix(f.name, e.s) {
			return
		}
		text = e.s
	default:
		return
	}
	f.cands = append(f.cands, nvtxCand{nvtxHit: nvtxHit{start: v.Int(0), end: v.Int(1), endNull: v.Null(1), gtid: g, rowid: rowid},
		text: text, domainID: v.Int(6), domNull: v.Null(6) || gNull})
}

// hits lists the ranges whose search key is the name, in start order: the
// text, then '@' and the text of each creation row of its domain.
func (f *nvtxFinder) hits() []nvtxHit {
	var hits []nvtxHit
	for _, cd := range f.cands {
		var ds []nvtxDomText
		if !cd.domNull {
			ds = f.doms[nvtxDomKey{cd.domainID, model.GlobalTid(cd.gtid).Upper()}]
		}
		if len(ds) == 0 {
			if cd.text == f.name {
				hits = append(hits, cd.nvtxHit)
			}
			continue
		}
		for _, d := range ds {
			if d.null && cd.text == f.name || !d.null && cd.text+"@"+d.s == f.name {
				hits = append(hits, cd.nvtxHit)
			}
		}
	}
	sort.SliceStable(hits, func(i, j int) bool { return hits[i].start < hits[j].start })
	return hits
}

// ParsePyInt parses s as Python's int(s) does: surrounding white space, an
// optional sign, decimal digits with single underscores between them.
func ParsePyInt(s string) (int64, bool) {
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

// NVTXScanCols are the NVTX_EVENTS columns an NVTX scan reads (the
// filters' range lookup and the NVTX reports), in the order the NVTX
// reports' rows index them.
var NVTXScanCols = []string{"start", "end", "eventType", "globalTid", "textId", "text", "domainId", "endGlobalTid"}
