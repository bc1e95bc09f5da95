package gointerp

import (
	"context"
	"go/ast"
	"go/token"
	"io"
	"reflect"

	"github.com/nsysx/nsysx/kernel"
)

// Prepare implements kernel.Preparer for %timeit: the statements are
// compiled once and each call of run executes them (output discarded).
func (e *Engine) Prepare(ctx context.Context, code string) (func(context.Context) error, error) {
	units, err := splitUnits(code)
	if err != nil {
		return nil, syntaxError(err, &source{code: code, text: code})
	}
	for _, u := range units {
		if u.kind != kindStmt {
			return nil, kernel.Errorf("UsageError", "%%timeit times statements; declare and import in another cell")
		}
	}
	g := &group{units: units, src: blankExcept(code, units)}
	fset := token.NewFileSet()
	f, err := g.parse(fset)
	if err != nil {
		return nil, syntaxError(err, &source{code: code, text: g.src, wrapper: stmtWrapper})
	}
	if err := e.checkUndefined(f.Decls[0].(*ast.FuncDecl).Body.List, &source{code: code, text: g.src, wrapper: stmtWrapper}, fset); err != nil {
		return nil, err
	}
	edits := append([]edit{{0, 0, ctlName + ".Started();"}}, rangeIntEdits(f, fset, len(stmtWrapper), g.src, false)...)
	edits = append(edits, goEdits(f, fset, len(stmtWrapper))...)
	src := newSource(code, g.src, stmtWrapper, edits)
	out := kernel.TextOutput{W: io.Discard}
	release, err := e.acquire(ctx, out)
	if err != nil {
		return nil, err
	}
	prog, err := e.interp.Compile(src.text)
	release()
	if err != nil {
		return nil, e.translate(err, &run{src: src, started: make(chan struct{})}, f, fset)
	}
	return func(ctx context.Context) error {
		r, _, err := e.evalFunc(ctx, out, src, func() (reflect.Value, error) {
			return e.interp.ExecuteWithContext(context.Background(), prog)
		})
		if err != nil {
			return e.translate(err, r, f, fset)
		}
		return nil
	}, nil
}

// EvalExpression implements kernel.ExpressionEvaluator (user_expressions).
func (e *Engine) EvalExpression(ctx context.Context, expr string) (map[string]any, error) {
	src := newSource(expr, expr, stmtWrapper, []edit{{0, 0, ctlName + ".Started();" + ctlName + ".Capture("}, {len(expr), len(expr), ")"}})
	r, _, err := e.eval(ctx, kernel.TextOutput{W: io.Discard}, src)
	if err != nil {
		return nil, e.translate(err, r, nil, token.NewFileSet())
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	return r.capture, nil
}
