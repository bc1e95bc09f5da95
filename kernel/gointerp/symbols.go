package gointerp

import (
	"context"
	"fmt"
	"maps"
	"reflect"
	"time"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"

	"github.com/nsysx/nsysx/kernel"
)

// Import paths of the packages the engine adds.
const (
	ctlPath  = "_nsysx/ctl" // internal: start marker and result display
	ctlName  = "__nsysx"    // the name it is imported under in every interpreter
	CellPath = "nsysx/cell" // for users: context, display and input of the running cell
	selfPath = "github.com/nsysx/nsysx/kernel/gointerp"
)

// symbols returns the packages given to yaegi: the standard library with
// time.Sleep made interruptible, os.Exit disabled and the AfterFuncs
// guarded, the display interfaces, the control package and nsysx/cell.
func (e *Engine) symbols() interp.Exports {
	ex := e.stdlib()
	ex[selfPath+"/gointerp"] = map[string]reflect.Value{
		"MIMEBundler":  reflect.ValueOf((*MIMEBundler)(nil)),
		"HTMLer":       reflect.ValueOf((*HTMLer)(nil)),
		"Markdowner":   reflect.ValueOf((*Markdowner)(nil)),
		"SVGer":        reflect.ValueOf((*SVGer)(nil)),
		"Bundle":       reflect.ValueOf(Bundle),
		"_MIMEBundler": reflect.ValueOf((*_gointerp_MIMEBundler)(nil)),
		"_HTMLer":      reflect.ValueOf((*_gointerp_HTMLer)(nil)),
		"_Markdowner":  reflect.ValueOf((*_gointerp_Markdowner)(nil)),
		"_SVGer":       reflect.ValueOf((*_gointerp_SVGer)(nil)),
	}
	show := reflect.ValueOf(e.show)
	display := reflect.ValueOf(e.display)
	displayID := reflect.ValueOf(e.displayID)
	update := reflect.ValueOf(e.update)
	ex[ctlPath+"/ctl"] = e.ctlSymbols(show)
	ex[CellPath+"/cell"] = e.cellSymbols(display, displayID, update)
	ex["."] = map[string]reflect.Value{"MapTypes": reflect.ValueOf(map[reflect.Value][]reflect.Type{
		show: displayTypes, display: displayTypes, displayID: displayTypes, update: displayTypes,
	})}
	return ex
}

// stdlib returns yaegi's standard library with the engine's replacements.
func (e *Engine) stdlib() interp.Exports {
	ex := interp.Exports{}
	for k, v := range stdlib.Symbols {
		ex[k] = v
	}
	timeAfter, ctxAfter := e.afterFuncs()
	t := maps.Clone(stdlib.Symbols["time/time"])
	t["Sleep"] = reflect.ValueOf(e.sleep)
	t["AfterFunc"] = reflect.ValueOf(timeAfter)
	ex["time/time"] = t
	c := maps.Clone(stdlib.Symbols["context/context"])
	c["AfterFunc"] = reflect.ValueOf(ctxAfter)
	ex["context/context"] = c
	o := maps.Clone(stdlib.Symbols["os/os"])
	o["Exit"] = reflect.ValueOf(func(code int) {
		panic(fmt.Sprintf("os.Exit(%d) called: exiting would kill the kernel (use panic or return)", code))
	})
	ex["os/os"] = o
	return ex
}

// ctlSymbols is the internal control package: the start marker, the line
// marker, result display and capture, and the guarded goroutine starts.
func (e *Engine) ctlSymbols(show reflect.Value) map[string]reflect.Value {
	return map[string]reflect.Value{
		"Started":  reflect.ValueOf(e.started),
		"StartedV": reflect.ValueOf(func() int { e.started(); return 0 }),
		"Show":     show,
		"L": reflect.ValueOf(func(line int) {
			r := e.current()
			e.mu.Lock()
			r.line = line
			e.mu.Unlock()
		}),
		"Capture": reflect.ValueOf(func(vs ...any) {
			r := e.current()
			b := e.bundleOfValues(vs)
			e.mu.Lock()
			r.capture = b
			e.mu.Unlock()
		}),
		"Go": reflect.ValueOf(e.goStmt),
		"Guard": reflect.ValueOf(func(line int, f func()) func() {
			return e.guard(fmt.Sprintf("started at line %d", line), f)
		}),
	}
}

// cellSymbols is nsysx/cell.
func (e *Engine) cellSymbols(display, displayID, update reflect.Value) map[string]reflect.Value {
	return map[string]reflect.Value{
		"Context":   reflect.ValueOf(func() context.Context { return e.current().ctx }),
		"Display":   display,
		"DisplayID": displayID,
		"Update":    update,
		"Clear":     reflect.ValueOf(func(wait bool) { e.outputFailed(e.current().out.Clear(wait)) }),
		"Input": reflect.ValueOf(func(prompt string) (string, error) {
			return e.current().out.Input(prompt, false)
		}),
		"Password": reflect.ValueOf(func(prompt string) (string, error) {
			return e.current().out.Input(prompt, true)
		}),
	}
}

// sleep is time.Sleep for cells: it returns early when the cell is interrupted.
func (e *Engine) sleep(d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-e.current().ctx.Done():
	}
}

func (e *Engine) show(vs ...any) {
	e.outputFailed(e.current().out.Result(e.bundleOfValues(vs), nil))
}

func (e *Engine) display(v any) {
	e.outputFailed(e.current().out.Display(kernel.Display{Data: e.bundle(v)}))
}

func (e *Engine) displayID(id string, v any) {
	e.outputFailed(e.current().out.Display(kernel.Display{Data: e.bundle(v), ID: id}))
}

func (e *Engine) update(id string, v any) {
	e.outputFailed(e.current().out.UpdateDisplay(kernel.Display{Data: e.bundle(v), ID: id}))
}

// outputFailed tells the cell, on its stderr, that one of its outputs
// could not be sent (a value that does not encode as JSON, an update
// without a display ID): the functions of nsysx/cell return nothing.
func (e *Engine) outputFailed(err error) {
	if err != nil {
		fmt.Fprintf(e.current().out.Stderr(), "output not shown: %v\n", err)
	}
}
