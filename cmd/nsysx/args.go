package main

import "github.com/nsysx/nsysx/internal/cliflags"

// The command line uses the flag grammar of internal/cliflags, shared with
// the kernel's %nsys magics.
type (
	flagDef    = cliflags.Flag
	parsed     = cliflags.Parsed
	usageError = cliflags.UsageError
)

func usageErr(f string, a ...any) error { return cliflags.Usagef(f, a...) }

// parseArgs parses args against defs (see cliflags.Parse).
func parseArgs(cmd string, args []string, defs []flagDef, optionalOK func(string) bool) (*parsed, error) {
	return cliflags.Parse(args, defs, optionalOK)
}
