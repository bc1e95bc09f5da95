package gointerp

import (
	"context"
	"fmt"
	"go/ast"
	"go/token"
	"io"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/nsysx/nsysx/kernel"
)

// yaegi runs a go statement of a cell as a real goroutine that nothing
// recovers: a panic there would end the engine process and every notebook
// variable with it. So the engine rewrites go statements (goEdits) to start
// their call through Engine.guard, which recovers the panic and reports it
// (goPanic):
//
//   - while the Execute that started the goroutine runs, as its error: the
//     panic ends the cell as it would end a Go program. The cell gets
//     goPanicGrace to end by itself (the other goroutines of a
//     sync.WaitGroup finish, a deferred Done runs), then it is stopped like
//     an interrupted cell (stopping at once would leave goroutines half
//     started and a WaitGroup waiting for ever);
//   - after that, on the stderr stream of the Execute running at that
//     moment or, when the kernel is idle, of the next one.
//
// time.AfterFunc and context.AfterFunc (symbols.go) and a func() literal
// given to a method named Go (sync.WaitGroup.Go) are guarded the same way.
// Callbacks that compiled code calls on the cell's own goroutine
// (sort.Slice, Result.Filter) need nothing: their panic unwinds into the
// evaluation, which reports it as the cell's error.

// execution is one Execute call: a cell, or one code segment of a cell
// that mixes code and magics.
type execution struct {
	out     kernel.Output
	cancel  context.CancelCauseFunc
	running atomic.Int64 // guarded goroutines it started that run
	done    bool         // Execute returned (guarded by Engine.mu)
	err     error        // the first goroutine panic while it ran
	stop    *time.Timer  // stops it goPanicGrace after that panic
}

func (x *execution) add(n int64) {
	if x != nil {
		x.running.Add(n)
	}
}

const (
	maxLate      = 16                     // goroutine panics kept for the next cell
	goPanicGrace = 500 * time.Millisecond // see the top of the file
	// goSettle is how long Execute waits at its end for the goroutines it
	// started: a goroutine's deferred wg.Done runs before the guard
	// recovers its panic, so wg.Wait can return, and the cell end, a
	// moment before the panic is known.
	goSettle = 100 * time.Millisecond
)

// begin starts an execution: it prints the goroutine panics reported
// while the kernel was idle and returns the context of the execution,
// cancelled by a goroutine panic.
func (e *Engine) begin(ctx context.Context, out kernel.Output) (context.Context, *execution) {
	ctx, cancel := context.WithCancelCause(ctx)
	x := &execution{out: out, cancel: cancel}
	e.mu.Lock()
	late := e.late
	e.late, e.exec = nil, x
	e.mu.Unlock()
	for _, s := range late {
		if _, err := io.WriteString(out.Stderr(), s); err != nil {
			break
		}
	}
	return ctx, x
}

// end finishes an execution; a goroutine panic replaces its error.
func (e *Engine) end(x *execution, err error) error {
	for t := time.Now(); x.running.Load() > 0 && time.Since(t) < goSettle; {
		time.Sleep(time.Millisecond)
	}
	e.mu.Lock()
	x.done = true
	if e.exec == x {
		e.exec = nil
	}
	gerr := x.err
	if x.stop != nil {
		x.stop.Stop()
	}
	e.mu.Unlock()
	x.cancel(nil)
	if gerr != nil {
		return gerr
	}
	return err
}

// guard returns f wrapped to recover and report a panic; where says who
// started it ("of time.AfterFunc").
func (e *Engine) guard(where string, f func()) func() {
	x, r := e.owner()
	return func() {
		x.add(1)
		e.guarded(x, r, where, f)
	}
}

// goStmt is what a rewritten go statement calls: f, made where the
// statement stood, runs on a new goroutine.
func (e *Engine) goStmt(line int, f func()) {
	if f == nil { // the cell was stopped while the statement was evaluated
		return
	}
	x, r := e.owner()
	x.add(1)
	go e.guarded(x, r, fmt.Sprintf("started at line %d", line), f)
}

// owner returns the execution and evaluation starting a goroutine.
func (e *Engine) owner() (*execution, *run) {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.exec, e.run
}

func (e *Engine) guarded(x *execution, r *run, where string, f func()) {
	defer func() {
		if p := recover(); p != nil {
			e.goPanic(x, r, where, p)
		}
		x.add(-1)
	}()
	f()
}

// goPanic reports a recovered goroutine panic (see the top of this file).
func (e *Engine) goPanic(x *execution, r *run, where string, p any) {
	id := goid()
	e.mu.Lock()
	frames := e.goFrames[id]
	delete(e.goFrames, id)
	e.mu.Unlock()
	ke := formatPanic(fmt.Sprint(p), r.src, frames, 0)
	ke.Value += " (in a goroutine " + where + ")"
	ke.Traceback[0] = "panic in a goroutine " + where + ": " + fmt.Sprint(p)
	e.mu.Lock()
	if x != nil && !x.done && x.err == nil {
		x.err = ke
		x.stop = time.AfterFunc(goPanicGrace, func() { x.cancel(ke) })
		e.mu.Unlock()
		return
	}
	if x != nil && x.done {
		ke.Traceback[0] = "panic in a goroutine " + where + " by a cell that had finished: " + fmt.Sprint(p)
	}
	text := strings.Join(ke.Traceback, "\n") + "\n"
	cur := e.exec
	if cur == nil {
		if len(e.late) < maxLate {
			e.late = append(e.late, text)
		}
		e.mu.Unlock()
		return
	}
	e.mu.Unlock()
	fmt.Fprint(cur.out.Stderr(), text)
}

