package main

import (
	"fmt"
	"io"
	"os"
	"strings"
)

// progress draws a one-line bar on a terminal; it prints nothing when the
// writer is not a terminal or when quiet.
type progress struct {
	w     io.Writer
	label string
	on    bool
	drawn bool
}

func newProgress(w io.Writer, label string, quiet bool) *progress {
	on := false
	if f, ok := w.(*os.File); ok && !quiet {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
			on = true
		}
	}
	return &progress{w: w, label: label, on: on}
}

func (p *progress) update(done, total int) {
	if !p.on || total <= 0 {
		return
	}
	const width = 30
	n := done * width / total
	fmt.Fprintf(p.w, "\r%s [%s%s] %d/%d", p.label, strings.Repeat("#", n), strings.Repeat(".", width-n), done, total)
	p.drawn = true
}

func (p *progress) done() {
	if p.drawn {
		fmt.Fprintln(p.w)
	}
}
