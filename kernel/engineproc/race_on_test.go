//go:build race

package engineproc_test

const raceEnabled = true
