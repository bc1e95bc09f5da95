package recipe

import (
	"container/heap"
	"errors"
	"io"

	"github.com/nsysx/nsysx/nsysx/recipe/pyframe"
)

// The streaming stats reduce (docs/performance.md, "Recipe nvtx_sum on a
// million distinct texts"): rank_stats and all_stats of parts whose stats
// frames were spilled, read back in chunks so that memory does not grow
// with the number of parts. The outputs are those of statsTrio: rank_stats
// is written as the row groups of the concatenated frame (cut every
// MaxRowGroup rows across the parts) and all_stats is Aggregate over
// batches of whole groups, taken from a merge of the parts by key and then
// rank, the order in which Aggregate groups the concatenated frame.

// rankSource is one rank's stats frame: spilled or in memory.
type rankSource struct {
	rank int
	head *pyframe.Frame
	s    *spillFile
	f    *pyframe.Frame
}

func (r *rankSource) open() chunkReader {
	if r.s != nil {
		return r.s.reader()
	}
	return &frameReader{f: r.f}
}

// rankSources are the parts' stats frames in Rank order, ok false when a
// part's frame is not streamable (then statsTrio takes the in-memory
// path; spilled frames are read back into their parts first).
func rankSources(parts []*Part) (srcs []*rankSource, ok bool, err error) {
	ok = true
	for r, p := range parts {
		switch {
		case p.spilled != nil:
			srcs = append(srcs, &rankSource{rank: r, head: p.spilled.head, s: p.spilled})
		case p.Frames[FrameStats] != nil:
			f := p.Frames[FrameStats]
			srcs = append(srcs, &rankSource{rank: r, head: emptyLike(f), f: f})
			ok = ok && streamable(f)
		}
	}
	if ok {
		return srcs, true, nil
	}
	return nil, false, unspill(parts)
}

// unspill reads the spilled frames back into their parts and closes their
// files.
func unspill(parts []*Part) error {
	for _, p := range parts {
		if p.spilled == nil {
			continue
		}
		f, err := readAll(p.spilled)
		if err != nil {
			return err
		}
		p.spilled.close()
		p.Frames[FrameStats], p.spilled = f, nil
	}
	return nil
}

// readAll reads a spilled frame back whole.
func readAll(s *spillFile) (*pyframe.Frame, error) {
	out := emptyLike(s.head)
	r := s.reader()
	for {
		g, err := r.next()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		for i, c := range g.Cols {
			pyframe.AppendCol(out.Cols[i], c)
		}
	}
}

// rankHead is rank_stats with no rows, as concatRanks makes it of frames
// with the sources' heads: a data column is Float64 where the kinds differ,
// Valid is set where any source's is; then Rank and the index column.
func rankHead(srcs []*rankSource) *pyframe.Frame {
	first := srcs[0].head
	out := &pyframe.Frame{Index: first.Index, IndexCols: first.IndexCols, RangeName: first.RangeName}
	for c, fc := range first.Cols {
		col := &pyframe.Column{Name: fc.Name, Type: fc.Type, Cats: fc.Cats}
		for _, s := range srcs {
			sc := s.head.Cols[c]
			if sc.Type != fc.Type {
				col.Type = pyframe.Float64
			}
			if sc.Valid != nil {
				col.Valid = []bool{}
			}
		}
		out.Cols = append(out.Cols, col)
	}
	nData := dataCols(first)
	rank := &pyframe.Column{Name: "Rank", Type: pyframe.Int64}
	out.Cols = append(out.Cols[:nData:nData], append([]*pyframe.Column{rank}, out.Cols[nData:]...)...)
	return out
}

// conform is chunk g of rank's frame as rows of head (rankHead): upcast,
// Valid set where head's is, Rank added.
func conform(head, g *pyframe.Frame, rank int) *pyframe.Frame {
	nData := dataCols(g)
	n := g.Rows()
	out := &pyframe.Frame{Index: head.Index, IndexCols: head.IndexCols, RangeName: head.RangeName}
	add := func(hc, c *pyframe.Column) {
		if hc.Type == pyframe.Float64 && c.Type != pyframe.Float64 {
			c = c.AsFloat()
		}
		if hc.Valid != nil && c.Valid == nil {
			cc := *c
			cc.Valid = make([]bool, n)
			for i := range cc.Valid {
				cc.Valid[i] = true
			}
			c = &cc
		}
		out.Cols = append(out.Cols, c)
	}
	for c := 0; c < nData; c++ {
		add(head.Cols[c], g.Cols[c])
	}
	rk := &pyframe.Column{Name: "Rank", Type: pyframe.Int64, IntVals: make([]int64, n)}
	for i := range rk.IntVals {
		rk.IntVals[i] = int64(rank)
	}
	out.Cols = append(out.Cols, rk)
	for c := nData; c < len(g.Cols); c++ {
		add(head.Cols[c+1], g.Cols[c])
	}
	return out
}

// rankChunks yields rank_stats in chunks (as spilled), reading each
// source once, in Rank order.
func rankChunks(head *pyframe.Frame, srcs []*rankSource) func(yield func(*pyframe.Frame) error) error {
	return func(yield func(*pyframe.Frame) error) error {
		for _, s := range srcs {
			r := s.open()
			for {
				g, err := r.next()
				if errors.Is(err, io.EOF) {
					break
				}
				if err != nil {
					return err
				}
				if err := yield(conform(head, g, s.rank)); err != nil {
					return err
				}
			}
		}
		return nil
	}
}

