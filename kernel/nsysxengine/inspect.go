package nsysxengine

import (
	"strings"

	"github.com/nsysx/nsysx/kernel"
	"github.com/nsysx/nsysx/kernel/gointerp"
	"github.com/nsysx/nsysx/nsysx"
)

// docPackages maps the names cells use for the compiled packages to the
// prefix of their doc keys.
var docPackages = map[string]string{"nsysx": "nsysx", "format": "format", "nb": "nb", "plots": "plots", "compare": "compare", "timeline": "timeline", "advise": "advise"}

// symbolDoc returns the declaration and doc comment of "pkg.Name" or
// "pkg.Type.Method".
func symbolDoc(key string) (string, bool) {
	if d, ok := symbolDocs[key]; ok {
		return d, true
	}
	d, ok := nbDocs[key]
	return d, ok
}

// Inspect implements kernel.Engine: the doc comment of nsysx, format,
// plots and nb symbols and of the methods of cell variables holding their
// types, the help of a report or rule named under the cursor (in a
// string or a %nsys line), else what the Go engine says.
func (e *Engine) Inspect(code string, cursor, detail int) kernel.Inspection {
	in := e.inspectAt(code, cursor, detail)
	if !in.Found { // inside a call's parentheses: the function called
		if at := enclosingCall(code, cursor); at >= 0 {
			return e.inspectAt(code, at, detail)
		}
	}
	return in
}

// enclosingCall returns the position just after the name of the call
// whose parentheses hold the cursor ("nsysx.Open(|" gives the end of
// Open), or -1. Strings, runes and comments are skipped.
func enclosingCall(code string, cursor int) int {
	cursor = max(0, min(cursor, len(code)))
	var open []int
	for i := 0; i < cursor; i++ {
		switch c := code[i]; c {
		case '"', '\'', '`':
			i = skipQuoted(code, i, cursor)
		case '/':
			if i+1 < len(code) && code[i+1] == '/' {
				for i < cursor && code[i] != '\n' {
					i++
				}
			}
		case '(':
			open = append(open, i)
		case ')':
			if len(open) > 0 {
				open = open[:len(open)-1]
			}
		}
	}
	for k := len(open) - 1; k >= 0; k-- {
		if p := open[k]; p > 0 && isIdent(code[p-1]) {
			return p
		}
	}
	return -1
}

// skipQuoted returns the position of the quote closing the literal that
// starts at i (or limit when it is not closed before it).
func skipQuoted(code string, i, limit int) int {
	q := code[i]
	for j := i + 1; j < limit; j++ {
		switch {
		case code[j] == '\\' && q != '`':
			j++
		case code[j] == q:
			return j
		}
	}
	return limit
}

func (e *Engine) inspectAt(code string, cursor, detail int) kernel.Inspection {
	qual, word, _ := gointerp.WordAround(code, cursor)
	if word == "" {
		return e.Engine.Inspect(code, cursor, detail)
	}
	base := e.Engine.Inspect(code, cursor, detail)
	text := ""
	switch {
	case qual != "" && docPackages[qual] != "":
		text, _ = symbolDoc(docPackages[qual] + "." + word)
	case qual != "":
		if v, ok := e.Global(qual); ok {
			text, _ = symbolDoc(typeKey(v) + "." + word)
		}
	default:
		if r, err := nsysx.LookupReport(word); err == nil {
			text = describeReport(r)
		} else if r, err := nsysx.LookupRule(word); err == nil {
			text = describeReport(r)
		} else if v, ok := e.Global(word); ok {
			if d, ok := symbolDoc(typeKey(v)); ok {
				text = plain(base) + "\n\n" + d
			}
		}
	}
	if text == "" {
		return base
	}
	return kernel.Inspection{Found: true, Data: map[string]any{"text/plain": text}}
}

func plain(in kernel.Inspection) string {
	s, _ := in.Data["text/plain"].(string)
	return strings.TrimSpace(s)
}
