package gointerp

import (
	"context"
	"errors"
	"fmt"
	"go/ast"
	"go/scanner"
	"go/token"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/traefik/yaegi/interp"

	"github.com/nsysx/nsysx/kernel"
)

// nestedFuncRe matches the name yaegi gives a function literal inside
// another ("func.func"): go statements put theirs inside one.
var nestedFuncRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(?:func\.)+func$`) })

// posRe matches "[file.go:]line:col: message".
var posRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(?:\S*\.go:)?(\d+):(\d+): ((?s).*)$`) })

// sourceLines returns the traceback lines showing a line of the cell with
// a caret under the column.
func sourceLines(code string, line, col int) []string {
	lines := strings.Split(code, "\n")
	if line < 1 || line > len(lines) {
		return nil
	}
	l := lines[line-1]
	caret := strings.Repeat(" ", max(col-1, 0))
	if col-1 <= len(l) { // keep tabs so that the caret lines up
		caret = strings.Map(func(r rune) rune {
			if r == '\t' {
				return '\t'
			}
			return ' '
		}, l[:col-1])
	}
	num := strconv.Itoa(line)
	return []string{fmt.Sprintf("%s | %s", num, l), fmt.Sprintf("%s | %s^", strings.Repeat(" ", len(num)), caret)}
}

func cellError(name, msg, code string, line, col int) *kernel.Error {
	value := fmt.Sprintf("line %d:%d: %s", line, col, msg)
	tb := append([]string{name + ": " + value}, sourceLines(code, line, col)...)
	return &kernel.Error{Name: name, Value: value, Traceback: tb}
}

// syntaxError reports the first parse error at its cell position.
func syntaxError(err error, src *source) error {
	var list scanner.ErrorList
	if errors.As(err, &list) && len(list) > 0 {
		l, c := list[0].Pos.Line, list[0].Pos.Column
		if src != nil {
			l, c = src.cellPos(l, c)
		}
		code := ""
		if src != nil {
			code = src.code
		}
		return cellError("SyntaxError", list[0].Msg, code, l, c)
	}
	return &kernel.Error{Name: "SyntaxError", Value: err.Error(), Traceback: []string{"SyntaxError: " + err.Error()}}
}

// translate turns an evaluation error into a kernel.Error with cell positions.
func (e *Engine) translate(err error, r *run, f *ast.File, fset *token.FileSet) error {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) || r == nil {
		return err
	}
	src := r.src
	var p interp.Panic
	if errors.As(err, &p) {
		msg := fmt.Sprint(p.Value)
		if isCompileError(r, err) {
			return compilePanic(msg, src, f, fset)
		}
		return e.panicError(msg, r)
	}
	msg := err.Error()
	var list scanner.ErrorList
	if errors.As(err, &list) && len(list) > 0 {
		return syntaxError(err, src)
	}
	if m := posRe().FindStringSubmatch(msg); m != nil {
		line, _ := strconv.Atoi(m[1])
		col, _ := strconv.Atoi(m[2])
		line, col = src.cellPos(line, col)
		return cellError("CompileError", hint(m[3]), src.code, line, col)
	}
	return &kernel.Error{Name: "CompileError", Value: hint(msg), Traceback: []string{"CompileError: " + hint(msg)}}
}

// compilePanic explains a panic of yaegi's compiler by the forms known to
// cause it.
func compilePanic(msg string, src *source, f *ast.File, fset *token.FileSet) error {
	if lines := rangeSuspects(f, fset); len(lines) > 0 {
		return cellError("CompileError", "range over an integer or a function is not supported by the interpreter "+
			"(yaegi v0.16.1 predates Go 1.22) beyond integer literals, len, conversions and integer variables; "+
			"write for i := 0; i < n; i++ { ... }, or call the function", src.code, lines[0], 1)
	}
	if line := commaOkSuspect(f, fset); line > 0 {
		return cellError("CompileError", "the interpreter (yaegi v0.16.1) cannot declare the two variables of "+
			"a channel receive, or of a map index or type assertion of anything but names, fields and literals, "+
			"at the top level of a cell: declare them first (var v T; var ok bool; v, ok = <-ch) "+
			"or do it inside a function", src.code, line, 1)
	}
	return &kernel.Error{Name: "CompileError", Value: "interpreter error: " + msg,
		Traceback: []string{"CompileError: interpreter error: " + msg}}
}

