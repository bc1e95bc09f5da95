package frame

import (
	"fmt"
	"strings"
)

// Join pairs the rows of r and other whose key columns are equal (an inner
// join): the keys once, then r's other columns, then other's. Columns of
// both sides with the same label get the side's Source in parentheses
// ("Total Time (before)", "Total Time (after)"), or "left"/"right" when
// the sources are unnamed or equal. Rows keep r's order; a key that occurs
// several times pairs every match.
func (r *Result) Join(other *Result, on ...string) *Result { return r.join(other, on, false, false) }

// LeftJoin is Join keeping the rows of r without a match (other's cells NULL).
func (r *Result) LeftJoin(other *Result, on ...string) *Result {
	return r.join(other, on, true, false)
}

// OuterJoin is Join keeping unmatched rows of both sides: r's first, then
// other's, with NULL cells for the missing side.
func (r *Result) OuterJoin(other *Result, on ...string) *Result {
	return r.join(other, on, true, true)
}

type joinSide struct {
	r      *Result
	keys   []*ResultCol
	others []*ResultCol
}

func (r *Result) join(other *Result, on []string, keepLeft, keepRight bool) *Result {
	if f := r.failed(nil); f != nil {
		return f
	}
	if other == nil || other.err != nil {
		return r.failed(fmt.Errorf("nsysx: join with a failed result: %w", other.Err()))
	}
	if len(on) == 0 {
		return r.failed(fmt.Errorf("nsysx: join needs at least one key column (common columns: %s)", strings.Join(common(r, other), ", ")))
	}
	a, err := r.joinSide(on)
	if err == nil {
		var b joinSide
		b, err = other.joinSide(on)
		if err == nil {
			return joinRows(a, b, keepLeft, keepRight)
		}
	}
	return r.failed(err)
}

func (r *Result) joinSide(on []string) (joinSide, error) {
	keys, err := r.columns(on)
	if err != nil {
		return joinSide{}, err
	}
	s := joinSide{r: r, keys: keys}
	for _, c := range r.Visible() {
		isKey := false
		for _, k := range keys {
			isKey = isKey || k == c
		}
		if !isKey {
			s.others = append(s.others, c)
		}
	}
	return s, nil
}

func common(a, b *Result) []string {
	var out []string
	for _, n := range a.Columns() {
		if b.col(n) != nil {
			out = append(out, n)
		}
	}
	return out
}

func keyOf(cols []*ResultCol, i int) string {
	var b strings.Builder
	for _, c := range cols {
		v := c.Value(i)
		fmt.Fprintf(&b, "%d\x00%d\x00%v\x00%s\x01", v.Kind, v.I, v.F, v.S)
	}
	return b.String()
}

// joinRows builds the joined result.
func joinRows(a, b joinSide, keepLeft, keepRight bool) *Result {
	out := &Result{Report: a.r.Report, Title: a.r.Title, Args: a.r.Args, Source: joinSource(a.r, b.r)}
	for _, k := range a.keys {
		out.Cols = append(out.Cols, newCells(k.Name))
	}
	names := joinNames(a, b)
	for _, n := range names {
		out.Cols = append(out.Cols, newCells(n))
	}
	byKey := map[string][]int{}
	for j := 0; j < b.r.Len(); j++ {
		k := keyOf(b.keys, j)
		byKey[k] = append(byKey[k], j)
	}
	matched := make([]bool, b.r.Len())
	for i := 0; i < a.r.Len(); i++ {
		js := byKey[keyOf(a.keys, i)]
		for _, j := range js {
			matched[j] = true
			out.Add(joinRow(a, b, i, j)...)
		}
		if len(js) == 0 && keepLeft {
			out.Add(joinRow(a, b, i, -1)...)
		}
	}
	for j := 0; keepRight && j < b.r.Len(); j++ {
		if !matched[j] {
			out.Add(joinRow(a, b, -1, j)...)
		}
	}
	return out
}

// joinRow is the row of a's row i and b's row j (-1: the side is missing).
func joinRow(a, b joinSide, i, j int) []Value {
	var vals []Value
	for k := range a.keys {
		if i >= 0 {
			vals = append(vals, a.keys[k].Value(i))
		} else {
			vals = append(vals, b.keys[k].Value(j))
		}
	}
	for _, c := range a.others {
		vals = append(vals, cellOrNull(c, i))
	}
	for _, c := range b.others {
		vals = append(vals, cellOrNull(c, j))
	}
	return vals
}

func cellOrNull(c *ResultCol, i int) Value {
	if i < 0 {
		return Null
	}
	return c.Value(i)
}

// joinNames names the non-key columns, suffixing labels both sides have.
func joinNames(a, b joinSide) []string {
	la, lb := a.r.Source, b.r.Source
	if la == "" || lb == "" || la == lb {
		la, lb = "left", "right"
	}
	inB, inA := map[string]bool{}, map[string]bool{}
	for _, c := range b.others {
		inB[c.Label()] = true
	}
	for _, c := range a.others {
		inA[c.Label()] = true
	}
	var names []string
	for _, c := range a.others {
		names = append(names, suffixed(c, inB[c.Label()], la))
	}
	for _, c := range b.others {
		names = append(names, suffixed(c, inA[c.Label()], lb))
	}
	return names
}

func suffixed(c *ResultCol, clash bool, side string) string {
	if !clash {
		return c.Name
	}
	n := c.Label() + " (" + side + ")"
	if t := c.Tag(); t != "" {
		n += ":" + t
	}
	return n
}

func joinSource(a, b *Result) string {
	if a.Source == b.Source {
		return a.Source
	}
	return a.Source + " ⋈ " + b.Source
}
