//go:build race

package gointerp

// raceEnabled: the test binary has the race detector (see
// TestGoroutinePanicAfterItsCell).
const raceEnabled = true