// commaOkSuspect returns the line of the first top-level "a, b := x" or
// "var a, b = x" of a comma-ok form (0: none).
func commaOkSuspect(f *ast.File, fset *token.FileSet) int {
	if f == nil || len(f.Decls) == 0 {
		return 0
	}
	fd, ok := f.Decls[len(f.Decls)-1].(*ast.FuncDecl) // the wrapper of a statement group
	if !ok || fd.Name.Name != "main" || fd.Body == nil {
		return 0
	}
	commaOk := func(lhs int, rhs []ast.Expr) bool {
		if lhs != 2 || len(rhs) != 1 {
			return false
		}
		switch x := ast.Unparen(rhs[0]).(type) {
		case *ast.IndexExpr, *ast.TypeAssertExpr:
			return true
		case *ast.UnaryExpr:
			return x.Op == token.ARROW
		}
		return false
	}
	for _, st := range fd.Body.List {
		switch st := st.(type) {
		case *ast.AssignStmt:
			if st.Tok == token.DEFINE && commaOk(len(st.Lhs), st.Rhs) {
				return fset.Position(st.Pos()).Line
			}
		case *ast.DeclStmt:
			if gd, ok := st.Decl.(*ast.GenDecl); ok && len(gd.Specs) == 1 {
				if vs, ok := gd.Specs[0].(*ast.ValueSpec); ok && commaOk(len(vs.Names), vs.Values) {
					return fset.Position(st.Pos()).Line
				}
			}
		}
	}
	return 0
}

// panicError reports a runtime panic of the evaluation r.
func (e *Engine) panicError(msg string, r *run) error {
	e.mu.Lock()
	frames := append([]string(nil), r.frames...)
	topLine := r.line
	e.mu.Unlock()
	return formatPanic(msg, r.src, frames, topLine)
}

// formatPanic reports a panic with the frames yaegi printed (inner first),
// mapped to cell positions by src; the top level, which yaegi does not
// locate, is topLine, the last top-level statement started (0: none).
func formatPanic(msg string, src *source, frames []string, topLine int) *kernel.Error {
	if src == nil {
		src = &source{}
	}
	tb := []string{"panic: " + msg, ""}
	at := func(fn string, line, col int) {
		tb = append(tb, fmt.Sprintf("in %s, line %d", fn, line))
		for _, s := range sourceLines(src.code, line, col) {
			tb = append(tb, "    "+s)
		}
	}
	firstLine := 0
	for _, fr := range frames {
		m := panicFrameRe().FindStringSubmatch(fr)
		if m == nil {
			continue
		}
		fn := strings.TrimSuffix(strings.TrimPrefix(m[3], "main."), "(...)")
		if fn == "main" {
			break
		}
		line, _ := strconv.Atoi(m[1])
		col, _ := strconv.Atoi(m[2])
		if src.generated(line, col) { // the function a go statement became
			continue
		}
		line, col = src.cellPos(line, col)
		fn = nestedFuncRe().ReplaceAllString(fn, "func")
		if firstLine == 0 {
			firstLine = line
		}
		at(fn, line, col)
	}
	if topLine > 0 {
		if firstLine == 0 {
			firstLine = topLine
		}
		at("cell", topLine, indentCol(src.code, topLine))
	}
	if len(tb) == 2 {
		tb = tb[:1]
	}
	value := msg
	if firstLine > 0 {
		value = fmt.Sprintf("%s (line %d)", msg, firstLine)
	}
	return &kernel.Error{Name: "panic", Value: value, Traceback: tb}
}

// indentCol is the column of the first non-blank character of a line.
func indentCol(code string, line int) int {
	lines := strings.Split(code, "\n")
	if line < 1 || line > len(lines) {
		return 1
	}
	return len(lines[line-1]) - len(strings.TrimLeft(lines[line-1], " \t")) + 1
}

var (
	missingPkgRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`import "([^"]+)" error: unable to find source related to`)
	})
	genericSelRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`undefined selector:? (slices|maps|cmp)\.(\w+)`) })
)

// leftOut are the standard packages kept out of the interpreter
// (third_party/stdsyms/stdsyms.go says why).
var leftOut = []string{"go/types", "go/importer", "expvar", "net/http/pprof", "net/rpc", "net/rpc/jsonrpc", "testing/slogtest"}

// hint explains the interpreter's known gaps.
func hint(msg string) string {
	if m := missingPkgRe().FindStringSubmatch(msg); m != nil {
		if slices.Contains(leftOut, m[1]) {
			return fmt.Sprintf("package %q is not available: nsysx leaves %s out of the interpreter's standard library "+
				"(their initialisers would run in every nsysx command)", m[1], strings.Join(leftOut, ", "))
		}
		return fmt.Sprintf("package %q is not available: cells can import the Go standard library as of Go 1.22 "+
			"(yaegi v0.16.1; not iter, unique, weak...) and the packages the kernel provides, nothing else", m[1])
	}
	if m := genericSelRe().FindStringSubmatch(msg); m != nil {
		return fmt.Sprintf("%s.%s is not available: the interpreter (yaegi v0.16.1) has only part of the generic "+
			"packages slices, maps and cmp; use package sort (sort.Ints, sort.Slice) or write the loop", m[1], m[2])
	}
	return msg
}
