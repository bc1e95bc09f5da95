package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
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

// barLog is the progress bar and the notes of `nsysx recipe` (see
// runRecipeOpts): it keeps them from overwriting each other, and holds back
// the "skipped" notes until the run is over.
type barLog struct {
	mu      sync.Mutex
	bar     *progress
	w       io.Writer
	skipped []string
}

func (b *barLog) update(done, total int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.bar.update(done, total)
}

func (b *barLog) note(msg string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.bar.drawn {
		fmt.Fprint(b.w, "\r\033[K")
		b.bar.drawn = false
	}
	fmt.Fprintf(b.w, "nsysx recipe: %s\n", msg)
}

// log is the recipe's Log: skipped reports are printed by flush.
func (b *barLog) log(msg string) {
	if strings.HasPrefix(msg, "skipped ") {
		b.mu.Lock()
		b.skipped = append(b.skipped, msg)
		b.mu.Unlock()
		return
	}
	b.note(msg)
}

func (b *barLog) flush() {
	for _, msg := range b.skipped {
		b.note(msg)
	}
}
