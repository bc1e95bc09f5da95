package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

// watchSignals sets up how a command reacts to signals and returns its
// context and the undo. For the commands that read profiles (stats,
// analyze, export, plot, compare, recipe) SIGINT and SIGTERM cancel
// interrupted (exit status 130): the nsys exports they started are
// stopped with their process groups (internal/procgroup) and the partial
// files removed; a second signal kills at once (a later run removes what
// that leaves, atomicfile.RemoveStale). For profile they cancel the run,
// which stops nsys and what it started (capture.Run). The kernel handles
// its own (serveKernel).
func watchSignals(parent context.Context, cmd string) (context.Context, func()) {
	switch cmd {
	case "stats", "analyze", "export", "plot", "compare", "recipe":
		ctx, stop := signal.NotifyContext(parent, os.Interrupt, syscall.SIGTERM)
		interrupted = ctx
		go func() { <-ctx.Done(); stop() }()
		return ctx, func() { stop(); interrupted = context.Background() }
	case "profile":
		return signal.NotifyContext(parent, os.Interrupt, syscall.SIGTERM)
	}
	return parent, func() {}
}
