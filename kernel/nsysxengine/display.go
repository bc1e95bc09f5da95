package nsysxengine

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"html"
	"math"
	"strings"
	"unicode/utf8"

	"github.com/nsysx/nsysx/nsysx"
	"github.com/nsysx/nsysx/nsysx/format"
)

// The MIME types of the typed data in nsysx bundles. They are not
// application/json on purpose: JupyterLab ranks its JSON tree viewer
// above HTML, so a bundle holding application/json shows a tree there
// instead of the table. A "+json" vendor type is stored unpacked in
// notebooks, like application/json, and frontends that do not know it
// show the HTML or the text.
const (
	ResultMIME  = "application/vnd.nsysx.result+json"
	ProfileMIME = "application/vnd.nsysx.profile+json"
)

// TableOptions tune how tables are shown in notebooks.
type TableOptions struct {
	MaxRows int // rows shown; the others are counted in a note (default 50)
	MaxText int // characters of a text cell before it is shortened (default 60)

	// Label, when set, names the profile a result comes from in every
	// form of its display (outputs of several profiles set it).
	Label string
}

// DefaultTableOptions are the options cells start with.
var DefaultTableOptions = TableOptions{MaxRows: 50, MaxText: 60}

func (o TableOptions) norm() TableOptions {
	if o.MaxRows <= 0 {
		o.MaxRows = DefaultTableOptions.MaxRows
	}
	if o.MaxText <= 0 {
		o.MaxText = DefaultTableOptions.MaxText
	}
	return o
}

// ResultBundle shows a report or rule result: an HTML table (numbers
// right-aligned with thousands separators, long names shortened with the
// full text in a title attribute, at most o.MaxRows rows and a "showing N
// of M rows" note), text/plain in nsys's column format, and ResultMIME
// (JSON) with the typed cells of the rows shown.
func ResultBundle(r *nsysx.Result, o TableOptions) map[string]any {
	return resultBundle(r, r.Len(), o)
}

// resultBundle is ResultBundle for a result whose first rows are r's rows
// and which has total rows in all (SQL queries keep only the rows shown).
func resultBundle(r *nsysx.Result, total int, o TableOptions) map[string]any {
	o = o.norm()
	if err := r.Err(); err != nil {
		return ErrorBundle(err)
	}
	title := resultTitle(r)
	labelText, labelHTML := profileLabel(o.Label)
	if r.Skipped != "" {
		return skippedResultBundle(r, o.Label)
	}
	shown := headResult(r, o.MaxRows)
	heads, cells := csvCells(shown)
	vis := shown.Visible()
	numeric := make([]bool, len(vis))
	for j, c := range vis {
		numeric[j] = c.Kind == nsysx.IntKind || c.Kind == nsysx.FloatKind
	}
	note := rowsNote(shown.Len(), total)
	verdict := r.IsRule && total == 0 && r.NoResult != ""
	if verdict {
		note = r.NoResult
	}

	var h strings.Builder
	h.WriteString(`<div class="nsysx-result">`)
	h.WriteString(labelHTML)
	h.WriteString(titleHTML(r))
	switch {
	case verdict:
		// a rule that found nothing: the verdict first, what the rule
		// looks for folded under it (the CLI prints nsys's text as is)
		fmt.Fprintf(&h, `<p><b>%s</b></p>`, html.EscapeString(note))
		if r.Advice != "" {
			fmt.Fprintf(&h, `<details><summary>What this rule checks</summary><pre style="white-space:pre-wrap">%s</pre></details>`,
				html.EscapeString(r.Advice))
		}
		note = ""
	case r.Advice != "":
		fmt.Fprintf(&h, `<pre style="white-space:pre-wrap">%s</pre>`, html.EscapeString(r.Advice))
	}
	if len(heads) > 0 && (shown.Len() > 0 || !r.IsRule) {
		writeHTMLTable(&h, heads, cells, numeric, o.MaxText)
	}
	if note != "" {
		fmt.Fprintf(&h, `<p style="color:#666;font-size:90%%">%s</p>`, html.EscapeString(note))
	}
	h.WriteString(`</div>`)

	var t bytes.Buffer // nsys's column format, which has its own title line
	if err := format.Write(&t, shown, format.Spec{Name: "column"}); err != nil {
		fmt.Fprintf(&t, "(%v)\n", err)
	}
	if note != "" {
		t.WriteString(note + "\n")
	}
	text := strings.Trim(t.String(), "\n")
	if text == "" {
		text = title
	}
	js := resultJSON(shown, heads, total)
	if o.Label != "" {
		js["profile"] = o.Label
	}
	return map[string]any{"text/html": h.String(), "text/plain": labelText + text, ResultMIME: js}
}

