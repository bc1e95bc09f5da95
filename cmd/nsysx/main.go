// Command nsysx analyses Nsight Systems profiles: `nsysx stats` and `nsysx
// analyze` print the same reports and rules as `nsys stats` / `nsys analyze`
// (byte for byte, as of Nsight Systems 2025.3.1), `nsysx export` writes raw
// tables as Parquet or Arrow or the timeline as a Perfetto trace, `nsysx
// recipe` runs nsys's multi-report recipes (`nsys recipe`), `nsysx compare`
// compares two profiles, `nsysx profile` records one with the installed nsys,
// and `nsysx kernel` runs the Jupyter kernel.
//
// Exit status: 0 on success (a SKIPPED report is a success, as in nsys); 1 when
// an input cannot be read or a report fails; 2 for a usage error (unknown
// command, flag, report, rule or format, or a bad option value).
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/pprof"

	"github.com/nsysx/nsysx/internal/atomicfile"
	"github.com/nsysx/nsysx/nsysx"
)

// Version is nsysx's version; NsysVersion the Nsight Systems whose output we match.
const (
	Version     = "0.1.0"
	NsysVersion = "2025.3.1"
)

func main() {
	if len(os.Args) > 1 && (os.Args[1] == "stats" || os.Args[1] == "analyze") {
		deferGC()
	}
	// NSYSX_CPUPROFILE=file writes a CPU profile of the run (for developers).
	var cpu *os.File
	if f := os.Getenv("NSYSX_CPUPROFILE"); f != "" {
		if out, err := os.Create(f); err == nil && pprof.StartCPUProfile(out) == nil {
			cpu = out
		}
	}
	code := run(os.Args[1:], os.Stdout, os.Stderr)
	if cpu != nil {
		pprof.StopCPUProfile()
		cpu.Close()
	}
	// NSYSX_MEMPROFILE=file writes a heap profile (allocations over the
	// whole run, and what is live at its end) when the run ends; with
	// NSYSX_CPUPROFILE too, both are written.
	if f := os.Getenv("NSYSX_MEMPROFILE"); f != "" {
		if out, err := os.Create(f); err == nil {
			pprof.Lookup("allocs").WriteTo(out, 0)
			out.Close()
		}
	}
	os.Exit(code)
}

type command struct {
	name string
	help string
	run  func(ctx context.Context, args []string, stdout, stderr io.Writer) int
}

func commands() []command {
	return []command{
		{"stats", "print nsys stats reports for profiles", runStats},
		{"analyze", "run nsys analyze rules (expert-system advice) on profiles", runAnalyze},
		{"recipe", "run nsys recipes (multi-report statistics, Parquet outputs) over many profiles", runRecipe},
		{"export", "write a profile's raw tables as Parquet or Arrow files", runExport},
		{"profile", "record a profile with the installed nsys, then export and open it", runProfile},
		{"advise", "what to fix first: findings ranked by the time at stake, with evidence and fixes", runAdvise},
		{"critical-path", "which work sets each iteration's time: the dependency graph replayed, its critical path, and what-if predictions", runCriticalPath},
		{"compare", "compare two profiles: per kernel, NVTX range and API, the change with a confidence interval and a verdict", runCompare},
		{"plot", "draw charts (PNG, SVG, Vega-Lite JSON) from profiles", runPlot},
		{"kernel", "run or install the nsysx Jupyter kernel", runKernel},
		{"version", "print the version", func(context.Context, []string, io.Writer, io.Writer) int { return 0 }},
	}
}

// run runs a command line. It is the entry point of main and of the tests,
// so the one place that starts from context.Background(): commands pass
// this context down to the library.
func run(args []string, stdout, stderr io.Writer) int {
	ctx := context.Background()
	if len(args) == 0 {
		usage(stderr)
		return 2
	}
	switch args[0] {
	case "--version", "-v", "version":
		fmt.Fprintf(stdout, "nsysx %s (reports and rules match Nsight Systems %s)\n", Version, NsysVersion)
		return 0
	case "-h", "--help", "help":
		usage(stdout)
		return 0
	}
	for _, c := range commands() {
		if c.name == args[0] {
			ctx, stop := watchSignals(ctx, c.name)
			defer stop()
			return c.run(ctx, args[1:], stdout, stderr)
		}
	}
	var names []string
	for _, c := range commands() {
		names = append(names, c.name)
	}
	fmt.Fprintf(stderr, "nsysx: unknown command %q%s; run nsysx --help\n", args[0], nsysx.Suggest(args[0], names))
	return 2
}

func usage(w io.Writer) {
	fmt.Fprintf(w, "nsysx %s: Nsight Systems profile analysis (reports match nsys %s)\n\nUsage: nsysx COMMAND [flags] FILE...\n\nCommands:\n", Version, NsysVersion)
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-9s %s\n", c.name, c.help)
	}
	fmt.Fprintln(w, "\nRun `nsysx COMMAND --help` for a command's flags. `nsysx stats --sample` runs on a profile built into the binary.")
}

// fail prints a one-line error and returns the exit status for it.
func fail(stderr io.Writer, cmd string, err error) int {
	code := exitCode(err)
	if code == 130 {
		err = errors.New("interrupted")
	}
	fmt.Fprintf(stderr, "nsysx %s: %v\n", cmd, err)
	return code
}

// exitCode is the exit status for err: 2 for a usage error or an output
// that may not be written over, 130 after SIGINT or SIGTERM, else 1.
func exitCode(err error) int {
	if interrupted.Err() != nil && errors.Is(err, context.Canceled) {
		return 130
	}
	var ue *usageError
	if errors.As(err, &ue) || errors.Is(err, nsysx.ErrBadOption) || isUnknown(err) || errors.Is(err, atomicfile.ErrExists) {
		return 2
	}
	return 1
}

func isUnknown(err error) bool {
	var u *unknownName
	return errors.As(err, &u)
}

type unknownName struct{ err error }

func (u *unknownName) Error() string { return u.err.Error() }
func (u *unknownName) Unwrap() error { return u.err }
