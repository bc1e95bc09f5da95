package gointerp

import (
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
)

// A cell is cut into top-level units (an import, a declaration or a
// statement), then into evaluation groups, because yaegi v0.16 evaluates
// either declarations (a pseudo file) or statements (a pseudo main body),
// never both at once. Imports are evaluated first; the other units keep
// their order, consecutive units of one kind sharing an evaluation. var and
// const can be either: they join the group they follow and start a
// declaration group otherwise.
//
// Every group's source is the whole cell with the other units blanked
// (newlines kept), so positions reported by the parser and by yaegi are
// positions in the cell (on line 1, after the wrapper yaegi adds).

type unitKind int

const (
	kindImport unitKind = iota
	kindDecl
	kindStmt
	kindVar // var or const
)

type unit struct {
	kind       unitKind
	start, end int // byte offsets in the cell
}

type group struct {
	decl  bool   // evaluated as declarations (file mode)
	src   string // cell-sized source, other units blanked
	units []unit
	names []string // identifiers declared by the group (for completion)
	last  *ast.ExprStmt
}

// Prefixes yaegi puts before a source on line 1.
const (
	stmtWrapper = "package main; func main() {"
	declWrapper = "package main;"
)

// splitUnits cuts code into top-level units with go/scanner.
func splitUnits(code string) ([]unit, error) {
	fset := token.NewFileSet()
	f := fset.AddFile("cell", -1, len(code))
	var errs scanner.ErrorList
	var s scanner.Scanner
	s.Init(f, []byte(code), func(pos token.Position, msg string) { errs.Add(pos, msg) }, 0)
	var (
		units []unit
		toks  []token.Token
		start = -1
		depth int
		end   int
	)
	closeUnit := func() {
		if start >= 0 {
			units = append(units, unit{kind: classify(toks), start: start, end: end})
		}
		start, toks = -1, nil
	}
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			break
		}
		off := f.Offset(pos)
		if tok == token.SEMICOLON && depth == 0 {
			if lit == ";" {
				end = off + 1
			}
			closeUnit()
			continue
		}
		if start < 0 {
			start = off
		}
		toks = append(toks, tok)
		switch tok {
		case token.LPAREN, token.LBRACK, token.LBRACE:
			depth++
		case token.RPAREN, token.RBRACK, token.RBRACE:
			depth--
		}
		if lit != "" {
			end = off + len(lit)
		} else {
			end = off + len(tok.String())
		}
	}
	closeUnit()
	if len(errs) > 0 {
		return units, errs
	}
	return units, nil
}

func classify(toks []token.Token) unitKind {
	switch toks[0] {
	case token.IMPORT:
		return kindImport
	case token.TYPE:
		return kindDecl
	case token.VAR, token.CONST:
		return kindVar
	case token.FUNC:
		if len(toks) > 1 && toks[1] == token.IDENT {
			return kindDecl
		}
		// func (r T) Name(...) is a method; func(...) {...}() a literal.
		depth := 0
		for i := 1; i < len(toks); i++ {
			switch toks[i] {
			case token.LPAREN:
				depth++
			case token.RPAREN:
				depth--
				if depth == 0 {
					return map[bool]unitKind{true: kindDecl, false: kindStmt}[i+2 < len(toks) && toks[i+1] == token.IDENT && (toks[i+2] == token.LPAREN || toks[i+2] == token.LBRACK)]
				}
			}
		}
	}
	return kindStmt
}

// groups orders units into evaluation groups (imports first).
func makeGroups(code string, units []unit) []*group {
	var imports, rest []unit
	for _, u := range units {
		if u.kind == kindImport {
			imports = append(imports, u)
		} else {
			rest = append(rest, u)
		}
	}
	var gs []*group
	if len(imports) > 0 {
		gs = append(gs, &group{decl: true, units: imports})
	}
	var cur *group
	for _, u := range rest {
		decl := u.kind == kindDecl || u.kind == kindVar && (cur == nil || cur.decl)
		if u.kind == kindVar && cur != nil {
			decl = cur.decl
		}
		if cur == nil || cur.decl != decl {
			cur = &group{decl: decl}
			gs = append(gs, cur)
		}
		cur.units = append(cur.units, u)
	}
	for _, g := range gs {
		g.src = blankExcept(code, g.units)
	}
	return gs
}

// blankExcept replaces every byte outside units by a space, keeping newlines.
func blankExcept(code string, units []unit) string {
	b := []byte(code)
	keep := make([]bool, len(b))
	for _, u := range units {
		for i := u.start; i < u.end && i < len(b); i++ {
			keep[i] = true
		}
	}
	for i, c := range b {
		if !keep[i] && c != '\n' {
			b[i] = ' '
		}
	}
	return string(b)
}

// wrapper returns what yaegi puts before the group's source.
func (g *group) wrapper() string {
	if g.decl {
		return declWrapper
	}
	return stmtWrapper
}

// parse checks the group's syntax like yaegi will and records the last
// expression statement and the declared names.
func (g *group) parse(fset *token.FileSet) (*ast.File, error) {
	src := g.wrapper() + g.src
	if !g.decl {
		src += "\n}"
	}
	f, err := parser.ParseFile(fset, "cell", src, parser.DeclarationErrors)
	if err != nil {
		return nil, err
	}
	if g.decl {
		for _, d := range f.Decls {
			g.names = append(g.names, declNames(d)...)
		}
		return f, nil
	}
	body := f.Decls[0].(*ast.FuncDecl).Body.List
	for _, st := range body {
		g.names = append(g.names, stmtNames(st)...)
	}
	if n := len(body); n > 0 {
		if es, ok := body[n-1].(*ast.ExprStmt); ok {
			g.last = es
		}
	}
	return f, nil
}

func declNames(d ast.Decl) []string {
	var out []string
	switch d := d.(type) {
	case *ast.FuncDecl:
		if d.Recv == nil {
			out = append(out, d.Name.Name)
		}
	case *ast.GenDecl:
		for _, s := range d.Specs {
			switch s := s.(type) {
			case *ast.TypeSpec:
				out = append(out, s.Name.Name)
			case *ast.ValueSpec:
				for _, n := range s.Names {
					out = append(out, n.Name)
				}
			case *ast.ImportSpec:
				if s.Name != nil {
					out = append(out, s.Name.Name)
				}
			}
		}
	}
	return out
}

func stmtNames(st ast.Stmt) []string {
	switch st := st.(type) {
	case *ast.AssignStmt:
		if st.Tok == token.DEFINE {
			var out []string
			for _, e := range st.Lhs {
				if id, ok := e.(*ast.Ident); ok && id.Name != "_" {
					out = append(out, id.Name)
				}
			}
			return out
		}
	case *ast.DeclStmt:
		return declNames(st.Decl)
	}
	return nil
}
