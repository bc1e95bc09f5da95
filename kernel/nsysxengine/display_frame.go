package nsysxengine

import (
	"fmt"
	"html"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/nsysx/nsysx/nsysx/recipe"
)

// FrameBundle shows a recipe table: its name and row count, an HTML table
// (the index columns first, as pandas shows them; at most o.MaxRows rows)
// and the same as aligned text. name is the file name without .parquet
// ("" for none).
func FrameBundle(name string, f *recipe.Frame, o TableOptions) map[string]any {
	o = o.norm()
	if f == nil {
		return TextBundle(name + ": no table")
	}
	cols := frameDisplayCols(f)
	n := f.Rows()
	shown := min(n, o.MaxRows)
	heads := make([]string, len(cols))
	numeric := make([]bool, len(cols))
	for j, c := range cols {
		heads[j] = c.Name
		numeric[j] = c.Kind == recipe.Int64 || c.Kind == recipe.Uint64 || c.Kind == recipe.Uint32 || c.Kind == recipe.Float64
	}
	cells := make([][]string, shown)
	for i := range cells {
		cells[i] = make([]string, len(cols))
		for j, c := range cols {
			cells[i][j] = FrameCell(c, i)
		}
	}
	title := name
	if title != "" {
		title += ": "
	}
	title += rowCount(n)
	note := rowsNote(shown, n)
	var h strings.Builder
	fmt.Fprintf(&h, `<div class="nsysx-result"><p style="margin:0.3em 0"><b>%s</b> <span style="color:#666">%s</span></p>`,
		html.EscapeString(name), html.EscapeString(rowCount(n)))
	if len(cols) > 0 {
		writeHTMLTable(&h, heads, cells, numeric, o.MaxText)
	}
	if note != "" && n > 0 {
		fmt.Fprintf(&h, `<p style="color:#666;font-size:90%%">%s</p>`, html.EscapeString(note))
	}
	h.WriteString(`</div>`)
	text := title + "\n" + alignedText(heads, cells, numeric, o.MaxText)
	if note != "" && n > 0 {
		text += note + "\n"
	}
	return map[string]any{"text/html": h.String(), "text/plain": strings.TrimRight(text, "\n")}
}

func rowCount(n int) string {
	if n == 1 {
		return "1 row"
	}
	return group(strconv.Itoa(n)) + " rows"
}

// frameDisplayCols orders a frame's columns for display: a named index
// first, then the data; the stored unnamed index (__index_level_0__) is
// left out.
func frameDisplayCols(f *recipe.Frame) []*recipe.Column {
	var idx, data []*recipe.Column
	isIdx := map[string]bool{}
	if f.Index == recipe.NamedIndex {
		for _, n := range f.IndexCols {
			isIdx[n] = true
		}
	}
	for _, c := range f.Cols {
		switch {
		case c.Name == recipe.LevelIndexName:
		case isIdx[c.Name]:
			idx = append(idx, c)
		default:
			data = append(data, c)
		}
	}
	return append(idx, data...)
}

// FrameCell is row i of a column as text, as nsys's CSV writes it: NULL is
// empty, floats are the shortest round-trip text, lists are "[0, 1]".
func FrameCell(c *recipe.Column, i int) string {
	if c.IsNull(i) {
		return ""
	}
	switch c.Kind {
	case recipe.Float64:
		v := c.Floats[i]
		if math.IsNaN(v) {
			return ""
		}
		s := strconv.FormatFloat(v, 'f', -1, 64)
		if !strings.Contains(s, ".") && !math.IsInf(v, 0) {
			s += ".0"
		}
		return s
	case recipe.String:
		return c.Strs[i]
	case recipe.Uint64:
		return strconv.FormatUint(uint64(c.Ints[i]), 10)
	case recipe.ListInt64:
		parts := make([]string, len(c.Lists[i]))
		for k, v := range c.Lists[i] {
			parts[k] = strconv.FormatInt(v, 10)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	}
	return strconv.FormatInt(c.Ints[i], 10)
}

// alignedText lays cells out in columns: numbers right-aligned, long text
// shortened.
func alignedText(heads []string, rows [][]string, numeric []bool, maxText int) string {
	w := make([]int, len(heads))
	short := func(j int, s string) string {
		if !numeric[j] {
			return Shorten(s, maxText)
		}
		return s
	}
	for j, h := range heads {
		w[j] = utf8.RuneCountInString(h)
		for _, r := range rows {
			w[j] = max(w[j], utf8.RuneCountInString(short(j, r[j])))
		}
	}
	var b strings.Builder
	line := func(cells []string) {
		for j, s := range cells {
			s = short(j, s)
			pad := strings.Repeat(" ", w[j]-utf8.RuneCountInString(s))
			if j > 0 {
				b.WriteString("  ")
			}
			if numeric[j] {
				b.WriteString(pad + s)
			} else if j < len(cells)-1 {
				b.WriteString(s + pad)
			} else {
				b.WriteString(s)
			}
		}
		b.WriteString("\n")
	}
	line(heads)
	for _, r := range rows {
		line(r)
	}
	return b.String()
}

// outputBundle shows a recipe output's tables one after another; title
// names the recipe.
func (e *Engine) outputBundle(title string, o *recipe.Output) map[string]any {
	bs := make([]map[string]any, 0, len(o.Tables)+1)
	if title != "" {
		bs = append(bs, map[string]any{"text/html": "<p><b>" + html.EscapeString(title) + "</b></p>", "text/plain": title})
	}
	for _, t := range o.Tables {
		bs = append(bs, FrameBundle(t.Name, t.Frame, e.TableOptions()))
	}
	return joinBundles(bs)
}
