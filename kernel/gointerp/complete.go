package gointerp

import (
	"fmt"
	"go/scanner"
	"go/token"
	"reflect"
	"sort"
	"strings"

	"github.com/nsysx/nsysx/kernel/gointerp/third_party/stdsyms"

	"github.com/nsysx/nsysx/kernel"
)

var keywords = []string{
	"break", "case", "chan", "const", "continue", "default", "defer", "else", "fallthrough", "for", "func",
	"go", "goto", "if", "import", "interface", "map", "package", "range", "return", "select", "struct",
	"switch", "type", "var",
}

var builtins = []string{
	"any", "append", "bool", "byte", "cap", "close", "comparable", "complex", "complex128", "complex64", "copy", "delete",
	"error", "false", "float32", "float64", "imag", "int", "int16", "int32", "int64", "int8", "iota",
	"len", "make", "new", "nil", "panic", "print", "println", "real", "recover", "rune", "string",
	"true", "uint", "uint16", "uint32", "uint64", "uint8", "uintptr",
}

// wordAt returns the identifier prefix ending at cursor and, when it
// follows "x.", the identifier x.
func wordAt(code string, cursor int) (qual, word string, start int) {
	cursor = max(0, min(cursor, len(code)))
	start = cursor
	for start > 0 && isIdentByte(code[start-1]) {
		start--
	}
	word = code[start:cursor]
	if start > 0 && code[start-1] == '.' {
		q := start - 1
		for q > 0 && isIdentByte(code[q-1]) {
			q--
		}
		qual = code[q : start-1]
	}
	return qual, word, start
}

// WordAround returns the identifier around the cursor (the part after it
// included), the identifier x when it follows "x.", and its start.
func WordAround(code string, cursor int) (qual, word string, start int) {
	end := max(0, min(cursor, len(code)))
	for end < len(code) && isIdentByte(code[end]) {
		end++
	}
	return wordAt(code, end)
}

func isIdentByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// packageSymbols returns the exported symbols of the package imported (or
// importable) under name.
func (e *Engine) packageSymbols(name string) (string, map[string]reflect.Value) {
	e.mu.Lock()
	defer e.mu.Unlock()
	path, ok := e.imports[name]
	if !ok {
		path = name // not imported yet: a standard package by its path, e.g. "strings"
	}
	key := path + "/" + path[strings.LastIndexByte(path, '/')+1:]
	if syms, ok := e.used[key]; ok {
		return path, syms
	}
	return path, stdsyms.Load()[key]
}

// Global returns the value of a variable, constant or function declared
// by a cell; it fails while a cell runs.
func (e *Engine) Global(name string) (reflect.Value, bool) { return e.global(name) }

// members lists the exported methods and fields of v's type (methods of
// both T and *T for addressable values).
func members(v reflect.Value) []string {
	var out []string
	t := v.Type()
	if t.Kind() == reflect.Interface && !v.IsNil() {
		v = v.Elem()
		t = v.Type()
	}
	for i := 0; i < t.NumMethod(); i++ {
		out = append(out, t.Method(i).Name)
	}
	if t.Kind() != reflect.Pointer && t.Kind() != reflect.Interface {
		pt := reflect.PointerTo(t)
		for i := 0; i < pt.NumMethod(); i++ {
			out = append(out, pt.Method(i).Name)
		}
	}
	st := t
	if st.Kind() == reflect.Pointer {
		st = st.Elem()
	}
	if st.Kind() == reflect.Struct {
		for i := 0; i < st.NumField(); i++ {
			if f := st.Field(i); f.IsExported() {
				out = append(out, f.Name)
			}
		}
	}
	return out
}

// Complete implements kernel.Engine: package members after "pkg.", else
// keywords, builtins, imported packages and the names cells declared.
func (e *Engine) Complete(code string, cursor int) kernel.Completion {
	qual, word, start := wordAt(code, cursor)
	var cands []string
	if qual != "" {
		_, syms := e.packageSymbols(qual)
		for n := range syms {
			if !strings.HasPrefix(n, "_") {
				cands = append(cands, n)
			}
		}
		if len(syms) == 0 {
			if v, ok := e.global(qual); ok {
				cands = members(v)
			}
		}
	} else {
		cands = append(append(cands, keywords...), builtins...)
		e.mu.Lock()
		for n := range e.imports {
			cands = append(cands, n)
		}
		for n := range e.names {
			cands = append(cands, n)
		}
		e.mu.Unlock()
		for k := range stdsyms.Load() { // standard packages, to help write imports
			i := strings.LastIndexByte(k, '/')
			if i > 0 && !strings.Contains(k[:i], "/") {
				p := k[:i]
				cands = append(cands, p)
			}
		}
	}
	seen := map[string]bool{}
	var matches []string
	for _, c := range cands {
		if strings.HasPrefix(c, word) && !seen[c] && c != ctlName {
			seen[c] = true
			matches = append(matches, c)
		}
	}
	sort.Strings(matches)
	return kernel.Completion{Matches: matches, Start: start, End: cursor}
}

