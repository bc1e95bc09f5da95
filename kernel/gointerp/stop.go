package gointerp

import (
	_ "unsafe" // for go:linkname

	"github.com/traefik/yaegi/interp"
)

// interpStop is yaegi's own cancellation: it bumps the run id checked
// before every interpreted step and closes the channel that interpreted
// channel operations select on. EvalWithContext calls it when its context
// is done but returns without waiting for the evaluating goroutine; the
// engine instead calls it itself and waits for that goroutine, so that the
// next cell never runs concurrently with the end of an interrupted one.
// It is linked by name because v0.16.1 does not export it; the module
// version is pinned in go.mod.
//
//go:linkname interpStop github.com/traefik/yaegi/interp.(*Interpreter).stop
func interpStop(i *interp.Interpreter)
