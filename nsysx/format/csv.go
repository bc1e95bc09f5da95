package format

import (
	"bufio"
	"runtime"
	"strings"
)

// writeDelimited writes csv or tsv: an optional header line, then one line per
// row. Zero rows print nothing at all, not even the header. Large results are
// rendered in chunks on all cores and written in order.
func writeDelimited(w *bufio.Writer, t *textTable, noHeader bool, sep byte, field func(string) string) {
	if t.rows == 0 {
		return
	}
	line := func(b []byte, vals []string) []byte {
		for j, v := range vals {
			if j > 0 {
				b = append(b, sep)
			}
			b = append(b, field(v)...)
		}
		return append(b, '\n')
	}
	if !noHeader {
		w.Write(line(nil, t.heads))
	}
	renderRows(w, t.rows, func(b []byte, lo, hi int) []byte {
		var buf []string
		for i := lo; i < hi; i++ {
			buf = t.row(i, buf)
			b = line(b, buf)
		}
		return b
	})
}

// renderRows renders rows [0, n) in chunks, concurrently when there are many,
// and writes the chunks in order.
func renderRows(w *bufio.Writer, n int, render func(b []byte, lo, hi int) []byte) {
	const chunk = 4096
	workers := runtime.GOMAXPROCS(0)
	if n <= chunk || workers < 2 {
		w.Write(render(nil, 0, n))
		return
	}
	type part struct {
		lo   int
		done chan []byte
	}
	parts := make(chan part, workers*2)
	go func() {
		defer close(parts)
		sem := make(chan struct{}, workers)
		for lo := 0; lo < n; lo += chunk {
			p := part{lo: lo, done: make(chan []byte, 1)}
			parts <- p
			sem <- struct{}{}
			go func() {
				defer func() { <-sem }()
				p.done <- render(make([]byte, 0, 256*1024), p.lo, min(p.lo+chunk, n))
			}()
		}
	}()
	for p := range parts {
		w.Write(<-p.done)
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
