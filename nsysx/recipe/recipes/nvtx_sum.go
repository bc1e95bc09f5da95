package recipes

import (
	"container/heap"
	"context"
	"slices"
	"strings"
	"sync"
	"unsafe"

	"github.com/nsysx/nsysx/internal/checked"
	"github.com/nsysx/nsysx/nsysx"
	"github.com/nsysx/nsysx/nsysx/events"
	"github.com/nsysx/nsysx/nsysx/recipe"
	"github.com/nsysx/nsysx/nsysx/recipe/composite"
	"github.com/nsysx/nsysx/nsysx/recipe/pyframe"
)

// mapNVTXSum describes the filtered NVTX composite's positive durations by
// text (docs/recipes.md §2.5). The default window drops marks, domain rows
// and open ranges (NULL end); durations are float64 when NVTX end has
// NULLs, as in nsys. Without an NVTX filter the table is scanned and
// grouped by text id (scanNVTXSum); where that leaves a case to the
// composite, only the columns the summary reads are loaded (loadNVTXLean).
func mapNVTXSum(ctx context.Context, r *recipe.Report, o *recipe.Options, _ any) (*recipe.Part, error) {
	if o.FilterNVTX == nil && o.FilterProjectedNVTX == nil && canScanNVTX(r.Profile) {
		if part, ok, err := scanNVTXSum(ctx, r, o); ok || err != nil {
			return part, err
		}
		nv, err := loadNVTXLean(ctx, r.Profile, false)
		if err != nil {
			return nil, err
		}
		return textSum(ctx, r, o, nvtxTextRows(nv), nil)
	}
	nv, err := composite.LoadNVTX(ctx, r.Profile)
	if err != nil {
		return nil, err
	}
	return textSum(ctx, r, o, nvtxTextRows(nv), nv)
}

// loadNVTXLean is LoadNVTX without the columns the summaries do not use:
// start, end and the text (StringIds(textId) where it resolves, else the
// inline text), and with threads globalTid and endGlobalTid (what the
// projection reads); not the types, domains, pids, tids, row labels and
// the inline text kept apart, 56 bytes a range (docs/performance.md,
// "Summaries load the columns they read"). The other fields are nil. The
// caller checks canScanNVTX (the columns LoadNVTX requires).
func loadNVTXLean(ctx context.Context, p *nsysx.Profile, threads bool) (*composite.NVTX, error) {
	opt := []string{"text", "textId"}
	if threads {
		opt = append(opt, "globalTid", "endGlobalTid")
	}
	t, err := composite.LoadTable(ctx, p, events.TableNVTXEvents, []string{"start", "end"}, opt)
	if err != nil {
		return nil, err
	}
	n := &composite.NVTX{}
	n.Start, _ = composite.Ints(t, "start")
	n.End, n.EndValid = composite.Ints(t, "end")
	n.EndFloat = n.EndValid != nil
	if threads {
		n.GlobalTid, n.GlobalTidValid = composite.Ints(t, "globalTid")
		_, n.EndGlobalTidValid = composite.Ints(t, "endGlobalTid")
	}
	raw, rawValid := composite.TextCol(t, "text")
	if err := p.StringsErr(ctx); err != nil {
		return nil, err
	}
	n.Text, n.TextValid = composite.ResolveText(ctx, p, t, raw, rawValid)
	return n, nil
}

// The nvtx_sum map without an NVTX filter (docs/performance.md, "Recipe
// nvtx_sum: the map sorts its texts"): one scan of NVTX_EVENTS over the
// table's ranges at once that keeps, per windowed range of positive
// duration, its text (StringIds' string, or the inline text copied into an
// arena: no allocation per range) and its start and end; each range of
// rows is sorted by text on a core of its own and the sorted ranges are
// merged, so that the groups come out in text order with their values in
// row order, with no map of the texts (a PyTorch capture has a text per
// range nearly, inline). The statistics are DescribeGrouped's, as the
// composite path's Describe computes them.

// nvtxSumRow is a kept range: its text, its start and end, and its place
// among the part's kept rows.
type nvtxSumRow struct {
	text       string
	start, end int64
	i          int32
}

