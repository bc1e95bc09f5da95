//go:build !race

package engineproc_test

const raceEnabled = false