// ErrorBundle shows an error in place of a value: "error: ..." in text,
// in red in HTML.
func ErrorBundle(err error) map[string]any {
	msg := "error: " + err.Error()
	return map[string]any{"text/plain": msg,
		"text/html": `<pre style="color:#b00;white-space:pre-wrap">` + html.EscapeString(msg) + `</pre>`}
}

// profileLabel is the "Profile: NAME" line of a labelled result, as text
// and HTML ("" when unlabelled).
func profileLabel(label string) (text, h string) {
	if label == "" {
		return "", ""
	}
	return "Profile: " + label + "\n", `<p style="margin:0.3em 0">Profile: <b>` + html.EscapeString(label) + `</b></p>`
}

// skippedResultBundle shows a SKIPPED result with nsys's message.
func skippedResultBundle(r *nsysx.Result, label string) map[string]any {
	lt, lh := profileLabel(label)
	return map[string]any{
		"text/plain": lt + resultTitle(r) + "\nSKIPPED: " + r.Skipped,
		"text/html":  `<div class="nsysx-result">` + lh + titleHTML(r) + `<p><i>SKIPPED: ` + html.EscapeString(r.Skipped) + `</i></p></div>`,
		ResultMIME: map[string]any{"report": r.Report, "title": r.Title, "args": r.Args, "profile": label,
			"skipped": r.Skipped, "columns": []any{}, "rows": []any{}, "total_rows": 0},
	}
}

// resultTitle is "CUDA GPU Kernel Summary (cuda_gpu_kern_sum:base)".
func resultTitle(r *nsysx.Result) string {
	name := r.Report
	if r.Args != "" {
		name += ":" + r.Args
	}
	if r.Title == "" {
		return name
	}
	if name == "" {
		return r.Title
	}
	return r.Title + " (" + name + ")"
}

func titleHTML(r *nsysx.Result) string {
	s := "<b>" + html.EscapeString(r.Title) + "</b>"
	if r.Report != "" {
		name := r.Report
		if r.Args != "" {
			name += ":" + r.Args
		}
		s += " <code>" + html.EscapeString(name) + "</code>"
	}
	return `<p style="margin:0.3em 0">` + s + `</p>`
}

// rowsNote is "showing 50 of 1,234 rows" when rows are left out.
func rowsNote(shown, total int) string {
	switch {
	case total < 0:
		return fmt.Sprintf("showing %s of more than %s rows", group(fmt.Sprint(shown)), group(fmt.Sprint(-total)))
	case shown < total:
		return fmt.Sprintf("showing %s of %s rows", group(fmt.Sprint(shown)), group(fmt.Sprint(total)))
	case total == 0:
		return "no rows"
	}
	return ""
}

// headResult returns r itself, or a copy of its first n rows.
func headResult(r *nsysx.Result, n int) *nsysx.Result {
	if r.Len() <= n {
		return r
	}
	names := make([]string, len(r.Cols))
	for i, c := range r.Cols {
		names[i] = c.Name
	}
	h := nsysx.NewResult(r.Report, r.Title, names...)
	h.Args, h.Advice, h.NoResult, h.RowLimit, h.IsRule = r.Args, r.Advice, r.NoResult, r.RowLimit, r.IsRule
	h.Grow(n)
	for i := 0; i < n; i++ {
		h.Add(r.Row(i)...)
	}
	return h
}

// csvCells renders r with nsys's csv formatter (so units are converted as
// in every nsys format) and reads the headers and cell texts back.
func csvCells(r *nsysx.Result) ([]string, [][]string) {
	var b bytes.Buffer
	if err := format.Write(&b, r, format.Spec{Name: "csv"}); err != nil || b.Len() == 0 {
		return format.Headers(r, format.Spec{Name: "csv"}), nil
	}
	rd := csv.NewReader(&b)
	rd.FieldsPerRecord = -1
	recs, err := rd.ReadAll()
	if err != nil || len(recs) == 0 {
		return format.Headers(r, format.Spec{Name: "csv"}), nil
	}
	return recs[0], recs[1:]
}