// nvtxSumPart is one range of the table's rows, scanned on a goroutine of
// its own.
type nvtxSumPart struct {
	_        [64]byte       // its own cache lines (see nsysx's ScanParts)
	blocks   [][]nvtxSumRow // the kept rows, in blocks of nvtxSumBlock
	rows     int
	arena    []byte // the free end of the current block of inline texts
	windowed int    // rows the window keeps, positive or not
	nullText bool   // a kept row without a text
	endFloat bool   // a NULL end in any row
	overflow *[2]int64
	_        [64]byte
}

// nvtxSumBlock is the rows of a block of kept rows: the rows are kept in
// blocks, sorted each on its own and merged, rather than in one slice that
// append copies again and again as it grows (a sixth of the map's CPU).
var nvtxSumBlock = 64 << 10 // a variable for the tests

// nvtxArenaBlock is the size of the blocks the inline texts are copied
// into; a text longer than an eighth of it gets a block of its own.
const nvtxArenaBlock = 256 << 10

// scanNVTXSum is mapNVTXSum without an NVTX filter on an export whose
// NVTX_EVENTS the caller checked (canScanNVTX). ok is false for the cases
// it leaves to the composite path, which gives them their exact frames: a
// kept range without text, and windowed ranges none of which is positive.
func scanNVTXSum(ctx context.Context, r *recipe.Report, o *recipe.Options) (part *recipe.Part, ok bool, err error) {
	p := r.Profile
	if err := p.StringsErr(ctx); err != nil {
		return nil, false, err
	}
	lo, hi := o.Window()
	var parts []*nvtxSumPart
	cols := []string{"start", "end", "text", "textId"}
	_, err = p.ScanParts(ctx, events.TableNVTXEvents, cols, func(int) func(nsysx.ScanRow) error {
		pt := &nvtxSumPart{}
		parts = append(parts, pt)
		return func(row nsysx.ScanRow) error {
			if row.IsNull(1) {
				pt.endFloat = true
				return nil
			}
			if row.IsNull(0) {
				return nil
			}
			st, en := row.Int(0), row.Int(1)
			if st < 0 || en < lo || hi != nil && st > *hi { // composite.Window
				return nil
			}
			pt.windowed++
			d, fits := checked.Sub(en, st)
			if !fits {
				if pt.overflow == nil {
					pt.overflow = &[2]int64{en, st}
				}
				return nil
			}
			if d <= 0 {
				return nil
			}
			text, ok := pt.text(ctx, p, row)
			if !ok {
				pt.nullText = true
				return nil
			}
			pt.add(nvtxSumRow{text, st, en, int32(pt.rows)})
			return nil
		}
	})
	if err != nil {
		return nil, false, err
	}
	windowed, endFloat := 0, false
	for _, pt := range parts {
		if pt.overflow != nil {
			pyframe.Elapsed(pt.overflow[0], pt.overflow[1]) // panics as the composite path's positive does
		}
		if pt.nullText {
			return nil, false, nil
		}
		windowed += pt.windowed
		endFloat = endFloat || pt.endFloat
	}
	if windowed == 0 {
		part, err := noData(o, r)
		return part, true, err
	}
	f := describeNVTXSum(parts, endFloat)
	if f == nil {
		return nil, false, nil
	}
	return recipe.StatsPart(f, nil), true, nil
}

// text is a scanned row's composite text: StringIds(textId) where it
// resolves, else the inline text, copied into the part's arena; ok is
// false for a row without either.
func (pt *nvtxSumPart) text(ctx context.Context, p *nsysx.Profile, row nsysx.ScanRow) (string, bool) {
	if !row.IsNull(3) {
		if s, ok := p.String(ctx, row.Int(3)); ok {
			return s, true
		}
	}
	if row.IsNull(2) {
		return "", false
	}
	b := row.Bytes(2)
	if len(b) == 0 {
		return "", true
	}
	if len(b) > len(pt.arena) {
		if len(b) > nvtxArenaBlock/8 {
			return string(b), true
		}
		pt.arena = make([]byte, nvtxArenaBlock)
	}
	n := copy(pt.arena, b)
	s := unsafe.String(&pt.arena[0], n)
	pt.arena = pt.arena[n:]
	return s, true
}