// rankGroups yields the chunks of rank_stats (rankChunks) as row groups of
// MaxRowGroup rows (the last fewer).
func rankGroups(head *pyframe.Frame, chunks func(yield func(*pyframe.Frame) error) error) func(yield func(*pyframe.Frame) error) error {
	return func(yield func(*pyframe.Frame) error) error {
		buf := emptyLike(head)
		err := chunks(func(g *pyframe.Frame) error {
			for lo := 0; lo < g.Rows(); {
				hi := min(g.Rows(), lo+pyframe.MaxRowGroup-buf.Rows())
				for i, c := range sliceCols(g.Cols, lo, hi) {
					pyframe.AppendCol(buf.Cols[i], c)
				}
				lo = hi
				if buf.Rows() == pyframe.MaxRowGroup {
					if err := yield(buf); err != nil {
						return err
					}
					buf = emptyLike(head)
				}
			}
			return nil
		})
		if err == nil && buf.Rows() > 0 {
			err = yield(buf)
		}
		return err
	}
}

// aggBatch is the rows all_stats is computed over at once: Aggregate is
// run over batches of about this many rank_stats rows, each holding whole
// groups.
var aggBatch = 64 << 10

// cursor is a source's place in the merge.
type cursor struct {
	r    chunkReader
	g    *pyframe.Frame // the current chunk, conformed
	key  []string
	i    int
	rank int
}

type cursorHeap []*cursor

func (h cursorHeap) Len() int { return len(h) }
func (h cursorHeap) Less(a, b int) bool {
	ka, kb := h[a].key[h[a].i], h[b].key[h[b].i]
	if ka != kb {
		return ka < kb
	}
	return h[a].rank < h[b].rank
}
func (h cursorHeap) Swap(a, b int) { h[a], h[b] = h[b], h[a] }
func (h *cursorHeap) Push(x any)   { *h = append(*h, x.(*cursor)) }
func (h *cursorHeap) Pop() any {
	old := *h
	c := old[len(old)-1]
	*h = old[:len(old)-1]
	return c
}

// advance moves c to its next row; false when its source is done.
func (c *cursor) advance(head *pyframe.Frame) (bool, error) {
	c.i++
	for c.g == nil || c.i >= c.g.Rows() {
		g, err := c.r.next()
		if errors.Is(err, io.EOF) {
			return false, nil
		}
		if err != nil {
			return false, err
		}
		c.g, c.i = conform(head, g, c.rank), 0
		c.key = c.g.Find(head.IndexCols[0]).Strs
	}
	return true, nil
}

// aggregateStream is Aggregate over rank_stats (the sources' rows with
// head's columns), reading every source once, all at once.
func aggregateStream(head *pyframe.Frame, srcs []*rankSource) (*pyframe.Frame, error) {
	h := cursorHeap{}
	for _, s := range srcs {
		c := &cursor{r: s.open(), rank: s.rank, i: -1}
		ok, err := c.advance(head)
		if err != nil {
			return nil, err
		}
		if ok {
			h = append(h, c)
		}
	}
	heap.Init(&h)
	var all *pyframe.Frame
	batch := emptyLike(head)
	flush := func() error {
		if batch.Rows() == 0 {
			return nil
		}
		a, err := Aggregate(batch)
		if err != nil {
			return err
		}
		if all == nil {
			all = a
		} else {
			for i, c := range a.Cols {
				pyframe.AppendCol(all.Cols[i], c)
			}
		}
		batch = emptyLike(head)
		return nil
	}
	last := ""
	for len(h) > 0 {
		c := h[0]
		key := c.key[c.i]
		if batch.Rows() >= aggBatch && key != last {
			if err := flush(); err != nil {
				return nil, err
			}
		}
		last = key
		for i, col := range c.g.Cols {
			appendRow(batch.Cols[i], col, c.i)
		}
		ok, err := c.advance(head)
		if err != nil {
			return nil, err
		}
		if ok {
			heap.Fix(&h, 0)
		} else {
			heap.Pop(&h)
		}
	}
	if err := flush(); err != nil {
		return nil, err
	}
	if all == nil {
		return Aggregate(batch)
	}
	return all, nil
}

// appendRow appends row i of src to dst (same kind; dst's Valid set where
// src's is).
func appendRow(dst, src *pyframe.Column, i int) {
	switch src.Type {
	case pyframe.Float64:
		dst.FloatVals = append(dst.FloatVals, src.FloatVals[i])
	case pyframe.String:
		dst.Strs = append(dst.Strs, src.Strs[i])
	case pyframe.ListInt64:
		dst.Lists = append(dst.Lists, src.Lists[i])
	case pyframe.Null:
	default:
		dst.IntVals = append(dst.IntVals, src.IntVals[i])
	}
	if dst.Valid != nil {
		dst.Valid = append(dst.Valid, src.Valid[i])
	}
}

// statsStream is statsTrio's rank_stats and all_stats over sources: the
// rank_stats table is a stream, read when the output is written.
func statsStream(srcs []*rankSource) (rank, all Table, err error) {
	head := rankHead(srcs)
	a, err := aggregateStream(head, srcs)
	mark("all_stats merged")
	if err != nil {
		return Table{}, Table{}, err
	}
	chunks := rankChunks(head, srcs)
	return Table{Name: "rank_stats", stream: &tableStream{head: head, chunks: chunks, groups: rankGroups(head, chunks)}},
		Table{Name: "all_stats", Frame: a}, nil
}

// tableStream is a table written as it is read: its head (no rows), its
// rows in chunks and the same rows in row groups
// (pyframe.WriteParquetGroups); either may be read more than once, and at
// once.
type tableStream struct {
	head           *pyframe.Frame
	chunks, groups func(yield func(*pyframe.Frame) error) error
}
