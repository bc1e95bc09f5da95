// Package engineproc runs a kernel's cells in an engine process that the
// kernel process supervises. Go cannot recover a stack overflow, concurrent
// map writes, an allocation larger than memory or a library's os.Exit: in
// the kernel process they would end the kernel and its connection to the
// notebook. With the cells in a child process, the kernel stays up, replies
// to the cell with what happened and starts a fresh engine.
//
// The parent (Supervisor, a kernel.CellEngine) keeps the Jupyter sockets
// and protocol; the child (Serve) is a kernel.Kernel over the real engine,
// magics included, that runs whole cells. They talk over two pipes (file
// descriptors 3 and 4 of the child, so that what compiled code writes on
// the child's stdout cannot garble them) in JSON values, one a line:
// requests from the parent, events from the child. The design is in
// docs/kernel.md.
package engineproc

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/nsysx/nsysx/kernel"
)

// Request ops, parent to child.
const (
	opExecute    = "execute"     // Code: run a cell; its events carry ID
	opComplete   = "complete"    // Code, Cursor
	opInspect    = "inspect"     // Code, Cursor, Detail
	opIsComplete = "is_complete" // Code
	opEval       = "eval"        // Code: a user expression
	opInterrupt  = "interrupt"   // ID: cancel that cell
	opInput      = "input"       // ID, Seq: the answer to an input event (Text, Err)
)

// Event ops, child to parent.
const (
	evHello  = "hello"  // the engine is ready; Text: its banner
	evStdout = "stdout" // Bytes
	evStderr = "stderr" // Bytes
	evDisp   = "display"
	evUpdate = "update"
	evResult = "result"
	evClear  = "clear"
	evInput  = "input" // Seq, Text (prompt), Password: answered by opInput
	evDone   = "done"  // the request ID ended: Err, or its answer
)

// request is what the parent sends.
type request struct {
	Op     string `json:"op"`
	ID     uint64 `json:"id,omitempty"`
	Seq    uint64 `json:"seq,omitempty"`
	Code   string `json:"code,omitempty"`
	Cursor int    `json:"cursor,omitempty"`
	Detail int    `json:"detail,omitempty"`
	Text   string `json:"text,omitempty"`
	Err    string `json:"err,omitempty"`
}

// event is what the child sends. Bundles travel as raw JSON, encoded in
// the child (a value JSON does not take is the error of the output call
// there, as in-process) and decoded in the parent with UseNumber (an int64
// keeps its digits).
type event struct {
	Op        string          `json:"op"`
	ID        uint64          `json:"id,omitempty"`
	Seq       uint64          `json:"seq,omitempty"`
	Text      string          `json:"text,omitempty"`
	Bytes     []byte          `json:"bytes,omitempty"` // stream bytes: a rune may be split between writes
	Data      json.RawMessage `json:"data,omitempty"`
	Metadata  json.RawMessage `json:"metadata,omitempty"`
	DisplayID string          `json:"display_id,omitempty"`
	Wait      bool            `json:"wait,omitempty"`
	Password  bool            `json:"password,omitempty"`

	Err        *wireError         `json:"err,omitempty"`
	Completion *kernel.Completion `json:"completion,omitempty"`
	Inspection *kernel.Inspection `json:"inspection,omitempty"`
	Status     string             `json:"status,omitempty"`
	Indent     string             `json:"indent,omitempty"`
}

// wireError is an error of the child: a *kernel.Error, an interrupt, or
// another error's text.
type wireError struct {
	Name        string   `json:"name"`
	Value       string   `json:"value"`
	Traceback   []string `json:"traceback"`
	Interrupted bool     `json:"interrupted,omitempty"`
}

func toWire(err error) *wireError {
	if err == nil {
		return nil
	}
	var ke *kernel.Error
	switch {
	case errors.As(err, &ke):
		return &wireError{Name: ke.Name, Value: ke.Value, Traceback: ke.Traceback}
	case errors.Is(err, context.Canceled):
		return &wireError{Interrupted: true}
	}
	return &wireError{Name: "Error", Value: err.Error()}
}

// fromWire is the error the kernel reports as the child's would be.
func fromWire(w *wireError) error {
	switch {
	case w == nil:
		return nil
	case w.Interrupted:
		return context.Canceled
	case w.Traceback == nil && w.Name == "Error":
		return errors.New(w.Value)
	}
	return &kernel.Error{Name: w.Name, Value: w.Value, Traceback: w.Traceback}
}
