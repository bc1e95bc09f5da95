package main

import (
	"os"
	"runtime"
	"runtime/debug"
	"sync"
)

// A `stats` or `analyze` run starts with the collector off, until the
// runtime holds deferGCBytes (a soft memory limit forces the first
// collection there), and then collects as Go does by default. Most runs on
// one profile hold a few MB of heap and end in tens of milliseconds: with
// Go's 4 MB first target the collector started anyway, and its workers and
// sweeping (page faults on fresh runtime memory, each flushing the TLB of
// every core the process runs on) cost 2-5 ms of a 15-30 ms run, about as
// much as the report (docs/performance.md, "The collector of a short run").
// Peak RSS does not change for those runs; a big report collects once at
// deferGCBytes and then as before. GOGC or GOMEMLIMIT set by the user win.

const deferGCBytes = 16 << 20

var gcDefer struct {
	sync.Mutex
	on      bool
	percent int   // to restore
	limit   int64 // to restore
}

// gcSentinel is an object nothing refers to: its cleanup runs after the
// first collection, which ends the deferral. (Large enough not to come
// from the tiny allocator, whose objects may never be cleaned up.)
type gcSentinel struct {
	_ *int
	_ [56]byte
}

// deferGC turns the collector off until the first collection, which the
// memory limit forces at deferGCBytes.
func deferGC() {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	gcDefer.Lock()
	defer gcDefer.Unlock()
	if gcDefer.on {
		return
	}
	gcDefer.limit = debug.SetMemoryLimit(deferGCBytes)
	gcDefer.percent = debug.SetGCPercent(-1)
	gcDefer.on = true
	runtime.AddCleanup(new(gcSentinel), func(struct{}) { endDeferGC() }, struct{}{})
}

// endDeferGC gives the collector back the settings deferGC found, once:
// after the first collection, or before anything else sets them (lowGC).
func endDeferGC() {
	gcDefer.Lock()
	defer gcDefer.Unlock()
	if !gcDefer.on {
		return
	}
	gcDefer.on = false
	debug.SetGCPercent(gcDefer.percent)
	debug.SetMemoryLimit(gcDefer.limit)
}