// afterFuncs returns time.AfterFunc and context.AfterFunc for cells: f
// runs guarded.
func (e *Engine) afterFuncs() (timeAfter func(time.Duration, func()) *time.Timer, ctxAfter func(context.Context, func()) func() bool) {
	timeAfter = func(d time.Duration, f func()) *time.Timer {
		return time.AfterFunc(d, e.guard("of time.AfterFunc", f))
	}
	ctxAfter = func(ctx context.Context, f func()) func() bool {
		return context.AfterFunc(ctx, e.guard("of context.AfterFunc", f))
	}
	return timeAfter, ctxAfter
}

// goid returns the id of the calling goroutine, from the first line of
// its stack ("goroutine 18 [running]:"). It is used only to attribute
// yaegi's panic frame lines to the goroutine that printed them.
func goid() uint64 {
	var buf [64]byte
	s := strings.TrimPrefix(string(buf[:runtime.Stack(buf[:], false)]), "goroutine ")
	if i := strings.IndexByte(s, ' '); i > 0 {
		id, _ := strconv.ParseUint(s[:i], 10, 64) // 0 if the format ever changes: frames then go to the evaluation
		return id
	}
	return 0
}

// goBuiltins are the builtins a go statement may call; they are not values.
var goBuiltins = map[string]bool{"close": true, "copy": true, "delete": true, "panic": true,
	"print": true, "println": true, "recover": true, "clear": true}

// goEdits rewrites every go statement of f, go F(A, B), into
//
//	__nsysx.Go(L, func() func() { __nsysx_f, __nsysx_a0, __nsysx_a1 := F, A, B; return func() { __nsysx_f(__nsysx_a0, __nsysx_a1) } }())
//
// which evaluates F and its arguments where the statement stands, as Go
// does, and runs the call through Engine.guard; and wraps a func()
// literal given to a method named Go: x.Go(__nsysx.Guard(L, func() {...})).
// Only delimiters are replaced, so the code inside keeps its offsets.
func goEdits(f *ast.File, fset *token.FileSet, prefix int) []edit {
	tf := fset.File(f.Pos())
	off := func(p token.Pos) int { return tf.Offset(p) - prefix }
	var edits []edit
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.GoStmt:
			edits = append(edits, goStmtEdits(n, off, fset.Position(n.Pos()).Line)...)
		case *ast.CallExpr:
			if lit := goMethodArg(n); lit != nil {
				s, t := off(lit.Pos()), off(lit.End())
				guard := fmt.Sprintf("%s.Guard(%d, ", ctlName, fset.Position(lit.Pos()).Line)
				edits = append(edits, edit{s, s, guard}, edit{t, t, ")"})
			}
		}
		return true
	})
	return edits
}

func goStmtEdits(g *ast.GoStmt, off func(token.Pos) int, line int) []edit {
	call := g.Call
	head := fmt.Sprintf("%s.Go(%d, func() func() { ", ctlName, line)
	names := make([]string, len(call.Args))
	for i := range names {
		names[i] = "__nsysx_a" + strconv.Itoa(i)
	}
	args := strings.Join(names, ", ")
	if call.Ellipsis.IsValid() {
		args += "..."
	}
	fn, builtin := "__nsysx_f", false
	if id, ok := call.Fun.(*ast.Ident); ok && goBuiltins[id.Name] {
		fn, builtin = id.Name, true
	}
	tail := "return func() { " + fn + "(" + args + ") } }())"
	start, end := off(g.Pos()), off(call.End())
	switch {
	case len(names) == 0 && builtin:
		return []edit{{start, end, head + tail}}
	case len(names) == 0:
		return []edit{{start, off(call.Fun.Pos()), head + fn + " := "}, {off(call.Fun.End()), end, "; " + tail}}
	}
	last := edit{off(call.Args[len(names)-1].End()), end, "; " + tail}
	if builtin {
		return []edit{{start, off(call.Lparen) + 1, head + strings.Join(names, ", ") + " := "}, last}
	}
	return []edit{{start, off(call.Fun.Pos()), head + fn + ", " + strings.Join(names, ", ") + " := "},
		{off(call.Fun.End()), off(call.Lparen) + 1, ", "}, last}
}

// goMethodArg returns the argument of x.Go(func() { ... }), if that is
// the call.
func goMethodArg(call *ast.CallExpr) *ast.FuncLit {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "Go" || len(call.Args) != 1 {
		return nil
	}
	lit, ok := call.Args[0].(*ast.FuncLit)
	if !ok || lit.Type.Params.NumFields() != 0 || lit.Type.Results.NumFields() != 0 {
		return nil
	}
	return lit
}
