package nsysxengine

import (
	"context"
	"fmt"
	"sync"

	"github.com/nsysx/nsysx/internal/frontend"
	"github.com/nsysx/nsysx/kernel"
)

// The magics parse their words with the nsysx command's flag grammar.
type (
	flagDef    = frontend.Flag
	parsedArgs = frontend.Parsed
)

func usageErr(f string, a ...any) error { return kernel.Errorf("UsageError", f, a...) }

// parseFlags parses args against defs; optionalOK says whether the word
// after a flag with an optional value is that value.
func parseFlags(args []string, defs []flagDef, optionalOK func(string) bool) (*parsedArgs, error) {
	p, err := frontend.Parse(args, defs, optionalOK)
	if err != nil {
		return nil, usageErr("%v", err)
	}
	return p, nil
}

// parseMagic parses a magic's arguments like parseFlags; with --help it
// prints usage, a blank line and the flags' help instead. A nil result
// means the magic is done: --help was answered, or the error says why not.
func parseMagic(args []string, defs []flagDef, usage string, out kernel.Output) (*parsedArgs, error) {
	p, err := parseFlags(args, defs, nil)
	if err != nil {
		return nil, err
	}
	if p.Has("--help") {
		fmt.Fprintf(out.Stdout(), "%s\n\n%s", usage, frontend.Help(defs))
		return nil, nil
	}
	return p, nil
}

func flagNames(defs []flagDef) []string { return frontend.Names(defs) }

// interruptible runs f on its own goroutine and returns its results, or
// ctx's error as soon as ctx is cancelled (f then finishes in the
// background and its results are dropped). f's library calls take ctx too,
// so the background work stops soon after.
// wg counts the goroutine until f returns, so that Close does not close
// profiles a background report still reads.
func interruptible[T any](ctx context.Context, wg *sync.WaitGroup, f func() (T, error)) (T, error) {
	type res struct {
		v   T
		err error
	}
	done := make(chan res, 1)
	wg.Add(1)
	go func() {
		defer wg.Done()
		var r res
		defer func() {
			if p := recover(); p != nil {
				r.err = fmt.Errorf("panic: %v", p)
			}
			done <- r
		}()
		r.v, r.err = f()
	}()
	select {
	case r := <-done:
		return r.v, r.err
	case <-ctx.Done():
		var zero T
		return zero, ctx.Err()
	}
}
