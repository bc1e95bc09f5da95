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
// before any work: see checkOutputFile.
func outputFileArg(p *parsed, inputs []string) (string, error) {
	out := p.Last("--output")
	return out, checkOutputFile(p, out, inputs)
}

// checkOutputFile says whether the command may write the file name
// (frontend.CheckOutputFile): an existing file needs --force-overwrite and
// is never one of inputs.
func checkOutputFile(p *parsed, name string, inputs []string) error {
	force, err := p.Bool("--force-overwrite")
	if err != nil {
		return err
	}
	return frontend.CheckOutputFile(name, force, inputs)
}
