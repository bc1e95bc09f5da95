package main

import "github.com/nsysx/nsysx/internal/frontend"

// The command line uses the flag grammar of internal/frontend, shared with
// the kernel's %nsys magics.
type (
	flagDef    = frontend.Flag
	parsed     = frontend.Parsed
	usageError = frontend.UsageError
)

func usageErr(f string, a ...any) error { return frontend.Usagef(f, a...) }

// parseArgs parses args against defs (see frontend.Parse).
func parseArgs(cmd string, args []string, defs []flagDef, optionalOK func(string) bool) (*parsed, error) {
	return frontend.Parse(args, defs, optionalOK)
}

// outputFileArg is the --output of a command that writes one file, checked
// before any work (frontend.CheckOutputFile): an existing file needs
// --force-overwrite and is never one of the command's inputs.
func outputFileArg(p *parsed) (string, error) {
	out := p.Last("--output")
	return out, p.CheckOutput(out)
}
