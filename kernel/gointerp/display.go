package gointerp

import (
	"fmt"
	"reflect"
	"strings"
)

// Values implementing these interfaces choose how a cell result is shown.
// They work for Go types compiled into the kernel and for types declared
// in cells.
type (
	// MIMEBundler returns a full MIME bundle.
	MIMEBundler interface{ MIMEBundle() map[string]any }
	// HTMLer returns HTML (text/html).
	HTMLer interface{ HTML() string }
	// Markdowner returns Markdown (text/markdown).
	Markdowner interface{ Markdown() string }
	// SVGer returns an SVG image (image/svg+xml).
	SVGer interface{ SVG() string }
)

// Wrappers that let yaegi pass interpreted values implementing the
// interfaces above to compiled code (see yaegi's extract tool).
type (
	_gointerp_MIMEBundler struct {
		IValue      any
		WMIMEBundle func() map[string]any
	}
	_gointerp_HTMLer struct {
		IValue any
		WHTML  func() string
	}
	_gointerp_Markdowner struct {
		IValue    any
		WMarkdown func() string
	}
	_gointerp_SVGer struct {
		IValue any
		WSVG   func() string
	}
)

func (w _gointerp_MIMEBundler) MIMEBundle() map[string]any { return w.WMIMEBundle() }
func (w _gointerp_HTMLer) HTML() string                    { return w.WHTML() }
func (w _gointerp_Markdowner) Markdown() string            { return w.WMarkdown() }
func (w _gointerp_SVGer) SVG() string                      { return w.WSVG() }

// displayTypes are the interfaces yaegi should wrap interpreted values
// into when they are passed to the display functions, most specific first.
var displayTypes = []reflect.Type{
	reflect.TypeOf((*MIMEBundler)(nil)).Elem(),
	reflect.TypeOf((*HTMLer)(nil)).Elem(),
	reflect.TypeOf((*Markdowner)(nil)).Elem(),
	reflect.TypeOf((*SVGer)(nil)).Elem(),
	reflect.TypeOf((*fmt.Stringer)(nil)).Elem(),
	reflect.TypeOf((*error)(nil)).Elem(),
}

// Bundle returns the MIME bundle showing v: the bundle of a MIMEBundler,
// HTML, Markdown or SVG with a text/plain fallback, or text/plain
// formatted with %v.
func Bundle(v any) (b map[string]any) {
	defer func() {
		if p := recover(); p != nil { // a method panicked (nil receiver...)
			b = map[string]any{"text/plain": fmt.Sprintf("%v (display failed: %v)", plainValue(v), p)}
		}
	}()
	switch x := v.(type) {
	case MIMEBundler:
		b = map[string]any{}
		for k, d := range x.MIMEBundle() {
			b[k] = d
		}
		if _, ok := b["text/plain"]; !ok {
			b["text/plain"] = fmt.Sprintf("%v", plainValue(v))
		}
		return b
	case HTMLer:
		return map[string]any{"text/html": x.HTML(), "text/plain": fmt.Sprintf("%v", plainValue(v))}
	case Markdowner:
		md := x.Markdown()
		return map[string]any{"text/markdown": md, "text/plain": md}
	case SVGer:
		return map[string]any{"image/svg+xml": x.SVG(), "text/plain": fmt.Sprintf("%v", plainValue(v))}
	}
	return map[string]any{"text/plain": fmt.Sprintf("%v", v)}
}

// plainValue unwraps the yaegi wrappers for %v.
func plainValue(v any) any {
	switch w := v.(type) {
	case _gointerp_MIMEBundler:
		return w.IValue
	case _gointerp_HTMLer:
		return w.IValue
	case _gointerp_Markdowner:
		return w.IValue
	case _gointerp_SVGer:
		return w.IValue
	}
	return v
}

// A Displayer returns the MIME bundle showing v, or nil to leave v to the
// next displayer and finally to Bundle. Engines embedding this one use
// displayers for compiled types they cannot give a MIMEBundle method.
type Displayer func(v any) map[string]any

// AddDisplayer makes the engine try d before its other displayers and
// Bundle when showing a value (results, cell.Display, cell.Update).
func (e *Engine) AddDisplayer(d Displayer) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.displayers = append([]Displayer{d}, e.displayers...)
}

// bundle shows one value through the displayers, then Bundle.
func (e *Engine) bundle(v any) map[string]any {
	e.mu.Lock()
	ds := e.displayers
	e.mu.Unlock()
	for _, d := range ds {
		if b := safeDisplay(d, v); b != nil {
			return b
		}
	}
	return Bundle(v)
}

func safeDisplay(d Displayer, v any) (b map[string]any) {
	defer func() {
		if p := recover(); p != nil {
			b = nil
		}
	}()
	return d(v)
}

// bundleOfValues shows the results of the last expression of a cell. A
// call returning (values..., error) shows its values when the error is nil
// and the error otherwise; other calls with several results show them
// separated by spaces.
func (e *Engine) bundleOfValues(vs []any) map[string]any {
	if n := len(vs); n >= 2 {
		if err, ok := vs[n-1].(error); ok && err != nil {
			return map[string]any{"text/plain": "error: " + err.Error()}
		} else if vs[n-1] == nil {
			vs = vs[:n-1]
		}
	}
	if len(vs) == 1 {
		return e.bundle(vs[0])
	}
	parts := make([]string, len(vs))
	for i, v := range vs {
		parts[i] = fmt.Sprintf("%v", plainValue(v))
	}
	return map[string]any{"text/plain": strings.Join(parts, " ")}
}