// Inspect implements kernel.Engine: the type of a package member or of a
// variable declared by a cell.
func (e *Engine) Inspect(code string, cursor, detail int) kernel.Inspection {
	qual, word, _ := WordAround(code, cursor)
	if word == "" {
		return kernel.Inspection{}
	}
	var text string
	if qual != "" {
		path, syms := e.packageSymbols(qual)
		v, ok := syms[word]
		switch {
		case ok:
			text = describe(path+"."+word, v)
		case len(syms) == 0:
			text, ok = e.describeMember(qual, word)
		}
		if !ok {
			return kernel.Inspection{}
		}
	} else if v, ok := e.global(word); ok {
		text = fmt.Sprintf("%s %s = %v", word, v.Type(), valueString(v))
	} else {
		return kernel.Inspection{}
	}
	return kernel.Inspection{Found: true, Data: map[string]any{"text/plain": text}}
}

// describeMember describes method or field word of the cell variable qual.
func (e *Engine) describeMember(qual, word string) (string, bool) {
	v, ok := e.global(qual)
	if !ok {
		return "", false
	}
	if v.Kind() == reflect.Interface && !v.IsNil() {
		v = v.Elem()
	}
	t := v.Type()
	for _, rt := range []reflect.Type{t, reflect.PointerTo(t)} {
		if m, ok := rt.MethodByName(word); ok {
			return "func (" + rt.String() + ") " + word + methodSig(rt, m.Func.Type()), true
		}
	}
	st := t
	if st.Kind() == reflect.Pointer {
		st = st.Elem()
	}
	if st.Kind() == reflect.Struct {
		if f, ok := st.FieldByName(word); ok && f.IsExported() {
			return fmt.Sprintf("field %s.%s %s", st, word, f.Type), true
		}
	}
	return "", false
}

// methodSig is the signature of a method without its receiver, e.g.
// "(string) (*nsysx.Result, error)".
func methodSig(recv, f reflect.Type) string {
	s := strings.TrimPrefix(f.String(), "func("+recv.String())
	if strings.HasPrefix(s, ", ") {
		return "(" + s[2:]
	}
	return "(" + s
}

func describe(name string, v reflect.Value) string {
	if !v.IsValid() {
		return name
	}
	t := v.Type()
	switch {
	case t.Kind() == reflect.Func:
		return "func " + name + strings.TrimPrefix(t.String(), "func")
	case t.Kind() == reflect.Ptr && v.IsNil(): // a type is exported as (*T)(nil)
		return "type " + name + " " + t.Elem().Kind().String()
	default:
		return fmt.Sprintf("%s %s", name, t)
	}
}

func valueString(v reflect.Value) string {
	if !v.CanInterface() {
		return v.String()
	}
	s := fmt.Sprintf("%v", v.Interface())
	if len(s) > 200 {
		s = s[:200] + "..."
	}
	return s
}

// global reads a cell variable or constant, unless a cell is running.
func (e *Engine) global(name string) (reflect.Value, bool) {
	release, ok := e.tryAcquire()
	if !ok {
		return reflect.Value{}, false
	}
	defer release()
	v, ok := e.interp.Globals()[name]
	return v, ok && v.IsValid()
}

// IsComplete implements kernel.Engine: "incomplete" for unbalanced
// brackets, unterminated raw strings or comments and a trailing operator;
// "invalid" for other syntax errors; else "complete".
func (e *Engine) IsComplete(code string) (string, string) {
	if strings.TrimSpace(code) == "" {
		return "complete", ""
	}
	fset := token.NewFileSet()
	f := fset.AddFile("cell", -1, len(code))
	var scanErr string
	var s scanner.Scanner
	s.Init(f, []byte(code), func(_ token.Position, msg string) {
		if scanErr == "" {
			scanErr = msg
		}
	}, 0)
	depth, last := 0, token.ILLEGAL
	for {
		_, tok, lit := s.Scan()
		if tok == token.EOF {
			break
		}
		switch tok {
		case token.LPAREN, token.LBRACK, token.LBRACE:
			depth++
		case token.RPAREN, token.RBRACK, token.RBRACE:
			depth--
		}
		if depth < 0 {
			return "invalid", ""
		}
		if !(tok == token.SEMICOLON && lit == "\n") {
			last = tok
		}
	}
	switch {
	case strings.Contains(scanErr, "not terminated"):
		return "incomplete", ""
	case scanErr != "":
		return "invalid", ""
	case depth > 0:
		return "incomplete", strings.Repeat("\t", depth)
	case continues(last):
		return "incomplete", ""
	}
	units, err := splitUnits(code)
	if err != nil {
		return "invalid", ""
	}
	for _, g := range makeGroups(code, units) {
		if _, err := g.parse(token.NewFileSet()); err != nil {
			return "invalid", ""
		}
	}
	return "complete", ""
}

// continues reports tokens after which a statement cannot end.
func continues(t token.Token) bool {
	if t.IsOperator() {
		switch t {
		case token.RPAREN, token.RBRACK, token.RBRACE, token.INC, token.DEC, token.SEMICOLON:
			return false
		}
		return true
	}
	return t == token.FUNC || t == token.IMPORT || t == token.VAR || t == token.CONST || t == token.TYPE
}
