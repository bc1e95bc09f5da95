package kernel

import (
	"context"
	"fmt"
	"io"
	"strings"
)

// Engine executes cells. The kernel calls Execute from one goroutine at a
// time; Complete, Inspect and IsComplete may be called while a cell runs
// (they arrive on the shell channel, so in practice they do not overlap
// with Execute unless a cell was abandoned after an interrupt).
//
// Cursor positions and the returned Start/End are byte offsets into code;
// the kernel converts them from and to the Unicode code points of the
// protocol.
type Engine interface {
	// Execute runs code. It must return soon after ctx is cancelled
	// (interrupt or shutdown). A returned *Error is reported as is; any
	// other error becomes an error output named "Error" ("Interrupted" for
	// context cancellation).
	Execute(ctx context.Context, code string, out Output) error
	// Complete returns completions for the text before cursor.
	Complete(code string, cursor int) Completion
	// Inspect returns help for the object at cursor (detail 0 or 1).
	Inspect(code string, cursor, detail int) Inspection
	// IsComplete returns "complete", "incomplete", "invalid" or "unknown",
	// and for "incomplete" the indent of the next line.
	IsComplete(code string) (status, indent string)
}

// Output is where a running cell sends its results. MIME bundles are plain
// maps from MIME type to data (strings, or JSON-able values for
// application/json and similar types). Methods are safe for concurrent use
// and become no-ops once the cell is over or when the request is silent.
type Output interface {
	Stdout() io.Writer
	Stderr() io.Writer
	// Display sends display_data; a non-empty ID makes it updatable.
	Display(d Display) error
	// UpdateDisplay replaces the output shown for d.ID.
	UpdateDisplay(d Display) error
	// Result sends the execute_result (Out[n]) of the cell.
	Result(data, metadata map[string]any) error
	// Clear clears the cell's output; with wait, only once new output arrives.
	Clear(wait bool) error
	// Input asks the frontend for a line of text (input_request).
	Input(prompt string, password bool) (string, error)
}

// Display is one display_data or update_display_data message.
type Display struct {
	Data     map[string]any
	Metadata map[string]any
	ID       string // transient display_id
}

// Completion is the answer to complete_request.
type Completion struct {
	Matches    []string
	Start, End int // the replaced range of code, in bytes
	Metadata   map[string]any
}

// Inspection is the answer to inspect_request.
type Inspection struct {
	Found    bool
	Data     map[string]any
	Metadata map[string]any
}

// Error is a cell failure as Jupyter shows it.
type Error struct {
	Name      string   // ename, e.g. "panic" or "CompileError"
	Value     string   // evalue
	Traceback []string // lines shown by the frontend
}

func (e *Error) Error() string {
	if e.Value == "" {
		return e.Name
	}
	return e.Name + ": " + e.Value
}

// Errorf returns an *Error with the message as both value and traceback.
func Errorf(name, format string, args ...any) *Error {
	v := fmt.Sprintf(format, args...)
	return &Error{Name: name, Value: v, Traceback: strings.Split(name+": "+v, "\n")}
}

// ExpressionEvaluator is implemented by engines that can evaluate the
// user_expressions of an execute_request. The result is a MIME bundle.
type ExpressionEvaluator interface {
	EvalExpression(ctx context.Context, expr string) (map[string]any, error)
}

// Preparer is implemented by engines that can compile code once and run it
// many times (used by %timeit to time execution without compilation).
type Preparer interface {
	Prepare(ctx context.Context, code string) (run func(ctx context.Context) error, err error)
}

// MagicRegistrar is implemented by engines that bring their own magics;
// New calls RegisterMagics once.
type MagicRegistrar interface {
	RegisterMagics(m *Magics) error
}

// Bannerer is implemented by engines that want their own kernel_info banner.
type Bannerer interface {
	Banner() string
}

// CellEngine is implemented by an engine that runs whole cells, magics
// included, elsewhere: the supervisor of an engine process
// (kernel/engineproc). The kernel then gives it every cell unsplit, leaves
// completion, inspection and is_complete to it (magics' too) and registers
// no magics itself: the kernel in the engine process has them.
type CellEngine interface {
	Engine
	RunCell(ctx context.Context, code string, out Output) error
}
