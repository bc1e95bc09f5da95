// Command nsysx-beam runs nsysx's recipes as Apache Beam pipelines:
//
//	nsysx-beam recipe NAME [nsysx recipe's options] [Beam pipeline flags]
//
// It takes exactly `nsysx recipe`'s arguments (every recipe, diff
// included) and writes the same output directory; Beam's own flags
// (--runner, --endpoint, --environment_type, --worker_binary, Dataflow's
// --project/--region/--temp_location, ...) may be mixed in. Without
// --runner the pipeline runs on Prism inside this process. Inputs and
// --output may be local paths or paths of a Beam filesystem (gs://, s3://).
// See README.md, "Submitting to Flink, Spark or Dataflow".
//
// The same binary is the pipeline's worker: the SDK harness starts it with
// Beam's worker flags and no "recipe" word.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/log"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/options/jobopts"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners"

	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/gcs"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/memfs"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/s3"

	"github.com/nsysx/nsysx/beam/beamrecipe"
	"github.com/nsysx/nsysx/internal/frontend"
	"github.com/nsysx/nsysx/nsysx"
	"github.com/nsysx/nsysx/nsysx/recipe"
	_ "github.com/nsysx/nsysx/nsysx/recipe/all" // registers the recipes
)

// nsysVersion is the Nsight Systems whose recipes nsysx reproduces.
const nsysVersion = "2025.3.1"

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

const usage = `Usage: nsysx-beam recipe [--help-recipes] NAME [options] [Beam pipeline flags]

Runs an nsys recipe (as nsysx recipe does) as an Apache Beam pipeline: on Prism
inside this process by default, or on Flink, Spark, Dataflow or any portable
job server with --runner flink|spark|dataflow|universal --endpoint HOST:PORT
--environment_type DOCKER|PROCESS|LOOPBACK. Run nsysx-beam recipe NAME --help
for a recipe's options; see README.md, "Recipes on Apache Beam".
`

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] != "recipe" {
		if len(args) > 0 && strings.HasPrefix(args[0], "-") && !isHelp(args[0]) {
			// Started by the Beam SDK harness as a worker.
			flag.CommandLine.Parse(args)
			initBeam()
			fmt.Fprint(stderr, "nsysx-beam: not started as a Beam worker\n"+usage)
			return 2
		}
		if len(args) > 0 && isHelp(args[0]) {
			fmt.Fprint(stdout, usage)
			return 0
		}
		fmt.Fprint(stderr, usage)
		return 2
	}
	return runRecipe(args[1:], stdout, stderr)
}

func isHelp(a string) bool { return a == "-h" || a == "--help" || a == "-help" }

// initBeam sets Beam's log level (it must be set before beam.Init: Prism
// logs every job step at info) and initializes the SDK.
func initBeam() {
	if v := os.Getenv("NSYSX_BEAM_LOG_LEVEL"); v != "" {
		log.LogLevel = v
	} else {
		log.LogLevel = "warn"
	}
	beam.Init()
}

func runRecipe(args []string, stdout, stderr io.Writer) int {
	var bargs []string
	r, o, err := frontend.ParseRecipe("nsysx-beam recipe", args, stdout, fmt.Sprintf("%s\nRecipes of Nsight Systems %s.\n", usage, nsysVersion),
		"\nBeam pipeline flags (--runner, --endpoint, --environment_type, ...) may follow; see nsysx-beam --help.\n",
		func(r *recipe.Recipe, rest []string) (*recipe.Options, error) {
			var rargs []string
			rargs, bargs = splitBeamFlags(r, rest)
			return recipe.ParseArgsWith(r, rargs, beamrecipe.ExpandInputs)
		})
	switch {
	case err != nil:
		return fail(stderr, err)
	case o == nil:
		return 0
	}
	if err := flag.CommandLine.Parse(bargs); err != nil {
		return fail(stderr, recipe.Usagef("%v", err))
	}
	if flag.NArg() > 0 {
		return fail(stderr, recipe.Usagef("unexpected argument %q", flag.Arg(0)))
	}
	if err := checkRunner(); err != nil {
		return fail(stderr, err)
	}
	initBeam()
	defaultWorkerBinary()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	o.TuneGC = true // the command owns its process: tune the collector for the run
	out, err := beamrecipe.Run(ctx, r, o, "")
	if err != nil {
		return fail(stderr, err)
	}
	return report(out, o, stdout, stderr)
}

