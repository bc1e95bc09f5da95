package format

import (
	"bufio"
	"runtime"
	"strconv"
	"strings"
	"sync"

	"github.com/nsysx/nsysx/nsysx"
	"github.com/nsysx/nsysx/nsysx/model"
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
		for i := lo; i < hi; i++ {
			for j, c := range t.cols {
				if j > 0 {
					b = append(b, sep)
				}
				v := c.Value(i)
				if t.convs[j] == nil {
					switch {
					case v.Kind == nsysx.IntKind:
						b = strconv.AppendInt(b, v.I, 10) // numbers need no quoting
						continue
					case v.Kind == nsysx.FloatKind:
						b = model.AppendPyFloat(b, v.F)
						continue
					case v.Kind == nsysx.TextKind && sep == ',': // csvField without a string
						if strings.IndexByte(v.S, ',') >= 0 {
							b = append(append(append(b, '"'), v.S...), '"')
						} else {
							b = append(b, v.S...)
						}
						continue
					}
				}
				b = append(b, field(t.text(j, v))...)
			}
			b = append(b, '\n')
		}
		return b
	})
}

// renderRows renders rows [0, n) in chunks, concurrently when there are
// many rows and several cores, and writes the chunks in order. At most a few
// chunks are in memory at a time, and their buffers are reused.
func renderRows(w *bufio.Writer, n int, render func(b []byte, lo, hi int) []byte) {
	const chunk = 4096
	workers := runtime.GOMAXPROCS(0)
	if n <= chunk || workers < 2 {
		var b []byte
		for lo := 0; lo < n; lo += chunk {
			b = render(b[:0], lo, min(lo+chunk, n))
			w.Write(b)
		}
		return
	}
	pool := sync.Pool{New: func() any { b := make([]byte, 0, 512*1024); return &b }}
	type part struct {
		lo   int
		done chan []byte
	}
	parts := make(chan part, workers)
	go func() {
		defer close(parts)
		sem := make(chan struct{}, workers)
		for lo := 0; lo < n; lo += chunk {
			p := part{lo: lo, done: make(chan []byte, 1)}
			sem <- struct{}{}
			parts <- p
			go func() {
				defer func() { <-sem }()
				p.done <- render((*pool.Get().(*[]byte))[:0], p.lo, min(p.lo+chunk, n))
			}()
		}
	}()
	for p := range parts {
		b := <-p.done
		w.Write(b)
		b = b[:0]
		pool.Put(&b)
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
