package capture

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"
)

// Plan is a parsed `profile` command line.
type Plan struct {
	Flags   []string // nsys profile flags as given (with -o added when absent)
	Command []string // the program to profile and its arguments
	Report  string   // the .nsys-rep nsys will write
}

// Parse splits `[nsys profile flags] -- COMMAND...`. Without `--`, every
// argument is the command when none starts with '-'. The report path comes
// from -o/--output (nsys adds .nsys-rep), or is
// nsysx-profile-YYYYMMDD-HHMMSS.nsys-rep in dir.
func Parse(args []string, dir string, now time.Time) (*Plan, error) {
	flags, cmd := splitCommand(args)
	if cmd == nil {
		return nil, fmt.Errorf("no command to profile: use [nsys profile flags] -- COMMAND [ARGS...]")
	}
	p := &Plan{Flags: append([]string(nil), flags...), Command: cmd}
	out, ok, err := outputFlag(flags)
	if err != nil {
		return nil, err
	}
	if !ok {
		out = filepath.Join(dir, "nsysx-profile-"+now.Format("20060102-150405"))
		p.Flags = append(p.Flags, "-o", out)
	}
	if strings.Contains(out, "%") {
		return nil, fmt.Errorf("-o %s: nsysx needs a plain output name to open the report (no %% substitutions)", out)
	}
	if !strings.HasSuffix(out, ".nsys-rep") {
		out += ".nsys-rep"
	}
	p.Report = out
	return p, nil
}

func splitCommand(args []string) (flags, cmd []string) {
	for i, a := range args {
		if a == "--" {
			if i+1 == len(args) {
				return args[:i], nil
			}
			return args[:i], args[i+1:]
		}
	}
	for _, a := range args {
		if strings.HasPrefix(a, "-") {
			return args, nil
		}
	}
	if len(args) == 0 {
		return nil, nil
	}
	return nil, args
}

// outputFlag finds -o/--output among nsys profile flags.
func outputFlag(flags []string) (string, bool, error) {
	for i, f := range flags {
		switch {
		case f == "-o" || f == "--output":
			if i+1 >= len(flags) {
				return "", false, fmt.Errorf("%s needs a value", f)
			}
			return flags[i+1], true, nil
		case strings.HasPrefix(f, "--output="):
			return strings.TrimPrefix(f, "--output="), true, nil
		}
	}
	return "", false, nil
}
