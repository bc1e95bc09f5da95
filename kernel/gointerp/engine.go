package gointerp

import (
	"context"
	"errors"
	"fmt"
	"go/ast"
	"go/token"
	"io"
	"os"
	"reflect"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/traefik/yaegi/interp"

	"github.com/nsysx/nsysx/kernel"
)

// Engine runs cells with the yaegi Go interpreter. State (variables,
// functions, types, imports) persists across cells.
type Engine struct {
	interp *interp.Interpreter
	stdout *switchWriter
	stderr *panicFilter

	// AbandonAfter is how long after an interrupt the next evaluation
	// waits for an interrupted one that does not stop (blocked in a Go
	// call: a second sync.Mutex.Lock, a WaitGroup.Wait that nothing ends)
	// before it abandons it and runs beside it (see acquire).
	AbandonAfter time.Duration

	mu         sync.Mutex
	sem        chan struct{} // held while an evaluation goroutine runs; a new one after an abandon
	stopped    time.Time     // when an interrupted evaluation was left running, zero when none is
	stuck      chan struct{} // closed when that evaluation ends
	run        *run
	imports    map[string]string // local name -> path
	names      map[string]bool   // identifiers declared by cells
	used       interp.Exports    // compiled packages added with Use
	displayers []Displayer
	exec       *execution          // the Execute running, nil when idle
	late       []string            // goroutine panics to print in the next cell
	goFrames   map[uint64][]string // panic frame lines printed by other goroutines, by goroutine id
}

// run is the state of the evaluation in progress.
type run struct {
	ctx     context.Context
	out     kernel.Output
	started chan struct{}
	once    sync.Once
	src     *source  // what is evaluated, to map positions to the cell
	goid    uint64   // the goroutine that runs it
	line    int      // cell line of the top-level statement running
	frames  []string // "L:C: panic: f(...)" lines yaegi printed
	capture map[string]any
}

var idleRun = &run{ctx: context.Background(), out: kernel.TextOutput{W: io.Discard}, started: make(chan struct{})}

// New returns an engine with the standard library available.
func New() (*Engine, error) {
	e := &Engine{sem: make(chan struct{}, 1), AbandonAfter: 3 * time.Second, run: idleRun, imports: map[string]string{}, names: map[string]bool{},
		goFrames: map[uint64][]string{}}
	e.stdout = &switchWriter{e: e, stderr: false}
	e.stderr = &panicFilter{e: e, w: &switchWriter{e: e, stderr: true}}
	e.interp = newInterpreter(interp.Options{
		Stdout: e.stdout, Stderr: e.stderr, Stdin: &inputReader{e: e},
		Unrestricted: true, // real environment (%env), os/exec
	})
	if err := e.interp.Use(e.symbols()); err != nil {
		return nil, err
	}
	if _, err := e.interp.Eval(`import ` + ctlName + ` "` + ctlPath + `"`); err != nil {
		return nil, fmt.Errorf("importing the control package: %w", err)
	}
	return e, nil
}

var specialStdioMu sync.Mutex

// newInterpreter creates the interpreter with YAEGI_SPECIAL_STDIO set, so
// that os.Stdout, os.Stderr and os.Stdin in cells are the cell's streams
// (as io.Writer and io.Reader variables) rather than the kernel's files.
func newInterpreter(opts interp.Options) *interp.Interpreter {
	specialStdioMu.Lock()
	defer specialStdioMu.Unlock()
	old, had := os.LookupEnv("YAEGI_SPECIAL_STDIO")
	os.Setenv("YAEGI_SPECIAL_STDIO", "1")
	defer func() {
		if had {
			os.Setenv("YAEGI_SPECIAL_STDIO", old)
		} else {
			os.Unsetenv("YAEGI_SPECIAL_STDIO")
		}
	}()
	return interp.New(opts)
}

