package model

import (
	"context"
	"runtime"
)

type coresKey struct{}

// WithCores returns a context under which a Profile's table loads and
// ScanParts may use up to n goroutines each (at most GOMAXPROCS). Without
// it they use one, or NSYSX_LOAD_PARTS for loads.
func WithCores(ctx context.Context, n int) context.Context {
	return context.WithValue(ctx, coresKey{}, n)
}

// Cores is the number of goroutines ctx lets a load or scan use: at least
// def, at most GOMAXPROCS.
func Cores(ctx context.Context, def int) int {
	n, _ := ctx.Value(coresKey{}).(int)
	return max(1, min(runtime.GOMAXPROCS(0), max(n, def)))
}

// CoresGiven is the n of WithCores under ctx; ok is false without it.
func CoresGiven(ctx context.Context) (n int, ok bool) {
	n, ok = ctx.Value(coresKey{}).(int)
	return n, ok
}