// writeHTMLTable writes a table; numeric columns are right-aligned and
// their numbers grouped by thousands, text longer than maxText is
// shortened with the whole text in a title attribute.
func writeHTMLTable(h *strings.Builder, heads []string, rows [][]string, numeric []bool, maxText int) {
	h.WriteString(`<table class="nsysx-table" style="font-variant-numeric:tabular-nums"><thead><tr>`)
	for j, hd := range heads {
		align := "left"
		if j < len(numeric) && numeric[j] {
			align = "right"
		}
		fmt.Fprintf(h, `<th align="%s" style="text-align:%s">%s</th>`, align, align, leftWrap(align == "left", html.EscapeString(hd)))
	}
	h.WriteString("</tr></thead><tbody>\n")
	for _, row := range rows {
		h.WriteString("<tr>")
		for j, cell := range row {
			num := j < len(numeric) && numeric[j]
			switch {
			case num && format.IsNumber(cell):
				fmt.Fprintf(h, `<td align="right" style="text-align:right">%s</td>`, group(cell))
			case num:
				fmt.Fprintf(h, `<td align="right" style="text-align:right">%s</td>`, html.EscapeString(cell))
			case utf8.RuneCountInString(cell) > maxText:
				fmt.Fprintf(h, `<td align="left" style="text-align:left" title="%s">%s</td>`, html.EscapeString(cell), leftWrap(true, html.EscapeString(Shorten(cell, maxText))))
			default:
				fmt.Fprintf(h, `<td align="left" style="text-align:left">%s</td>`, leftWrap(true, html.EscapeString(cell)))
			}
		}
		h.WriteString("</tr>\n")
	}
	h.WriteString("</tbody></table>")
}

// leftWrap puts left-aligned cell text in a div of Bootstrap's text-left
// class: an untrusted notebook loses the inline styles, and the classic
// Notebook's stylesheet right-aligns every cell (its rule beats the align
// attribute, but not a class on the cell's own content).
func leftWrap(left bool, s string) string {
	if !left {
		return s
	}
	return `<div class="text-left" style="text-align:left">` + s + `</div>`
}

// Shorten cuts s to at most n characters, ending with "…". C++ names
// first lose what distinguishes kernels least: their parameter lists
// ("k<float>(float *, int)" becomes "k<float>(…)"), a leading "void ",
// then nested template arguments ("k<a<b>, c>" becomes "k<a<…>, c>").
func Shorten(s string, n int) string {
	fits := func(x string) bool { return utf8.RuneCountInString(x) <= n }
	if fits(s) {
		return s
	}
	s = collapse(s, '(', ')', 0)
	if !fits(s) {
		s = strings.TrimPrefix(s, "void ")
	}
	if !fits(s) {
		s = collapse(s, '<', '>', 1)
	}
	if fits(s) {
		return s
	}
	rs := []rune(s)
	return string(rs[:max(n-1, 0)]) + "…"
}

// collapse replaces by "…" the contents of the open/close brackets found
// at template depth depth (0: outside any <...>). Unbalanced text is
// returned unchanged.
func collapse(s string, open, close rune, depth int) string {
	rs := []rune(s)
	var b strings.Builder
	angle := 0
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		if r == open && angle == depth {
			j, level := i+1, 1
			for ; j < len(rs) && level > 0; j++ {
				switch rs[j] {
				case open:
					level++
				case close:
					level--
				}
			}
			if level != 0 {
				return s
			}
			b.WriteRune(open)
			b.WriteString("…")
			b.WriteRune(close)
			i = j - 1
			continue
		}
		switch r {
		case '<':
			angle++
		case '>':
			angle--
		}
		b.WriteRune(r)
	}
	return b.String()
}

// group inserts thousands separators into the integer part of a number:
// "1234567.5" becomes "1,234,567.5".
func group(s string) string {
	sign := ""
	if strings.HasPrefix(s, "-") || strings.HasPrefix(s, "+") {
		sign, s = s[:1], s[1:]
	}
	intPart, rest := s, ""
	if i := strings.IndexAny(s, ".eE"); i >= 0 {
		intPart, rest = s[:i], s[i:]
	}
	if len(intPart) <= 3 {
		return sign + s
	}
	var b strings.Builder
	for i, c := range intPart {
		if i > 0 && (len(intPart)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return sign + b.String() + rest
}

// resultJSON is the ResultMIME data of a result: the typed cells of the
// rows shown (numbers before unit conversion).
func resultJSON(r *nsysx.Result, heads []string, total int) map[string]any {
	vis := r.Visible()
	cols := make([]any, len(vis))
	for j, c := range vis {
		cols[j] = c.Name
	}
	rows := make([]any, r.Len())
	for i := range rows {
		row := make([]any, len(vis))
		for j, c := range vis {
			row[j] = jsonValue(c.Value(i))
		}
		rows[i] = row
	}
	hs := make([]any, len(heads))
	for i, h := range heads {
		hs[i] = h
	}
	return map[string]any{"report": r.Report, "title": r.Title, "args": r.Args,
		"columns": cols, "headers": hs, "rows": rows, "total_rows": total}
}

func jsonValue(v nsysx.Value) any {
	switch v.Kind {
	case nsysx.IntKind:
		return v.I
	case nsysx.FloatKind:
		if math.IsNaN(v.F) || math.IsInf(v.F, 0) {
			return v.String() // JSON has no NaN or infinities
		}
		return v.F
	case nsysx.TextKind:
		return v.S
	}
	return nil
}
