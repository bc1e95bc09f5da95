package kernel

import (
	"sync"
	"time"
	"unicode/utf8"
)

// Stream batching: text written to a cell's stdout or stderr is sent as
// stream messages of at most streamMax bytes, flushed every streamEvery,
// when the buffer is full, before any other output of the cell and at its
// end. A writer never holds more than streamMax bytes: a full buffer is
// published (blocking the writer while iopub is congested) before more is
// accepted.
const (
	streamMax   = 64 << 10
	streamEvery = 50 * time.Millisecond
)

type streamWriter struct {
	name    string
	publish func(name, text string)

	mu     sync.Mutex
	buf    []byte
	closed bool
}

func newStreamWriter(name string, publish func(name, text string)) *streamWriter {
	return &streamWriter{name: name, publish: publish}
}

func (w *streamWriter) Write(p []byte) (int, error) {
	n := len(p)
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return n, nil
	}
	for len(p) > 0 {
		k := min(streamMax-len(w.buf), len(p))
		w.buf = append(w.buf, p[:k]...)
		p = p[k:]
		if len(w.buf) >= streamMax {
			w.flushLocked(false)
		}
	}
	return n, nil
}

// flushLocked publishes the buffer. Unless final, a trailing incomplete
// UTF-8 sequence is kept for the next message.
func (w *streamWriter) flushLocked(final bool) {
	if len(w.buf) == 0 {
		return
	}
	cut := len(w.buf)
	if !final {
		cut = completeUTF8(w.buf)
		if cut == 0 {
			return
		}
	}
	w.publish(w.name, string(w.buf[:cut]))
	rest := copy(w.buf, w.buf[cut:])
	w.buf = w.buf[:rest]
}

// completeUTF8 returns the length of b without a trailing partial rune.
func completeUTF8(b []byte) int {
	for i := 1; i <= utf8.UTFMax && i <= len(b); i++ {
		c := b[len(b)-i]
		if c < utf8.RuneSelf {
			return len(b) // ASCII: nothing pending
		}
		if utf8.RuneStart(c) {
			if utf8.FullRune(b[len(b)-i:]) {
				return len(b)
			}
			return len(b) - i
		}
	}
	return len(b)
}

// Flush publishes buffered text.
func (w *streamWriter) Flush() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.flushLocked(false)
}

// Close publishes what is left; later writes are dropped.
func (w *streamWriter) Close() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.flushLocked(true)
	w.closed = true
}
