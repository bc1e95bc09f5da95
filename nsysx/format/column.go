package format

import (
	"bufio"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/nsysx/nsysx/nsysx"
)

const (
	defaultAutoLines = 100
	defaultColMax    = 100
	noDataMessage    = "Report was successfully run, but no data was returned."
	ellipsis         = "…"
)

// writeConsole writes the column or table (boxed) format: the title block,
// a rule's advice (or a report's note), the table and a rule's row-limit
// note; or, for zero rows,
// the no-data text (after table's odd "+--+").
func writeConsole(w *bufio.Writer, r *nsysx.Result, t *textTable, s Spec, boxed bool) {
	if t.rows == 0 {
		if boxed {
			w.WriteString("+--+\n")
		}
		writeTitle(w, r)
		if r.IsRule {
			writeLines(w, wrapText(r.NoResult, wrapWidth))
		} else {
			w.WriteString(noDataMessage + "\n")
		}
		w.WriteByte('\n')
		return
	}
	writeTitle(w, r)
	if r.IsRule || r.Advice != "" {
		writeLines(w, wrapText(r.Advice, wrapWidth))
		w.WriteByte('\n')
	}
	writeGrid(w, t, s, boxed)
	if r.IsRule && r.RowLimit > 0 && t.rows == r.RowLimit {
		w.WriteString("\n" + rowLimitMessage(r.RowLimit) + "\n\n")
	}
}

func writeTitle(w *bufio.Writer, r *nsysx.Result) {
	w.WriteString("\n ** " + r.Title + " (" + r.Report + "):\n\n")
}

func writeLines(w *bufio.Writer, lines []string) {
	for _, l := range lines {
		w.WriteString(l)
		w.WriteByte('\n')
	}
}

// layout is the shape of one displayed column.
type layout struct {
	width int  // in code points
	right bool // numeric column: cells right-aligned
	frac  int  // F: width of the widest scanned fraction (".ddd")
}

// gridCol reformats one column's cells on demand (see prep).
type gridCol struct {
	head       string
	src        func(i int) string
	rows       int
	fmtNumbers bool
	sep        string
}

// writeGrid lays out and writes the header, dash or border lines and rows.
func writeGrid(w *bufio.Writer, t *textTable, s Spec, boxed bool) {
	sep := s.sep()
	var shown []layout
	var cols []*gridCol
	hidden := 0
	for j := 0; j < t.ncols(); j++ {
		g := &gridCol{head: t.heads[j], src: func(i int) string { return t.cell(j, i) }, rows: t.rows, fmtNumbers: !s.NoFormat, sep: sep}
		l := g.layout(s, j)
		if l.width == 0 {
			hidden++ // nsys draws hidden columns as empty ones at the end
			continue
		}
		shown = append(shown, l)
		cols = append(cols, g)
	}
	line := func(cell func(k int) string, lead, between, trail string) {
		w.WriteString(lead)
		for k := range shown {
			if k > 0 {
				w.WriteString(between)
			}
			w.WriteString(cell(k))
		}
		for range hidden {
			w.WriteString(between)
		}
		w.WriteString(trail)
		w.WriteByte('\n')
	}
	lead, between, trail := " ", "  ", ""
	if boxed {
		lead, between, trail = "| ", " | ", " |"
	}
	rule := func() {
		w.WriteByte('+')
		for _, l := range shown {
			w.WriteString(strings.Repeat("-", l.width+2) + "+")
		}
		w.WriteString(strings.Repeat("--+", hidden))
		w.WriteByte('\n')
	}
	if boxed {
		rule()
	}
	if !s.NoHeader {
		line(func(k int) string { return centre(cols[k].head, shown[k].width) }, lead, between, trail)
		if boxed {
			rule()
		} else {
			line(func(k int) string { return strings.Repeat("-", shown[k].width) }, lead, between, trail)
		}
	}
	for i := 0; i < t.rows; i++ {
		line(func(k int) string { return cols[k].render(i, shown[k]) }, lead, between, trail)
	}
	if boxed {
		rule()
	}
}

// prep reformats cell i's number (unless nofmt) and returns it with the
// fraction width used for decimal alignment (-1 for text, exponent numbers
// and nofmt) and the class of the unreformatted cell, for the type vote.
func (g *gridCol) prep(i int) (cell string, frac int, class numClass) {
	c := g.src(i)
	class, dec := classify(c)
	if !g.fmtNumbers || class == notNumber {
		return c, -1, class
	}
	f := reformat(c, class, dec, g.sep)
	frac = -1
	if class != expNumber && !isSpecial(f) {
		if dot := strings.IndexByte(f, '.'); dot >= 0 {
			frac = len(f) - dot
		} else {
			frac = 0
		}
	}
	return f, frac, class
}

func isSpecial(s string) bool { return s == "inf" || s == "-inf" || s == "nan" }

// layout computes column j's width, alignment and fraction width from the
// header and the first autolines rows.
func (g *gridCol) layout(s Spec, j int) layout {
	n := g.rows
	switch {
	case s.AutoLines == 0:
		n = min(n, defaultAutoLines)
	case s.AutoLines > 0:
		n = min(n, s.AutoLines)
	}
	var l layout
	numeric, text, intW, other := 0, 0, 0, width(g.head)
	for i := 0; i < n; i++ {
		c, f, class := g.prep(i)
		if c != "" {
			if class == notNumber {
				text++
			} else {
				numeric++
			}
		}
		if f >= 0 {
			intW = max(intW, len(c)-f) // reformatted numbers are ASCII
			l.frac = max(l.frac, f)
		} else {
			other = max(other, width(c))
		}
	}
	l.right = numeric > text
	l.width = max(other, intW+l.frac)
	switch {
	case s.ColMax == 0 && l.width > defaultColMax:
		l.width = defaultColMax
	case s.ColMax > 0 && l.width > s.ColMax:
		l.width = s.ColMax
	}
	if j < len(s.Widths) && s.Widths[j] >= 0 {
		l.width = s.Widths[j]
	}
	return l
}

// render fits cell i into its column: a decimal-aligned number gets its
// fraction padded to the column's, then the text is aligned or clipped.
func (g *gridCol) render(i int, l layout) string {
	c, f, _ := g.prep(i)
	if f >= 0 && l.frac > f {
		c += strings.Repeat(" ", l.frac-f)
	}
	n := width(c)
	switch {
	case n > l.width:
		return clip(c, l.width)
	case n == l.width:
		return c
	case l.right:
		return strings.Repeat(" ", l.width-n) + c
	}
	return c + strings.Repeat(" ", l.width-n)
}

// centre centres a header, the odd space going right, or clips it.
func centre(s string, w int) string {
	n := width(s)
	if n > w {
		return clip(s, w)
	}
	left := (w - n) / 2
	return strings.Repeat(" ", left) + s + strings.Repeat(" ", w-n-left)
}

// clip cuts s to w code points, the last one being "…".
func clip(s string, w int) string {
	if w <= 0 {
		return ""
	}
	keep := w - 1
	i := 0
	for k := 0; k < keep; k++ {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	return s[:i] + ellipsis
}

func itoa(n int) string { return strconv.Itoa(n) }
