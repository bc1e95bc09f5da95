package engineproc

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/nsysx/nsysx/kernel"
)

// engineEnv marks the engine process started by a Supervisor.
const engineEnv = "NSYSX_KERNEL_ENGINE"

// Serve is the engine process: it runs the cells the parent sends on
// file descriptor 3 with a kernel over the engine newEngine returns, and
// writes their output on file descriptor 4, until the parent closes its
// end (or dies). It ignores SIGINT: interrupts come as messages.
func Serve(newEngine func() (kernel.Engine, error)) error {
	// Only a Supervisor gives the pipes as file descriptors 3 and 4; in
	// another process they may be anything (the Go runtime's own epoll).
	if os.Getenv(engineEnv) != "1" {
		return errors.New("the engine process is started by the kernel (`nsysx kernel -f`), not by hand")
	}
	os.Unsetenv(engineEnv) // not for the programs cells start
	signal.Ignore(syscall.SIGINT)
	log.SetOutput(io.Discard) // see kernel.Run: yaegi logs before the compile panics the engine recovers
	in, out := os.NewFile(3, "engine-requests"), os.NewFile(4, "engine-events")
	defer out.Close()
	eng, err := newEngine()
	if err != nil {
		return err
	}
	return serve(in, out, eng)
}

// child is the state of the engine process.
type child struct {
	k   *kernel.Kernel
	eng kernel.Engine

	wmu     sync.Mutex
	enc     *json.Encoder
	stream  event       // stream bytes not sent yet (Op "" when none)
	flusher *time.Timer // sends them streamDelay after the first

	mu      sync.Mutex
	cancels map[uint64]context.CancelFunc
	inputs  map[uint64]chan request // input answers awaited, by Seq
	seq     uint64
}

func serve(in io.Reader, out io.Writer, eng kernel.Engine) error {
	k, err := kernel.New(eng)
	if err != nil {
		return err
	}
	c := &child{k: k, eng: eng, enc: json.NewEncoder(out), cancels: map[uint64]context.CancelFunc{},
		inputs: map[uint64]chan request{}}
	banner := ""
	if b, ok := eng.(kernel.Bannerer); ok {
		banner = b.Banner()
	}
	if err := c.send(event{Op: evHello, Text: banner}); err != nil {
		return err
	}
	dec := json.NewDecoder(bufio.NewReaderSize(in, 64<<10))
	for {
		var r request
		if err := dec.Decode(&r); err != nil {
			break // the parent closed its end: shut down
		}
		switch r.Op {
		case opInterrupt:
			c.mu.Lock()
			if cancel := c.cancels[r.ID]; cancel != nil {
				cancel()
			}
			c.mu.Unlock()
		case opInput:
			c.mu.Lock()
			ch := c.inputs[r.Seq]
			delete(c.inputs, r.Seq)
			c.mu.Unlock()
			if ch != nil {
				ch <- r
			}
		case opExecute:
			// the cancel is known before the next request is read: an
			// interrupt right after it finds it
			ctx, cancel := context.WithCancel(context.Background())
			c.mu.Lock()
			c.cancels[r.ID] = cancel
			c.mu.Unlock()
			go c.handle(ctx, r)
		default:
			go c.handle(context.Background(), r)
		}
	}
	c.mu.Lock()
	for _, cancel := range c.cancels {
		cancel()
	}
	for _, ch := range c.inputs {
		close(ch)
	}
	c.inputs = map[uint64]chan request{}
	c.mu.Unlock()
	if cl, ok := eng.(io.Closer); ok {
		return cl.Close()
	}
	return nil
}

// Stream writes are gathered into one event of up to streamMax bytes, sent
// streamDelay after the first write, or before any other event (so the
// order of outputs holds): a cell printing many short lines does not cost
// one event each.
const (
	streamMax   = 32 << 10
	streamDelay = 2 * time.Millisecond
)

// send writes one event; events of all requests share the pipe, in order.
func (c *child) send(ev event) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if err := c.flushLocked(); err != nil {
		return err
	}
	return c.enc.Encode(ev)
}

// write adds stream bytes of request id.
func (c *child) write(id uint64, op string, p []byte) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if c.stream.Op != "" && (c.stream.ID != id || c.stream.Op != op || len(c.stream.Bytes)+len(p) > streamMax) {
		if err := c.flushLocked(); err != nil {
			return err
		}
	}
	if c.stream.Op == "" {
		c.stream = event{Op: op, ID: id}
		if c.flusher == nil {
			c.flusher = time.AfterFunc(streamDelay, c.flush)
		} else {
			c.flusher.Reset(streamDelay)
		}
	}
	c.stream.Bytes = append(c.stream.Bytes, p...)
	return nil
}

func (c *child) flush() {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	c.flushLocked()
}

