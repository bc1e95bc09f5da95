package gointerp

import (
	"io"
	"regexp"
	"sync"
)

// switchWriter is the interpreter's stdout or stderr: it writes to the
// Output of the evaluation in progress (or of the last one).
type switchWriter struct {
	e      *Engine
	stderr bool
}

func (w *switchWriter) Write(p []byte) (int, error) {
	out := w.e.current().out
	if w.stderr {
		return out.Stderr().Write(p)
	}
	return out.Stdout().Write(p)
}

// panicFrameRe matches the line yaegi prints to stderr for each function a
// panic unwinds, e.g. "3:5: panic: main.f(...)".
var panicFrameRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(?:\S*\.go:)?(\d+):(\d+): panic: (.*?)\n?$`) })

// panicFilter keeps yaegi's panic frame lines out of the cell's stderr and
// records them for the error traceback: those of the evaluation's
// goroutine in the run, those of other goroutines by goroutine id, for
// goPanic (at most maxGoFrames goroutines: frames of a panic that compiled
// code recovers on its own goroutine are never claimed).
type panicFilter struct {
	e *Engine
	w io.Writer
}

func (f *panicFilter) Write(p []byte) (int, error) {
	if len(p) < 200 && panicFrameRe().Match(p) {
		id := goid()
		f.e.mu.Lock()
		defer f.e.mu.Unlock()
		if r := f.e.run; r.goid != 0 && r.goid == id { // 0: not started, the line is another goroutine's
			r.frames = append(r.frames, string(p))
		} else if len(f.e.goFrames) < maxGoFrames || f.e.goFrames[id] != nil {
			f.e.goFrames[id] = append(f.e.goFrames[id], string(p))
		}
		return len(p), nil
	}
	return f.w.Write(p)
}

const maxGoFrames = 64

// inputReader is the interpreter's stdin (fmt.Scan...): each time it runs
// dry it asks the frontend for a line.
type inputReader struct {
	e   *Engine
	mu  sync.Mutex
	buf []byte
}

func (r *inputReader) Read(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.buf) == 0 {
		line, err := r.e.current().out.Input("", false)
		if err != nil {
			return 0, io.EOF
		}
		r.buf = append(r.buf, line...)
		r.buf = append(r.buf, '\n')
	}
	n := copy(p, r.buf)
	r.buf = r.buf[n:]
	return n, nil
}