// splitBeamFlags takes out the arguments that are Beam's (Go) flags, by
// their exact name; a recipe option of the same spelling wins.
func splitBeamFlags(r *recipe.Recipe, args []string) (rargs, bargs []string) {
	own := map[string]bool{}
	for _, op := range recipe.RecipeOptions(r) {
		own[op.Flag] = true
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		key, _, hasVal := strings.Cut(a, "=")
		name := strings.TrimLeft(key, "-")
		f := flag.CommandLine.Lookup(name)
		if !strings.HasPrefix(a, "-") || f == nil || own["--"+name] || own[key] {
			rargs = append(rargs, a)
			continue
		}
		bargs = append(bargs, a)
		if b, ok := f.Value.(interface{ IsBoolFlag() bool }); !hasVal && !(ok && b.IsBoolFlag()) && i+1 < len(args) {
			bargs = append(bargs, args[i+1])
			i++
		}
	}
	return rargs, bargs
}

// runnerNames are the runners beamx registers.
var runnerNames = []string{"prism", "direct", "dataflow", "flink", "spark", "universal", "dot"}

// checkRunner refuses an unknown --runner, and a job server that cannot be
// reached (Beam would wait for it forever).
func checkRunner() error {
	name := strings.ToLower(*runners.Runner)
	if name == "" || name == "prismrunner" {
		return nil
	}
	if !slices.Contains(runnerNames, name) {
		return recipe.Usagef("unknown --runner %q%s (one of %s)", *runners.Runner, nsysx.Suggest(name, runnerNames), strings.Join(runnerNames, ", "))
	}
	if name == "dataflow" || name == "dot" || name == "direct" || *jobopts.Endpoint == "" {
		return nil
	}
	c, err := net.DialTimeout("tcp", *jobopts.Endpoint, 10*time.Second)
	if err != nil {
		return fmt.Errorf("cannot reach the job server at --endpoint %s: %w", *jobopts.Endpoint, err)
	}
	return c.Close()
}

// defaultWorkerBinary stages this very binary as the workers' program when
// a portable runner would otherwise run `go build` at submission (it must
// be a linux/amd64 build; build it with CGO_ENABLED=0).
func defaultWorkerBinary() {
	switch strings.ToLower(*runners.Runner) {
	case "", "prism", "prismrunner", "direct":
		return
	}
	if *jobopts.WorkerBinary != "" || strings.EqualFold(*jobopts.EnvironmentType, "loopback") {
		return
	}
	if runtime.GOOS == "linux" && runtime.GOARCH == "amd64" {
		if exe, err := os.Executable(); err == nil {
			*jobopts.WorkerBinary = exe
		}
	}
}

// report prints the outcome as nsysx recipe does and returns the exit
// status: 0 written or no data, 1 failed, 2 usage.
func report(out *beamrecipe.Outcome, o *recipe.Options, stdout, stderr io.Writer) int {
	switch {
	case out.Graph != "":
		fmt.Fprintf(stdout, "Wrote the pipeline graph to %s (--runner dot: nothing ran)\n", out.Graph)
		return 0
	case out.NoData && len(out.Failed) == out.Inputs && out.Inputs > 0:
		return fail(stderr, fmt.Errorf("no report could be read (%d failed)", len(out.Failed)))
	case out.Err != "" && o.Strict && len(out.Failed) > 0:
		for _, f := range out.Failed {
			fmt.Fprintf(stderr, "nsysx-beam recipe: %s\n", f)
		}
		return 1
	case out.Refused:
		return fail(stderr, recipe.Usagef("%s", out.Err))
	case out.Err != "":
		return fail(stderr, errors.New(out.Err))
	}
	for _, f := range out.Failed {
		fmt.Fprintf(stderr, "nsysx-beam recipe: skipped %s\n", f)
	}
	if out.NoData {
		fmt.Fprintln(stdout, "No output generated.")
		return 0
	}
	if o.ClearOutput {
		os.RemoveAll(out.Dir)
		return 0
	}
	fmt.Fprintf(stdout, "Generated:\n    %s\n", out.Dir)
	return 0
}

// fail prints the error and returns 2 for a usage error, else 1.
func fail(stderr io.Writer, err error) int {
	fmt.Fprintf(stderr, "nsysx-beam recipe: %v\n", err)
	if errors.Is(err, recipe.ErrUsage) {
		return 2
	}
	return 1
}