func (c *child) flushLocked() error {
	if c.stream.Op == "" {
		return nil
	}
	ev := c.stream
	c.stream = event{}
	return c.enc.Encode(ev)
}

// handle answers one request (a cell, completion, inspection, ...) with
// its done event; ctx is a cell's.
func (c *child) handle(ctx context.Context, r request) {
	done := event{Op: evDone, ID: r.ID}
	defer func() {
		if p := recover(); p != nil { // a magic's bug must not end the engine
			done.Err = &wireError{Name: "panic", Value: fmt.Sprint(p),
				Traceback: append([]string{fmt.Sprintf("panic: %v", p)}, strings.Split(string(debug.Stack()), "\n")...)}
		}
		c.send(done)
	}()
	switch r.Op {
	case opExecute:
		defer func() {
			c.mu.Lock()
			if cancel := c.cancels[r.ID]; cancel != nil {
				cancel()
				delete(c.cancels, r.ID)
			}
			c.mu.Unlock()
		}()
		done.Err = toWire(c.k.RunCell(ctx, r.Code, newOutput(c, r.ID)))
	case opComplete:
		comp := c.k.Complete(r.Code, r.Cursor)
		done.Completion = &comp
	case opInspect:
		in := c.k.Inspect(r.Code, r.Cursor, r.Detail)
		done.Inspection = &in
	case opIsComplete:
		done.Status, done.Indent = c.k.IsComplete(r.Code)
	case opEval:
		ev, ok := c.eng.(kernel.ExpressionEvaluator)
		if !ok {
			done.Err = &wireError{Name: "NotSupported", Value: "the engine does not evaluate user expressions"}
			return
		}
		data, err := ev.EvalExpression(context.Background(), r.Code)
		if done.Err = toWire(err); err == nil {
			done.Data, err = json.Marshal(data)
			done.Err = toWire(err)
		}
	default:
		done.Err = &wireError{Name: "Error", Value: "engine: unknown request " + r.Op}
	}
}

// output is the kernel.Output of a cell in the engine process: every call
// is an event for the parent, which sends it on to the frontend.
type output struct {
	c              *child
	id             uint64
	stdout, stderr io.Writer
}

func newOutput(c *child, id uint64) *output {
	o := &output{c: c, id: id}
	o.stdout = streamWriter{o, evStdout}
	o.stderr = streamWriter{o, evStderr}
	return o
}

type streamWriter struct {
	o  *output
	op string
}

func (w streamWriter) Write(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	if err := w.o.c.write(w.o.id, w.op, p); err != nil {
		return 0, err
	}
	return len(p), nil
}

func (o *output) Stdout() io.Writer { return o.stdout }
func (o *output) Stderr() io.Writer { return o.stderr }

// bundle sends data and metadata: a value JSON does not take is the
// call's error, as the kernel's own Output says.
func (o *output) bundle(ev event, data, metadata map[string]any) error {
	var err error
	if ev.Data, err = json.Marshal(orEmpty(data)); err != nil {
		return err
	}
	if ev.Metadata, err = json.Marshal(orEmpty(metadata)); err != nil {
		return err
	}
	ev.ID = o.id
	return o.c.send(ev)
}

func orEmpty(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	return m
}

func (o *output) Display(d kernel.Display) error {
	return o.bundle(event{Op: evDisp, DisplayID: d.ID}, d.Data, d.Metadata)
}

func (o *output) UpdateDisplay(d kernel.Display) error {
	if d.ID == "" {
		return kernel.ErrDisplayID
	}
	return o.bundle(event{Op: evUpdate, DisplayID: d.ID}, d.Data, d.Metadata)
}

func (o *output) Result(data, metadata map[string]any) error {
	return o.bundle(event{Op: evResult}, data, metadata)
}

func (o *output) Clear(wait bool) error {
	return o.c.send(event{Op: evClear, ID: o.id, Wait: wait})
}

// Input asks the parent, which asks the frontend, and waits for the answer.
func (o *output) Input(prompt string, password bool) (string, error) {
	ch := make(chan request, 1)
	o.c.mu.Lock()
	o.c.seq++
	seq := o.c.seq
	o.c.inputs[seq] = ch
	o.c.mu.Unlock()
	if err := o.c.send(event{Op: evInput, ID: o.id, Seq: seq, Text: prompt, Password: password}); err != nil {
		return "", err
	}
	r, ok := <-ch
	switch {
	case !ok:
		return "", context.Canceled
	case r.Err == kernel.ErrNoStdin.Error():
		return "", kernel.ErrNoStdin
	case r.Err == context.Canceled.Error():
		return "", context.Canceled
	case r.Err != "":
		return "", errors.New(r.Err)
	}
	return r.Text, nil
}
