package gointerp

import (
	"go/ast"
	"go/token"
)

// checkUndefined reports an identifier used on the right of a top-level
// := or var that nothing declares. yaegi v0.16.1 answers such code with a
// misleading "constant definition loop" and, worse, declares the unknown
// name as an int, so the engine catches it first. Only names that cannot
// be resolved at all are reported: cell globals, imports, builtins and
// anything declared inside function literals are known or skipped.
func (e *Engine) checkUndefined(body []ast.Stmt, src *source, fset *token.FileSet) error {
	known := e.knownNames()
	for _, st := range body {
		bad := checkStmt(st, known)
		for _, n := range stmtNames(st) {
			known[n] = true
		}
		if bad != nil {
			p := fset.Position(bad.Pos())
			l, c := src.cellPos(p.Line, p.Column)
			return cellError("CompileError", "undefined: "+bad.Name, src.code, l, c)
		}
	}
	return nil
}

// knownNames are the names a cell may use: builtins, imports and the
// cells' declarations.
func (e *Engine) knownNames() map[string]bool {
	known := map[string]bool{ctlName: true}
	for _, b := range builtins {
		known[b] = true
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	for n := range e.imports {
		known[n] = true
	}
	for n := range e.names {
		known[n] = true
	}
	return known
}

// checkStmt returns the first undefined name on the right of a top-level
// := or var, and adds the names the statement declares to known.
func checkStmt(st ast.Stmt, known map[string]bool) *ast.Ident {
	var bad *ast.Ident
	check := func(x ast.Expr) {
		if bad == nil {
			bad = undefinedIn(x, known)
		}
	}
	switch st := st.(type) {
	case *ast.AssignStmt:
		if st.Tok != token.DEFINE {
			return nil
		}
		for _, x := range st.Rhs {
			check(x)
		}
		for _, x := range st.Lhs {
			if id, ok := x.(*ast.Ident); ok {
				known[id.Name] = true
			}
		}
	case *ast.DeclStmt:
		gd, ok := st.Decl.(*ast.GenDecl)
		if !ok {
			return nil
		}
		for _, sp := range gd.Specs {
			switch sp := sp.(type) {
			case *ast.ValueSpec:
				for _, x := range sp.Values {
					check(x)
				}
				if sp.Type != nil {
					check(sp.Type)
				}
				for _, n := range sp.Names {
					known[n.Name] = true
				}
			case *ast.TypeSpec:
				known[sp.Name.Name] = true
			}
		}
	}
	return bad
}

// undefinedIn returns the first identifier of x that known lacks, skipping
// what function literals and types declare and the right of selectors
// and the keys of composite literals (field names).
func undefinedIn(x ast.Expr, known map[string]bool) *ast.Ident {
	var bad *ast.Ident
	var visit func(n ast.Node) bool
	visit = func(n ast.Node) bool {
		if bad != nil {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit, *ast.StructType, *ast.InterfaceType, *ast.FuncType:
			return false
		case *ast.SelectorExpr: // only the left side can be undefined
			ast.Inspect(n.X, visit)
			return false
		case *ast.KeyValueExpr: // Key may be a field name
			ast.Inspect(n.Value, visit)
			return false
		case *ast.Ident:
			if !known[n.Name] && n.Name != "_" {
				bad = n
			}
		}
		return true
	}
	ast.Inspect(x, visit)
	return bad
}
