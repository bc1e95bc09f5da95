package gointerp

import (
	"go/ast"
	"go/token"
)

// yaegi v0.16.1 cannot compile the two-variable declaration of a comma-ok
// form at the top level of a cell (v, ok := m[k] or n, ok := x.(int):
// "nil type"), though it compiles the assignment. On the second try (see
// rangeint.go) such statements are rewritten into a declaration and that
// assignment:
//
//	v, ok := m[k]    ->  v := m[k]; var ok bool; v, ok = m[k]
//	n, ok := x.(T)   ->  var n T; var ok bool; n, ok = x.(T)
//
// The map index is evaluated twice, so only plain operands (names, fields,
// literals) are rewritten; channel receives are not (the first receive
// would take a value). compilePanic explains the others.

// commaOkEdits returns the edits rewriting the top-level statements of body.
func commaOkEdits(body []ast.Stmt, off func(token.Pos) int, src string) []edit {
	var edits []edit
	text := func(n ast.Node) string { return src[off(n.Pos()):off(n.End())] }
	declared := map[string]bool{"_": true} // by the cell's statements so far: assigned, not declared again
	for _, st := range body {
		as, ok := st.(*ast.AssignStmt)
		if !ok || as.Tok != token.DEFINE || len(as.Lhs) != 2 || len(as.Rhs) != 1 {
			for _, n := range stmtNames(st) {
				declared[n] = true
			}
			continue
		}
		a, aok := as.Lhs[0].(*ast.Ident)
		b, bok := as.Lhs[1].(*ast.Ident)
		if !aok || !bok {
			continue
		}
		x := text(as.Rhs[0])
		var decl string
		switch r := ast.Unparen(as.Rhs[0]).(type) {
		case *ast.IndexExpr:
			if !plainOperand(r.X) || !plainOperand(r.Index) {
				continue
			}
			if !declared[a.Name] {
				decl = a.Name + " := " + x + "; "
			}
		case *ast.TypeAssertExpr:
			if r.Type == nil || !plainOperand(r.X) {
				continue
			}
			if !declared[a.Name] {
				decl = "var " + a.Name + " " + text(r.Type) + "; "
			}
		default:
			continue
		}
		if !declared[b.Name] {
			decl += "var " + b.Name + " bool; "
		}
		declared[a.Name], declared[b.Name] = true, true
		edits = append(edits, edit{off(as.Pos()), off(as.End()), decl + a.Name + ", " + b.Name + " = " + x})
	}
	return edits
}

// plainOperand reports a name, a field chain or a literal: evaluating it
// twice is harmless.
func plainOperand(e ast.Expr) bool {
	if _, ok := e.(*ast.BasicLit); ok {
		return true
	}
	return pureOperand(e)
}

// commaOkGuesses reports top-level statements commaOkEdits rewrites.
func commaOkGuesses(body []ast.Stmt, off func(token.Pos) int, src string) bool {
	return len(commaOkEdits(body, off, src)) > 0
}
