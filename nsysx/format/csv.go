package format

import (
	"bufio"
	"strings"
)

// writeDelimited writes csv or tsv: an optional header line, then one line per
// row. Zero rows print nothing at all, not even the header.
func writeDelimited(w *bufio.Writer, t *textTable, noHeader bool, sep byte, field func(string) string) {
	if t.rows == 0 {
		return
	}
	line := func(vals []string) {
		for j, v := range vals {
			if j > 0 {
				w.WriteByte(sep)
			}
			w.WriteString(field(v))
		}
		w.WriteByte('\n')
	}
	if !noHeader {
		line(t.heads)
	}
	var buf []string
	for i := 0; i < t.rows; i++ {
		buf = t.row(i, buf)
		line(buf)
	}
}

// csvField quotes a value that holds a comma and escapes nothing, as nsys does:
// `a,"b"` becomes `"a,"b""`.
func csvField(s string) string {
	if strings.IndexByte(s, ',') >= 0 {
		return `"` + s + `"`
	}
	return s
}

// tsvField replaces each TAB with a space.
func tsvField(s string) string { return strings.ReplaceAll(s, "\t", " ") }

// tsvEscField writes each TAB as the two characters \t (tsv:esc).
func tsvEscField(s string) string { return strings.ReplaceAll(s, "\t", `\t`) }
