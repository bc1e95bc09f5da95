package gointerp

import (
	"context"
	"errors"
	"fmt"
	"go/ast"
	"go/scanner"
	"go/token"
	"regexp"
	"strconv"
	"strings"

	"github.com/traefik/yaegi/interp"

	"github.com/nsysx/nsysx/kernel"
)

// posRe matches "[file.go:]line:col: message".
var posRe = regexp.MustCompile(`^(?:\S*\.go:)?(\d+):(\d+): ((?s).*)$`)

// cellPos maps a position in an evaluated source to the cell: only line 1
// carries the prefix added by yaegi and the engine.
func cellPos(line, col, prefix int) (int, int) {
	if line == 1 {
		col -= prefix
	}
	return line, max(col, 1)
}

// sourceLines returns the traceback lines showing a line of the cell with
// a caret under the column.
func sourceLines(code string, line, col int) []string {
	lines := strings.Split(code, "\n")
	if line < 1 || line > len(lines) {
		return nil
	}
	l := strings.ReplaceAll(lines[line-1], "\t", "    ")
	num := strconv.Itoa(line)
	return []string{fmt.Sprintf("%s | %s", num, l), fmt.Sprintf("%s | %s^", strings.Repeat(" ", len(num)), strings.Repeat(" ", max(col-1, 0)))}
}

func cellError(name, msg, code string, line, col int) *kernel.Error {
	value := fmt.Sprintf("line %d:%d: %s", line, col, msg)
	tb := append([]string{name + ": " + value}, sourceLines(code, line, col)...)
	return &kernel.Error{Name: name, Value: value, Traceback: tb}
}

// syntaxError reports the first parse error at its cell position.
func syntaxError(err error, code string, prefix int) error {
	var list scanner.ErrorList
	if errors.As(err, &list) && len(list) > 0 {
		l, c := cellPos(list[0].Pos.Line, list[0].Pos.Column, prefix)
		return cellError("SyntaxError", list[0].Msg, code, l, c)
	}
	return &kernel.Error{Name: "SyntaxError", Value: err.Error(), Traceback: []string{"SyntaxError: " + err.Error()}}
}

// translate turns an evaluation error into a kernel.Error with cell positions.
func (e *Engine) translate(err error, r *run, code string, f *ast.File, fset *token.FileSet) error {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	prefix := 0
	if r != nil {
		prefix = r.prefix
	}
	var p interp.Panic
	if errors.As(err, &p) {
		msg := fmt.Sprint(p.Value)
		if isCompileError(r, err) {
			if lines := rangeSuspects(f, fset); len(lines) > 0 {
				return cellError("CompileError", "range over an integer is not supported by the interpreter "+
					"(yaegi v0.16.1 predates Go 1.22); write for i := 0; i < n; i++ { ... }", code, lines[0], 1)
			}
			return &kernel.Error{Name: "CompileError", Value: "interpreter error: " + msg,
				Traceback: []string{"CompileError: interpreter error: " + msg}}
		}
		return e.panicError(msg, r, code)
	}
	msg := err.Error()
	var list scanner.ErrorList
	if errors.As(err, &list) && len(list) > 0 {
		l, c := cellPos(list[0].Pos.Line, list[0].Pos.Column, prefix)
		return cellError("SyntaxError", list[0].Msg, code, l, c)
	}
	if m := posRe.FindStringSubmatch(msg); m != nil {
		line, _ := strconv.Atoi(m[1])
		col, _ := strconv.Atoi(m[2])
		line, col = cellPos(line, col, prefix)
		return cellError("CompileError", hint(m[3]), code, line, col)
	}
	return &kernel.Error{Name: "CompileError", Value: hint(msg), Traceback: []string{"CompileError: " + hint(msg)}}
}

// panicError reports a runtime panic with the frames yaegi printed.
func (e *Engine) panicError(msg string, r *run, code string) error {
	e.mu.Lock()
	frames := append([]string(nil), r.frames...)
	e.mu.Unlock()
	tb := []string{"panic: " + msg, ""}
	value := msg
	for i, fr := range frames {
		m := panicFrameRe.FindStringSubmatch(fr)
		if m == nil {
			continue
		}
		line, _ := strconv.Atoi(m[1])
		col, _ := strconv.Atoi(m[2])
		line, col = cellPos(line, col, r.prefix)
		fn := strings.TrimSuffix(strings.TrimPrefix(m[3], "main."), "(...)")
		if fn == "main" {
			fn = "cell"
		}
		if i == 0 {
			value = fmt.Sprintf("%s (line %d)", msg, line)
		}
		tb = append(tb, fmt.Sprintf("in %s, line %d:%d", fn, line, col))
		for _, s := range sourceLines(code, line, col) {
			tb = append(tb, "    "+s)
		}
	}
	return &kernel.Error{Name: "panic", Value: value, Traceback: tb}
}

var (
	missingPkgRe = regexp.MustCompile(`import "([^"]+)" error: unable to find source related to`)
	genericSelRe = regexp.MustCompile(`undefined selector:? (slices|maps|cmp)\.(\w+)`)
)

// hint explains the interpreter's known gaps.
func hint(msg string) string {
	if m := missingPkgRe.FindStringSubmatch(msg); m != nil {
		return fmt.Sprintf("package %q is not available: cells can import the Go standard library as of Go 1.22 "+
			"(yaegi v0.16.1; not iter, unique, weak...) and the packages the kernel provides, nothing else", m[1])
	}
	if m := genericSelRe.FindStringSubmatch(msg); m != nil {
		return fmt.Sprintf("%s.%s is not available: the interpreter (yaegi v0.16.1) has only part of the generic "+
			"packages slices, maps and cmp; use package sort (sort.Ints, sort.Slice) or write the loop", m[1], m[2])
	}
	return msg
}
