// Package outputtest records what a cell writes through a kernel.Output,
// for the tests of the engines (kernel/gointerp, kernel/nsysxengine).
package outputtest

import (
	"io"
	"strings"
	"sync"

	"github.com/nsysx/nsysx/kernel"
)

// Recorder is a kernel.Output that records everything, safe for concurrent
// use: hold Mu to read the fields while a cell may still write. Input
// answers kernel.ErrNoStdin.
type Recorder struct {
	Mu       sync.Mutex
	Out      strings.Builder // stdout
	Err      strings.Builder // stderr
	Results  []map[string]any
	Displays []kernel.Display
	Updates  []kernel.Display
}

// lockedWriter writes into b under mu.
type lockedWriter struct {
	mu *sync.Mutex
	b  *strings.Builder
}

func (w lockedWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}

// Stdout writes into Out.
func (r *Recorder) Stdout() io.Writer { return lockedWriter{&r.Mu, &r.Out} }

// Stderr writes into Err.
func (r *Recorder) Stderr() io.Writer { return lockedWriter{&r.Mu, &r.Err} }

// Display appends d to Displays.
func (r *Recorder) Display(d kernel.Display) error {
	r.Mu.Lock()
	defer r.Mu.Unlock()
	r.Displays = append(r.Displays, d)
	return nil
}

// UpdateDisplay appends d to Updates.
func (r *Recorder) UpdateDisplay(d kernel.Display) error {
	r.Mu.Lock()
	defer r.Mu.Unlock()
	r.Updates = append(r.Updates, d)
	return nil
}

// Result appends the bundle to Results.
func (r *Recorder) Result(data, _ map[string]any) error {
	r.Mu.Lock()
	defer r.Mu.Unlock()
	r.Results = append(r.Results, data)
	return nil
}

// Clear does nothing.
func (r *Recorder) Clear(bool) error { return nil }

// Input answers that there is no stdin.
func (r *Recorder) Input(string, bool) (string, error) { return "", kernel.ErrNoStdin }
