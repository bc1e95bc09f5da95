package main

import (
	"math"
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

// gcSettings reads the collector's percent and memory limit without
// changing them.
func gcSettings() (percent int, limit int64) {
	percent = debug.SetGCPercent(-1)
	debug.SetGCPercent(percent)
	return percent, debug.SetMemoryLimit(-1)
}

// startDeferGC calls deferGC from Go's default settings (no GOGC or
// GOMEMLIMIT: they turn it off), which the test's end restores.
func startDeferGC(t *testing.T) {
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	p, l := debug.SetGCPercent(100), debug.SetMemoryLimit(math.MaxInt64)
	t.Cleanup(func() { endDeferGC(); debug.SetGCPercent(p); debug.SetMemoryLimit(l) })
	deferGC()
}

// TestDeferGC: deferGC turns the collector off under a soft limit of
// deferGCBytes; the first collection gives back the settings it found.
func TestDeferGC(t *testing.T) {
	startDeferGC(t)
	if p, l := gcSettings(); p != -1 || l != deferGCBytes {
		t.Fatalf("deferred: percent %d, limit %d; want -1, %d", p, l, deferGCBytes)
	}
	runtime.GC()
	for end := time.Now().Add(5 * time.Second); time.Now().Before(end); time.Sleep(time.Millisecond) {
		if p, l := gcSettings(); p == 100 && l == math.MaxInt64 {
			return
		}
		runtime.GC()
	}
	p, l := gcSettings()
	t.Fatalf("after a collection: percent %d, limit %d; want 100 and no limit", p, l)
}

// TestLowGCEndsDeferral: lowGC during the deferral ends it first, so that
// its restore gives back Go's settings, not the deferral's.
func TestLowGCEndsDeferral(t *testing.T) {
	startDeferGC(t)
	restore := lowGC(50)
	if p, l := gcSettings(); p != 50 || l != math.MaxInt64 {
		t.Errorf("lowGC(50) while deferred: percent %d, limit %d; want 50 and no limit", p, l)
	}
	restore()
	if p, _ := gcSettings(); p != 100 {
		t.Errorf("after restore: percent %d, want 100", p)
	}
}
