//go:build race

package kernel_test

// raceEnabled: the test binary has the race detector (see
// TestInterruptDeadlockAbandoned).
const raceEnabled = true
