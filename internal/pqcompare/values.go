package pqcompare

import (
	"math"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// compareValues compares every cell, column by column (the schemas are
// already known to be equal).
func compareValues(d *diffs, w, g *parsed) {
	wt, gt := w.table, g.table
	for c := 0; c < int(wt.NumCols()); c++ {
		wc, gc := wt.Column(c), gt.Column(c)
		wcur, gcur := newCursor(wc.Data()), newCursor(gc.Data())
		name := wc.Name()
		for r := 0; r < int(wt.NumRows()); r++ {
			wa, wi := wcur.at(r)
			ga, gi := gcur.at(r)
			want, got := cell(wa, wi), cell(ga, gi)
			if want != got {
				d.add("column %q row %d: want %s, got %s", name, r, want, got)
			}
		}
	}
}

// cursor walks a chunked column row by row.
type cursor struct {
	chunks []arrow.Array
	k, off int
}

func newCursor(c *arrow.Chunked) *cursor { return &cursor{chunks: c.Chunks()} }

// at returns the chunk holding row r and the row's index in it; rows must
// be asked for in increasing order.
func (c *cursor) at(r int) (arrow.Array, int) {
	for c.k < len(c.chunks) && r-c.off >= c.chunks[c.k].Len() {
		c.off += c.chunks[c.k].Len()
		c.k++
	}
	if c.k >= len(c.chunks) {
		return nil, 0
	}
	return c.chunks[c.k], r - c.off
}

// cell renders one value so that equal text means equal value: floats in
// shortest round-trip form (so bit-exact, -0 kept), NaN as NULL, strings
// quoted, lists element by element.
func cell(a arrow.Array, i int) string {
	if a == nil {
		return "(missing row)"
	}
	if a.IsNull(i) {
		return "NULL"
	}
	switch v := a.(type) {
	case *array.Float64:
		return floatText(v.Value(i))
	case *array.Float32:
		return floatText(float64(v.Value(i)))
	case *array.Int64:
		return strconv.FormatInt(v.Value(i), 10)
	case *array.Int32:
		return strconv.FormatInt(int64(v.Value(i)), 10)
	case *array.Uint64:
		return strconv.FormatUint(v.Value(i), 10)
	case *array.Uint32:
		return strconv.FormatUint(uint64(v.Value(i)), 10)
	case *array.LargeString:
		return strconv.Quote(v.Value(i))
	case *array.String:
		return strconv.Quote(v.Value(i))
	case *array.List:
		s, e := v.ValueOffsets(i)
		vals := v.ListValues()
		parts := make([]string, 0, e-s)
		for j := s; j < e; j++ {
			parts = append(parts, cell(vals, int(j)))
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case *array.Dictionary:
		return cell(v.Dictionary(), v.GetValueIndex(i))
	}
	return a.ValueStr(i)
}

func floatText(x float64) string {
	if math.IsNaN(x) {
		return "NULL"
	}
	return strconv.FormatFloat(x, 'g', -1, 64)
}
