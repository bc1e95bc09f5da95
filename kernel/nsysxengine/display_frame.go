package nsysxengine

import (
	"fmt"
	"html"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/nsysx/nsysx/nsysx"
	"github.com/nsysx/nsysx/nsysx/recipe"
)

// FrameBundle shows a recipe table: its name and row count, an HTML table
// (the index columns first, as pandas shows them; at most o.MaxRows rows)
// and the same as aligned text. name is the file name without .parquet
// ("" for none). The cells are the frame's Result (frame.Frame.Result) as
// the CSV formatter writes it, as a report result's are (resultBundle).
func FrameBundle(name string, f *recipe.Frame, o TableOptions) map[string]any {
	o = o.norm()
	if f == nil {
		return TextBundle(name + ": no table")
	}
	n := f.Rows()
	shown := headResult(f.Result("recipe", name), o.MaxRows)
	heads, cells := csvCells(shown)
	vis := shown.Visible()
	numeric := make([]bool, len(vis))
	for j, c := range vis {
		numeric[j] = c.Kind == nsysx.IntKind || c.Kind == nsysx.FloatKind
	}
	title := name
	if title != "" {
		title += ": "
	}
	title += rowCount(n)
	note := rowsNote(shown.Len(), n)
	var h strings.Builder
	fmt.Fprintf(&h, `<div class="nsysx-result"><p style="margin:0.3em 0"><b>%s</b> <span style="color:#666">%s</span></p>`,
		html.EscapeString(name), html.EscapeString(rowCount(n)))
	if len(vis) > 0 {
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
