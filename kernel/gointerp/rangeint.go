package gointerp

import (
	"go/ast"
	"go/token"
)

// yaegi v0.16 predates range over integers (Go 1.22) and panics while
// compiling one. rangeIntEdits rewrites the loops whose operand is
// obviously an integer into classic three-clause loops; rangeSuspects
// finds the remaining single-variable ranges, to explain the failure if
// compilation then panics.

// rangeIntEdits returns the edits (offsets in the group source, i.e. the
// parsed source minus prefix bytes) rewriting obvious integer ranges.
func rangeIntEdits(f *ast.File, fset *token.FileSet, prefix int, code string) []edit {
	var edits []edit
	tf := fset.File(f.Pos())
	src := func(n ast.Node) (int, int) { return tf.Offset(n.Pos()) - prefix, tf.Offset(n.End()) - prefix }
	ast.Inspect(f, func(n ast.Node) bool {
		rs, ok := n.(*ast.RangeStmt)
		if !ok || rs.Value != nil || !obviousInt(rs.X) {
			return true
		}
		start, _ := src(rs)
		bodyStart, _ := src(rs.Body)
		xs, xe := src(rs.X)
		if xs < 0 || xe > len(code) {
			return true
		}
		x := code[xs:xe]
		var head string
		switch key := rs.Key.(type) {
		case nil:
			head = "for __nsysx_i, __nsysx_n := 0, (" + x + "); __nsysx_i < __nsysx_n; __nsysx_i++ "
		case *ast.Ident:
			if rs.Tok == token.DEFINE {
				head = "for " + key.Name + ", __nsysx_n := 0, (" + x + "); " + key.Name + " < __nsysx_n; " + key.Name + "++ "
			} else {
				head = "for " + key.Name + " = 0; " + key.Name + " < (" + x + "); " + key.Name + "++ "
			}
		default:
			return true
		}
		edits = append(edits, edit{start: start, end: bodyStart, text: head})
		return true
	})
	return edits
}

// obviousInt reports whether e is an integer without type information:
// integer literals, len/cap and integer conversions, and arithmetic of those.
func obviousInt(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.BasicLit:
		return e.Kind == token.INT
	case *ast.ParenExpr:
		return obviousInt(e.X)
	case *ast.UnaryExpr:
		return (e.Op == token.SUB || e.Op == token.ADD) && obviousInt(e.X)
	case *ast.BinaryExpr:
		switch e.Op {
		case token.ADD, token.SUB, token.MUL, token.QUO, token.REM, token.SHL, token.SHR, token.AND, token.OR, token.XOR:
			return obviousInt(e.X) && obviousInt(e.Y) ||
				(e.Op != token.SHL && e.Op != token.SHR) && (isIntLit(e.X) || isIntLit(e.Y)) && (obviousInt(e.X) || obviousInt(e.Y))
		}
	case *ast.CallExpr:
		if id, ok := e.Fun.(*ast.Ident); ok {
			switch id.Name {
			case "len", "cap", "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64", "uintptr":
				return true
			}
		}
	}
	return false
}

func isIntLit(e ast.Expr) bool {
	b, ok := e.(*ast.BasicLit)
	return ok && b.Kind == token.INT
}

// rangeSuspects returns the lines of range statements over a single
// expression that is not a composite literal (perhaps an integer).
func rangeSuspects(f *ast.File, fset *token.FileSet) []int {
	var lines []int
	if f == nil {
		return nil
	}
	ast.Inspect(f, func(n ast.Node) bool {
		if rs, ok := n.(*ast.RangeStmt); ok && rs.Value == nil {
			if _, lit := rs.X.(*ast.CompositeLit); !lit {
				lines = append(lines, fset.Position(rs.Pos()).Line)
			}
		}
		return true
	})
	return lines
}