// Use adds compiled packages to the interpreter, in yaegi's format
// ("import/path/name" -> symbol -> value, as produced by yaegi extract).
func (e *Engine) Use(symbols map[string]map[string]reflect.Value) error {
	release, _ := e.acquire(context.Background(), kernel.TextOutput{W: io.Discard})
	defer release()
	if err := e.interp.Use(symbols); err != nil {
		return err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.used == nil {
		e.used = interp.Exports{}
	}
	for k, v := range symbols {
		e.used[k] = v
	}
	return nil
}

// Banner implements kernel.Bannerer.
func (e *Engine) Banner() string {
	return "nsysx Go kernel: cells run in the yaegi v0.16.1 interpreter. %help lists the magics."
}

func (e *Engine) current() *run {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.run
}

func (e *Engine) started() {
	r := e.current()
	r.once.Do(func() {
		id := goid()
		e.mu.Lock()
		r.goid = id
		e.mu.Unlock()
		close(r.started)
	})
}

// tryAcquire takes the evaluation slot if it is free and returns the
// function that frees it.
func (e *Engine) tryAcquire() (release func(), ok bool) {
	e.mu.Lock()
	sem := e.sem
	e.mu.Unlock()
	select {
	case sem <- struct{}{}:
		return func() { <-sem }, true
	default:
		return nil, false
	}
}

// acquire waits until no evaluation goroutine runs (an interrupted cell
// blocked in compiled code may still be finishing) and returns the
// function that frees the slot. An interrupted evaluation that has not
// stopped AbandonAfter after its interrupt is abandoned: it keeps the old
// slot and goes on in the background (if what blocks it ever returns,
// yaegi's stop ends it at its next interpreted step), the engine takes a
// new slot and says so once, on out's stderr. Yaegi holds its own lock
// only while it compiles, so the two may run side by side; the session's
// variables are kept.
func (e *Engine) acquire(ctx context.Context, out kernel.Output) (release func(), err error) {
	for {
		if release, ok := e.tryAcquire(); ok {
			return release, nil
		}
		e.mu.Lock()
		sem, stopped := e.sem, e.stopped
		e.mu.Unlock()
		var abandon <-chan time.Time
		if !stopped.IsZero() {
			t := time.NewTimer(time.Until(stopped.Add(e.AbandonAfter)))
			defer t.Stop()
			abandon = t.C
		}
		select {
		case sem <- struct{}{}:
			return func() { <-sem }, nil
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-abandon:
			e.mu.Lock()
			if e.sem == sem && e.stuck != nil {
				e.sem, e.stopped, e.stuck = make(chan struct{}, 1), time.Time{}, nil
				e.mu.Unlock()
				fmt.Fprintf(out.Stderr(), "The interrupted cell did not stop within %v (it is blocked in a Go call, such as a second "+
					"sync.Mutex.Lock or a WaitGroup.Wait that nothing ends): it is abandoned and stays blocked in the background; "+
					"this cell runs beside it and the session's variables are kept.\n", e.AbandonAfter)
			} else {
				e.mu.Unlock()
			}
		}
	}
}

// eval evaluates one source. On cancellation it stops the interpreter and
// waits up to a short grace period; the evaluating goroutine keeps the
// semaphore until it really ends.
func (e *Engine) eval(ctx context.Context, out kernel.Output, src *source) (*run, reflect.Value, error) {
	return e.evalFunc(ctx, out, src, func() (reflect.Value, error) {
		return e.interp.EvalWithContext(context.Background(), src.text)
	})
}

// evalFunc runs do (an evaluation) on its own goroutine; see eval.
func (e *Engine) evalFunc(ctx context.Context, out kernel.Output, src *source, do func() (reflect.Value, error)) (*run, reflect.Value, error) {
	release, err := e.acquire(ctx, out)
	if err != nil {
		return nil, reflect.Value{}, err
	}
	r := &run{ctx: ctx, out: out, started: make(chan struct{}), src: src}
	e.mu.Lock()
	e.run = r
	e.mu.Unlock()
	var (
		v    reflect.Value
		done = make(chan struct{})
	)
	go func() {
		defer release()
		defer func() {
			e.mu.Lock()
			if e.stuck == done {
				e.stopped, e.stuck = time.Time{}, nil
			}
			e.mu.Unlock()
		}()
		defer close(done)
		defer func() {
			if p := recover(); p != nil {
				err = interp.Panic{Value: p}
			}
		}()
		v, err = do()
	}()
	select {
	case <-done:
		if err == nil && ctx.Err() != nil { // interrupted while finishing
			err = ctx.Err()
		}
		return r, v, err
	case <-ctx.Done():
	}
	select {
	case <-r.started:
		interpStop(e.interp)
	case <-done:
		if err == nil {
			err = ctx.Err()
		}
		return r, v, err
	}
	select {
	case <-done:
	case <-time.After(200 * time.Millisecond):
		e.mu.Lock()
		if e.stuck == nil { // else an earlier one is still stuck: keep its time
			e.stopped, e.stuck = time.Now(), done
		}
		e.mu.Unlock()
	}
	return r, reflect.Value{}, ctx.Err()
}

// Execute implements kernel.Engine.
func (e *Engine) Execute(ctx context.Context, code string, out kernel.Output) (err error) {
	ctx, x := e.begin(ctx, out)
	defer func() { err = e.end(x, err) }()
	code = strings.ReplaceAll(code, "\r\n", "\n")
	units, err := splitUnits(code)
	if err != nil {
		return syntaxError(err, &source{code: code, text: code})
	}
	groups := makeGroups(code, units)
	for i, g := range groups {
		if err := e.evalGroup(ctx, code, g, i == len(groups)-1, out); err != nil {
			return err
		}
	}
	return nil
}

// groupCode is a group ready to evaluate: its source with the imports
// done before blanked, the imports it adds and the edits to apply.
type groupCode struct {
	code, src, wrapper string
	f                  *ast.File
	fset               *token.FileSet
	imports            [][2]string
	edits              []edit
	guessable          bool // a second try may compile (see rangeint.go, commaok.go)
}

func (e *Engine) evalGroup(ctx context.Context, code string, g *group, last bool, out kernel.Output) error {
	gc, err := e.groupCode(code, g, false)
	if gc == nil || err != nil {
		return err
	}
	r, err := e.evalCode(ctx, gc, g, last, out)
	if err != nil && isCompileError(r, err) && gc.guessable { // perhaps ranges over integer variables, comma-ok forms
		if gc2, err2 := e.groupCode(code, g, true); err2 == nil && gc2 != nil {
			if r2, err2 := e.evalCode(ctx, gc2, g, last, out); err2 == nil || !isCompileError(r2, err2) {
				gc, r, err = gc2, r2, err2
			}
		}
	}
	if err == nil || !isCompileError(r, err) { // the code ran, at least in part
		e.mu.Lock()
		for _, im := range gc.imports {
			e.imports[im[0]] = im[1]
		}
		for _, n := range g.names {
			e.names[n] = true
		}
		e.mu.Unlock()
	}
	if err != nil {
		return e.translate(err, r, gc.f, gc.fset)
	}
	return nil
}

// evalCode evaluates a group, showing the value of the cell's last
// expression if it has one.
func (e *Engine) evalCode(ctx context.Context, gc *groupCode, g *group, last bool, out kernel.Output) (*run, error) {
	if shown := gc.shown(g, last); shown != nil {
		r, _, err := e.eval(ctx, out, shown)
		if err == nil || !isCompileError(r, err) {
			return r, err
		} // else e.g. a call without results: run it as written
	}
	r, _, err := e.eval(ctx, out, newSource(gc.code, gc.src, gc.wrapper, gc.edits))
	return r, err
}

// groupCode parses a group and computes its edits: the start marker, line
// markers, statements run in a function literal, range and go statement
// rewrites (guess: see rangeIntEdits). It returns nil for a group of
// imports all done before.
func (e *Engine) groupCode(code string, g *group, guess bool) (*groupCode, error) {
	gc := &groupCode{code: code, src: g.src, wrapper: g.wrapper(), fset: token.NewFileSet()}
	f, err := g.parse(gc.fset)
	if err != nil {
		return nil, syntaxError(err, &source{code: code, text: g.src, wrapper: gc.wrapper})
	}
	gc.f = f
	off := gc.off
	switch {
	case len(g.units) > 0 && g.units[0].kind == kindImport:
		if gc.src, gc.imports = e.newImports(f, gc.fset, gc.src, len(gc.wrapper)); len(gc.imports) == 0 {
			return nil, nil
		}
	case g.decl:
		gc.edits = append(gc.edits, edit{0, 0, "var _ = " + ctlName + ".StartedV();"})
	default:
		gc.edits = append(gc.edits, edit{0, 0, ctlName + ".Started();"})
		body := f.Decls[0].(*ast.FuncDecl).Body.List
		if err := e.checkUndefined(body, &source{code: code, text: g.src, wrapper: gc.wrapper}, gc.fset); err != nil {
			return nil, err
		}
		gc.guessable = commaOkGuesses(body, off, gc.src)
		if guess {
			gc.edits = append(gc.edits, commaOkEdits(body, off, gc.src)...)
		}
		for _, st := range body {
			p := off(st.Pos())
			gc.edits = append(gc.edits, edit{p, p, fmt.Sprintf("%s.L(%d);", ctlName, gc.fset.Position(st.Pos()).Line)})
			if nestedMultiDefine(st) {
				gc.edits = append(gc.edits, edit{p, p, "func() {"}, edit{off(st.End()), off(st.End()), "}()"})
			}
		}
	}
	gc.edits = append(gc.edits, rangeIntEdits(f, gc.fset, len(gc.wrapper), gc.src, guess)...)
	// a failed compile leaves yaegi's types and methods half declared: no
	// second try for declarations of those
	gc.guessable = gc.guessable || rangeGuesses(f) && !(g.decl && declaresTypes(f))
	gc.edits = append(gc.edits, goEdits(f, gc.fset, len(gc.wrapper))...)
	return gc, nil
}

// off is the offset of p in the group source.
func (gc *groupCode) off(p token.Pos) int {
	return gc.fset.File(gc.f.Pos()).Offset(p) - len(gc.wrapper)
}

// shown returns the source that shows the value of the cell's last
// expression, or nil when there is none to show.
func (gc *groupCode) shown(g *group, last bool) *source {
	if !last || g.last == nil || isPrintCall(g.last.X) {
		return nil
	}
	s, t := gc.off(g.last.X.Pos()), gc.off(g.last.X.End())
	return newSource(gc.code, gc.src, gc.wrapper, append(slices.Clone(gc.edits), edit{s, s, ctlName + ".Show("}, edit{t, t, ")"}))
}

// nestedMultiDefine reports a compound top-level statement (block, if,
// for, switch, select) that declares several variables from one call in a
// nested scope ("a, err := f()" or "var a, b = f()"): yaegi v0.16.1 loses
// such variables at top level ("undefined: a"), but not inside a
// function, so the engine runs these statements in a function literal
// (which sees and sets the cell's variables the same way).
func nestedMultiDefine(st ast.Stmt) bool {
	switch st.(type) {
	case *ast.BlockStmt, *ast.IfStmt, *ast.ForStmt, *ast.RangeStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt, *ast.LabeledStmt:
	default:
		return false
	}
	found := false
	ast.Inspect(st, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.AssignStmt:
			found = found || n.Tok == token.DEFINE && len(n.Lhs) > len(n.Rhs)
		case *ast.ValueSpec:
			found = found || len(n.Values) > 0 && len(n.Names) > len(n.Values)
		}
		return !found
	})
	return found
}

