package gointerp

import (
	"go/ast"
	"go/token"
	"strings"
)

// yaegi v0.16 predates range over integers (Go 1.22) and panics while
// compiling one ("nil type", which it also logs on the standard logger:
// the kernel command silences that logger, see kernel.Run).
// rangeIntEdits rewrites the loops whose operand is obviously an integer
// into classic three-clause loops. When compilation fails anyway, the
// engine tries once more with guess set: ranges over a variable or a
// field (n, cfg.N) are rewritten too, as if they were integers; if that
// does not compile either (one of them was a slice or a map), the first
// error stands. rangeSuspects finds the single-variable ranges, to explain
// the failure.

// rangeIntEdits returns the edits (offsets in the group source, i.e. the
// parsed source minus prefix bytes) rewriting integer ranges.
func rangeIntEdits(f *ast.File, fset *token.FileSet, prefix int, code string, guess bool) []edit {
	var edits []edit
	tf := fset.File(f.Pos())
	src := func(n ast.Node) (int, int) { return tf.Offset(n.Pos()) - prefix, tf.Offset(n.End()) - prefix }
	ast.Inspect(f, func(n ast.Node) bool {
		rs, ok := n.(*ast.RangeStmt)
		if !ok || rs.Value != nil {
			return true
		}
		zero, ok := intZero(rs.X)
		if !ok && guess && pureOperand(rs.X) {
			zero, ok = "(X) - (X)", true
		}
		start, _ := src(rs)
		bodyStart, _ := src(rs.Body)
		xs, xe := src(rs.X)
		if !ok || xs < 0 || xe > len(code) {
			return true
		}
		if head := rangeHead(rs, "("+code[xs:xe]+")", zero); head != "" {
			edits = append(edits, edit{start: start, end: bodyStart, text: head})
		}
		return true
	})
	return edits
}

// rangeHead is the three-clause loop header for range x; zero is the
// first value, of the type of x ("X" in it stands for x).
func rangeHead(rs *ast.RangeStmt, x, zero string) string {
	zero = strings.ReplaceAll(zero, "(X)", x)
	switch key := rs.Key.(type) {
	case nil:
		return "for __nsysx_i, __nsysx_n := " + zero + ", " + x + "; __nsysx_i < __nsysx_n; __nsysx_i++ "
	case *ast.Ident:
		if rs.Tok == token.DEFINE {
			return "for " + key.Name + ", __nsysx_n := " + zero + ", " + x + "; " + key.Name + " < __nsysx_n; " + key.Name + "++ "
		}
		return "for " + key.Name + " = " + zero + "; " + key.Name + " < " + x + "; " + key.Name + "++ "
	}
	return ""
}

// intZero returns the zero of an expression that is an integer without
// type information (integer literals, len/cap, integer conversions and
// arithmetic of those), typed as the expression: "0" for an untyped
// constant or an int, "int64(0)" for an int64 conversion.
func intZero(e ast.Expr) (string, bool) {
	switch e := e.(type) {
	case *ast.BasicLit:
		return "0", e.Kind == token.INT
	case *ast.ParenExpr:
		return intZero(e.X)
	case *ast.UnaryExpr:
		if e.Op == token.SUB || e.Op == token.ADD {
			return intZero(e.X)
		}
	case *ast.BinaryExpr:
		return binaryZero(e)
	case *ast.CallExpr:
		if id, ok := e.Fun.(*ast.Ident); ok {
			switch id.Name {
			case "len", "cap", "int":
				return "0", true
			case "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64", "uintptr":
				return id.Name + "(0)", true
			}
		}
	}
	return "", false
}

// binaryZero is intZero of arithmetic: both operands integers (the zero
// of the typed one), or a literal and anything (arithmetic with an integer
// literal ranged over is an integer; "0" then, right for int).
func binaryZero(e *ast.BinaryExpr) (string, bool) {
	zx, okx := intZero(e.X)
	zy, oky := intZero(e.Y)
	switch e.Op {
	case token.SHL, token.SHR:
		return zx, okx && oky
	case token.ADD, token.SUB, token.MUL, token.QUO, token.REM, token.AND, token.OR, token.XOR:
		switch {
		case okx && oky && zx == "0":
			return zy, true
		case okx && oky:
			return zx, true
		case isIntLit(e.X) || isIntLit(e.Y):
			return "0", true
		}
	}
	return "", false
}

// pureOperand reports a variable or a field chain (n, cfg.N): evaluating
// it twice is harmless.
func pureOperand(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.Ident:
		return true
	case *ast.SelectorExpr:
		return pureOperand(e.X)
	case *ast.ParenExpr:
		return pureOperand(e.X)
	}
	return false
}

func isIntLit(e ast.Expr) bool {
	b, ok := e.(*ast.BasicLit)
	return ok && b.Kind == token.INT
}

// rangeGuesses reports ranges that only a guess rewrites.
func rangeGuesses(f *ast.File) bool {
	found := false
	ast.Inspect(f, func(n ast.Node) bool {
		if rs, ok := n.(*ast.RangeStmt); ok && rs.Value == nil && pureOperand(rs.X) {
			_, obvious := intZero(rs.X)
			found = found || !obvious
		}
		return !found
	})
	return found
}

// declaresTypes reports a type or a method declared at the top of f.
func declaresTypes(f *ast.File) bool {
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv != nil {
				return true
			}
		case *ast.GenDecl:
			if d.Tok == token.TYPE {
				return true
			}
		}
	}
	return false
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
