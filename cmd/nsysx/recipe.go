package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/nsysx/nsysx/internal/frontend"
	"github.com/nsysx/nsysx/nsysx"
	"github.com/nsysx/nsysx/nsysx/recipe"
	_ "github.com/nsysx/nsysx/nsysx/recipe/all" // registers the recipes
	"github.com/nsysx/nsysx/plots"
)

// runRecipe is `nsysx recipe NAME [options]`: nsys's recipe command line as
// it is, plus --workers, --strict and --force-export (see recipe.ParseArgs).
// Exit status: 0 when the output was written or no report had data ("No
// output generated.", as nsys); 1 when no report could be read, a report
// failed under --strict, or the recipe failed; 2 for a usage error.
func runRecipe(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	usage := fmt.Sprintf("Usage: nsysx recipe [--help-recipes] NAME [options]\n\nRuns an nsys recipe (`nsys recipe`, Nsight Systems %s) over any number of reports.\nRun `nsysx recipe --help-recipes` for the list, `nsysx recipe NAME --help` for a recipe's options.\n", NsysVersion)
	r, o, err := frontend.ParseRecipe("nsysx recipe", args, stdout, usage, "", recipe.ParseArgs)
	switch {
	case err != nil:
		return recipeFail(stderr, err)
	case o == nil:
		return 0
	}
	return runRecipeOpts(ctx, r, o, stdout, stderr)
}

// recipeFail prints the error and returns 2 for a usage error or an
// output that may not be written over, else 1 (130 when interrupted, as
// fail).
func recipeFail(stderr io.Writer, err error) int {
	if errors.Is(err, recipe.ErrUsage) || errors.Is(err, recipe.ErrOutputExists) {
		fmt.Fprintf(stderr, "nsysx recipe: %v\n", err)
		return 2
	}
	return fail(stderr, "recipe", err)
}

func runRecipeOpts(ctx context.Context, r *recipe.Recipe, o *recipe.Options, stdout, stderr io.Writer) int {
	if _, err := nsysx.ExportTimeoutEnv(); err != nil {
		return recipeFail(stderr, recipe.Usagef("%v", err))
	}
	log := &barLog{bar: newProgress(stderr, r.Name, false), w: stderr}
	o.Progress, o.Log = log.update, log.log
	o.TuneGC = true     // the command owns its process: tune the collector for the run
	o.SpillParts = true // and writes its output at once: parts may wait on disk
	open := func(ctx context.Context, path string) (*nsysx.Profile, error) {
		return nsysx.OpenWith(ctx, path, nsysx.OpenOptions{ForceExport: o.ForceExport, Progress: log.note})
	}
	res, err := recipe.Run(ctx, r, o, open)
	defer func() { _ = res.Close() }() // nil-safe: the spilled parts' temporary files
	log.bar.done()
	if ctx.Err() != nil { // a signal: the reports it stopped are not failures
		return fail(stderr, "recipe", ctx.Err())
	}
	failedAll := res != nil && len(res.Failed) == len(o.Input) && len(o.Input) > 0
	switch {
	case failedAll && errors.Is(err, recipe.ErrNoData), err != nil && o.Strict && res != nil && len(res.Failed) > 0:
		for _, f := range res.Failed { // one line each
			fmt.Fprintf(stderr, "nsysx recipe: %v\n", f)
		}
		return 1
	}
	log.flush()
	switch {
	case errors.Is(err, recipe.ErrNoData):
		fmt.Fprintln(stdout, "No output generated.")
		return 0
	case err != nil:
		return recipeFail(stderr, err)
	}
	dir, err := writeRecipe(ctx, res)
	if err != nil {
		return recipeFail(stderr, err)
	}
	if o.ClearOutput {
		os.RemoveAll(dir)
		return 0
	}
	fmt.Fprintf(stdout, "Generated:\n    %s\n", dir)
	return 0
}

// writeRecipe writes the output directory (temporary sibling, renamed into
// place), with the charts and the nsysx-kernel notebook, and returns its
// path.
func writeRecipe(ctx context.Context, res *recipe.Result) (string, error) {
	return res.Write(&recipe.WriteOptions{Extra: plots.RecipeExtra(res), Context: ctx})
}
