package kernel

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/nsysx/nsysx/kernel/wire"
)

// ErrNoStdin is returned by Output.Input when the frontend does not accept
// input requests.
var ErrNoStdin = wire.ErrStdinNotAllowed

// ErrDisplayID is returned by UpdateDisplay without a display ID.
var ErrDisplayID = errors.New("kernel: update_display_data needs a display ID")

// cellOutput implements Output for one execute_request.
type cellOutput struct {
	req    *wire.Request
	ctx    context.Context
	count  int
	silent bool

	stdout, stderr *streamWriter
	stop           chan struct{}
	done           chan struct{}

	mu     sync.Mutex
	closed bool
	result string // text/plain of the execute_result, for history
}

func newCellOutput(ctx context.Context, req *wire.Request, count int, silent bool) *cellOutput {
	o := &cellOutput{req: req, ctx: ctx, count: count, silent: silent,
		stop: make(chan struct{}), done: make(chan struct{})}
	pub := func(name, text string) {
		if !o.silent {
			o.req.Publish(wire.Stream{Name: name, Text: text})
		}
	}
	o.stdout = newStreamWriter("stdout", pub)
	o.stderr = newStreamWriter("stderr", pub)
	go o.ticker()
	return o
}

func (o *cellOutput) ticker() {
	defer close(o.done)
	t := time.NewTicker(streamEvery)
	defer t.Stop()
	for {
		select {
		case <-o.stop:
			return
		case <-t.C:
			o.stdout.Flush()
			o.stderr.Flush()
		}
	}
}

// close flushes the streams and turns every later call into a no-op.
func (o *cellOutput) close() {
	o.mu.Lock()
	if o.closed {
		o.mu.Unlock()
		return
	}
	o.closed = true
	o.mu.Unlock()
	close(o.stop)
	<-o.done
	o.stdout.Close()
	o.stderr.Close()
}

func (o *cellOutput) Stdout() io.Writer { return o.stdout }
func (o *cellOutput) Stderr() io.Writer { return o.stderr }

// publish flushes the streams (to keep the order of outputs) and sends one
// iopub message, unless the cell is over or silent.
func (o *cellOutput) publish(c wire.Content) error {
	o.mu.Lock()
	closed := o.closed
	o.mu.Unlock()
	if closed || o.silent {
		return nil
	}
	o.stdout.Flush()
	o.stderr.Flush()
	return o.req.Emit(c)
}

func orEmpty(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	return m
}

// bundle is the wire form of data and metadata: never null.
func bundle(data, metadata map[string]any) wire.Bundle {
	return wire.Bundle{Data: orEmpty(data), Metadata: orEmpty(metadata)}
}

func displayData(d Display) wire.DisplayData {
	return wire.DisplayData{Bundle: bundle(d.Data, d.Metadata), Transient: wire.Transient{DisplayID: d.ID}}
}

func (o *cellOutput) Display(d Display) error {
	return o.publish(displayData(d))
}

func (o *cellOutput) UpdateDisplay(d Display) error {
	if d.ID == "" {
		return ErrDisplayID
	}
	return o.publish(wire.UpdateDisplayData(displayData(d)))
}

func (o *cellOutput) Result(data, metadata map[string]any) error {
	o.mu.Lock()
	if s, ok := data["text/plain"].(string); ok {
		o.result = s
	}
	o.mu.Unlock()
	return o.publish(wire.ExecuteResult{ExecutionCount: o.count, Bundle: bundle(data, metadata)})
}

func (o *cellOutput) Clear(wait bool) error {
	return o.publish(wire.ClearOutput{Wait: wait})
}

func (o *cellOutput) Input(prompt string, password bool) (string, error) {
	o.stdout.Flush()
	o.stderr.Flush()
	return o.req.Input(o.ctx, prompt, password)
}

func (o *cellOutput) resultText() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.result
}

// discardOutput drops everything (used by %timeit loops and user expressions).
type discardOutput struct{}

func (discardOutput) Stdout() io.Writer                  { return io.Discard }
func (discardOutput) Stderr() io.Writer                  { return io.Discard }
func (discardOutput) Display(Display) error              { return nil }
func (discardOutput) UpdateDisplay(Display) error        { return nil }
func (discardOutput) Result(_, _ map[string]any) error   { return nil }
func (discardOutput) Clear(bool) error                   { return nil }
func (discardOutput) Input(string, bool) (string, error) { return "", ErrNoStdin }

// TextOutput is an Output that writes everything as text to w (for tests
// and for running engines outside Jupyter). It is not safe for concurrent use.
type TextOutput struct {
	W io.Writer
}

func (t TextOutput) Stdout() io.Writer { return t.W }
func (t TextOutput) Stderr() io.Writer { return t.W }
func (t TextOutput) Display(d Display) error {
	_, err := fmt.Fprintln(t.W, plain(d.Data))
	return err
}
func (t TextOutput) UpdateDisplay(d Display) error { return t.Display(d) }
func (t TextOutput) Result(data, _ map[string]any) error {
	_, err := fmt.Fprintln(t.W, plain(data))
	return err
}
func (t TextOutput) Clear(bool) error                   { return nil }
func (t TextOutput) Input(string, bool) (string, error) { return "", ErrNoStdin }

func plain(data map[string]any) string {
	if s, ok := data["text/plain"].(string); ok {
		return s
	}
	return fmt.Sprint(data)
}