// isCompileError reports whether err happened before the code started.
func isCompileError(r *run, err error) bool {
	if r == nil || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return false
	}
	select {
	case <-r.started:
		return false
	default:
		return true
	}
}

// newImports blanks the imports already done by earlier cells (yaegi
// rejects a second import of a package) and returns the source and the
// new imports as (local name, path).
func (e *Engine) newImports(f *ast.File, fset *token.FileSet, src string, prefix int) (string, [][2]string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	tf := fset.File(f.Pos())
	off := func(p token.Pos) int { return tf.Offset(p) - prefix }
	var blank []unit
	var added [][2]string
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.IMPORT {
			continue
		}
		var old []unit
		for _, sp := range gd.Specs {
			is := sp.(*ast.ImportSpec)
			path := strings.Trim(is.Path.Value, "\"`")
			name := path[strings.LastIndexByte(path, '/')+1:]
			if is.Name != nil {
				name = is.Name.Name
			}
			if e.imports[name] == path {
				old = append(old, unit{start: off(is.Pos()), end: off(is.End())})
			} else {
				added = append(added, [2]string{name, path})
			}
		}
		if len(old) == len(gd.Specs) {
			blank = append(blank, unit{start: off(gd.Pos()), end: off(gd.End())})
		} else {
			blank = append(blank, old...)
		}
	}
	b := []byte(src)
	for _, u := range blank {
		for i := u.start; i < u.end; i++ {
			if b[i] != '\n' {
				b[i] = ' '
			}
		}
	}
	return string(b), added
}

// isPrintCall reports calls whose results nobody wants to see (fmt.Println...).
func isPrintCall(x ast.Expr) bool {
	call, ok := x.(*ast.CallExpr)
	if !ok {
		return false
	}
	switch fn := call.Fun.(type) {
	case *ast.Ident:
		return fn.Name == "print" || fn.Name == "println"
	case *ast.SelectorExpr:
		pkg, ok := fn.X.(*ast.Ident)
		return ok && (pkg.Name == "fmt" || pkg.Name == "log") &&
			(strings.HasPrefix(fn.Sel.Name, "Print") || strings.HasPrefix(fn.Sel.Name, "Fprint"))
	}
	return false
}

// Close implements io.Closer; the interpreter needs no cleanup.
func (e *Engine) Close() error { return nil }