// add appends a kept row.
func (pt *nvtxSumPart) add(r nvtxSumRow) {
	if k := len(pt.blocks) - 1; k >= 0 && len(pt.blocks[k]) < cap(pt.blocks[k]) {
		pt.blocks[k] = append(pt.blocks[k], r)
	} else {
		pt.blocks = append(pt.blocks, append(make([]nvtxSumRow, 0, nvtxSumBlock), r))
	}
	pt.rows++
}

// describeNVTXSum is Describe of the parts' rows' durations by text: the
// groups in text order, each group's values in row order. nil when there
// are no rows (the composite path then gives the empty frame).
func describeNVTXSum(parts []*nvtxSumPart, endFloat bool) *pyframe.Frame {
	n := 0
	var blocks [][]nvtxSumRow // in row order
	var wg sync.WaitGroup
	for _, pt := range parts {
		n += pt.rows
		for _, b := range pt.blocks {
			blocks = append(blocks, b)
			wg.Go(func() { slices.SortFunc(b, compareNVTXSumRows) })
		}
		pt.blocks = nil
	}
	wg.Wait()
	if n == 0 {
		return nil
	}
	var ints []int64
	var floats []float64
	if endFloat {
		floats = make([]float64, 0, n)
	} else {
		ints = make([]int64, 0, n)
	}
	var texts []string
	starts := make([]int, 0, n+1)
	mergeNVTXSumBlocks(blocks, func(row *nvtxSumRow) {
		k := len(ints) + len(floats)
		if len(texts) == 0 || texts[len(texts)-1] != row.text {
			texts = append(texts, row.text)
			starts = append(starts, k)
		}
		if endFloat {
			floats = append(floats, float64(row.end)-float64(row.start))
		} else {
			ints = append(ints, row.end-row.start) // positive and checked by the scan
		}
	})
	blocks = nil
	starts = append(starts, n)
	vals := pyframe.NewInts("duration", pyframe.Int64, ints, nil)
	if endFloat {
		vals = pyframe.NewFloats("duration", floats, nil)
	}
	return pyframe.DescribeGrouped(vals, nil, starts, []*pyframe.Column{pyframe.NewStrings("Text", slices.Clip(texts), nil)})
}

// compareNVTXSumRows orders a part's rows by text, then row.
func compareNVTXSumRows(a, b nvtxSumRow) int {
	if c := strings.Compare(a.text, b.text); c != 0 {
		return c
	}
	return int(a.i - b.i)
}

// mergeNVTXSumBlocks calls fn with the sorted blocks' rows by text, then
// block (a text's rows in row order: the blocks are in row order).
func mergeNVTXSumBlocks(blocks [][]nvtxSumRow, fn func(*nvtxSumRow)) {
	if len(blocks) == 1 {
		for i := range blocks[0] {
			fn(&blocks[0][i])
		}
		return
	}
	h := &blockHeap{}
	for k, b := range blocks {
		h.blocks = append(h.blocks, b)
		h.seq = append(h.seq, k)
	}
	heap.Init(h)
	for h.Len() > 0 {
		fn(&h.blocks[0][0])
		if h.blocks[0] = h.blocks[0][1:]; len(h.blocks[0]) > 0 {
			heap.Fix(h, 0)
		} else {
			heap.Pop(h)
		}
	}
}

// blockHeap orders the sorted blocks' rest by its first row's text, then
// by block.
type blockHeap struct {
	blocks [][]nvtxSumRow
	seq    []int // each block's place in row order
}

func (h *blockHeap) Len() int { return len(h.blocks) }
func (h *blockHeap) Less(a, b int) bool {
	if c := strings.Compare(h.blocks[a][0].text, h.blocks[b][0].text); c != 0 {
		return c < 0
	}
	return h.seq[a] < h.seq[b]
}
func (h *blockHeap) Swap(a, b int) {
	h.blocks[a], h.blocks[b] = h.blocks[b], h.blocks[a]
	h.seq[a], h.seq[b] = h.seq[b], h.seq[a]
}
func (h *blockHeap) Push(any) {}
func (h *blockHeap) Pop() any {
	n := len(h.blocks) - 1
	h.blocks, h.seq = h.blocks[:n], h.seq[:n]
	return nil
}
