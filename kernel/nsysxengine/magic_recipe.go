package nsysxengine

import (
	"context"
	"errors"
	"fmt"
	"go/token"
	"io"
	"strings"
	"time"

	"github.com/nsysx/nsysx/kernel"
	"github.com/nsysx/nsysx/nsysx/recipe"
	_ "github.com/nsysx/nsysx/nsysx/recipe/all" // registers the recipes
	"github.com/nsysx/nsysx/plots"
)

const recipeUsage = "%nsys recipe NAME [--input FILE|NAME...] [options] [-v|--var VAR]"

const recipeHelp = `Run one of nsys's multi-report recipes (nsys recipe NAME) over profiles, with
the options of ` + "`nsysx recipe`" + ` (%nsys recipe NAME --help lists a recipe's). Without
--input, the recipe runs over the profiles open in this session (%open, nb.Open,
or named in earlier magics), in the order they were opened. --input takes
files and names bound by %open. Each output table is shown with its row count,
then the recipe's charts (PNG, and Vega-Lite in JupyterLab). A progress line
counts the reports mapped. The result stays in the Go variable recipeResult
(-v NAME or --var NAME picks another name) as a *recipe.Result: its Output
holds the tables (Output.Table("all_stats") is a *recipe.Frame). With --output
DIR the output directory is written as by nsysx recipe (Parquet, .nsys-analysis,
the charts and a notebook for this kernel); without it nothing is written.
Examples:
  %nsys recipe cuda_gpu_kern_sum
  %nsys recipe nvtx_pace --name forward --input rank0 rank1 -v pace
  %nsys recipe cuda_gpu_time_util_map --bins 60`

// defaultRecipeVar is the variable a recipe's result is left in.
const defaultRecipeVar = "recipeResult"

// nsysRecipe is %nsys recipe.
func (e *Engine) nsysRecipe(ctx context.Context, args []string, out kernel.Output) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" {
		io.WriteString(out.Stdout(), recipeUsage+"\n\n"+recipeHelp+"\n")
		return out.Display(kernel.Display{Data: RecipesBundle(recipe.List())})
	}
	r, err := recipe.Lookup(args[0])
	if err != nil {
		return usageErr("%%nsys recipe: %v", err)
	}
	rest, varName, err := takeVarFlag(args[1:])
	if err != nil {
		return err
	}
	if isRecipeHelp(rest) {
		_, err := io.WriteString(out.Stdout(), strings.Replace(recipe.Help(r), "usage: nsysx recipe", "usage: %nsys recipe", 1)+
			"  -v, --var VAR                   the Go variable the result is left in (default recipeResult)\n")
		return err
	}
	o, open, err := e.parseRecipe(ctx, r, rest)
	if err != nil {
		return err
	}
	res, err := e.runRecipe(ctx, r, o, open, out)
	if err != nil {
		return err
	}
	if err := e.bindRecipe(ctx, varName, res); err != nil {
		return err
	}
	if err := e.showRecipe(res, out); err != nil {
		return err
	}
	return writeRecipeDir(res, out)
}

// writeRecipeDir writes the output directory when --output was given:
// the tables, .nsys-analysis, the charts and the nsysx notebook, as
// `nsysx recipe` does.
func writeRecipeDir(res *recipe.Result, out kernel.Output) error {
	if res == nil || res.Output == nil || res.Opts.Output == "" {
		return nil
	}
	dir, err := res.Write(&recipe.WriteOptions{Extra: plots.RecipeExtra(res)})
	if err != nil {
		return kernel.Errorf("RecipeError", "%v", err)
	}
	fmt.Fprintf(out.Stdout(), "Generated:\n    %s\n", dir)
	return nil
}

// takeVarFlag removes -v/--var NAME from args.
func takeVarFlag(args []string) ([]string, string, error) {
	name := defaultRecipeVar
	var rest []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-v" || a == "--var":
			if i+1 >= len(args) {
				return nil, "", usageErr("%%nsys recipe: %s needs a variable name", a)
			}
			i++
			name = args[i]
		case strings.HasPrefix(a, "--var="):
			name = strings.TrimPrefix(a, "--var=")
		default:
			rest = append(rest, a)
			continue
		}
		if !token.IsIdentifier(name) || token.IsKeyword(name) || name == "_" {
			return nil, "", usageErr("%%nsys recipe: %q is not a Go variable name", name)
		}
	}
	return rest, name, nil
}

// runRecipe runs the recipe with a progress display of the reports mapped.
func (e *Engine) runRecipe(ctx context.Context, r *recipe.Recipe, o *recipe.Options, open recipe.Opener, out kernel.Output) (*recipe.Result, error) {
	pr := e.newProgress(out, false)
	n := len(o.Input)
	pr.show(ProgressBundle(0, n, r.Name))
	o.Progress = func(done, total int) { pr.show(ProgressBundle(done, total, r.Name)) }
	o.Log = func(msg string) { fmt.Fprintln(out.Stderr(), msg) }
	start := time.Now()
	res, err := interruptible(ctx, &e.bg, func() (*recipe.Result, error) { return recipe.Run(ctx, r, o, open) })
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	done := fmt.Sprintf("%s: %d report(s) in %.2f s", r.Name, n, time.Since(start).Seconds())
	if res != nil && len(res.Failed) > 0 {
		done += fmt.Sprintf(", %d skipped", len(res.Failed))
	}
	pr.show(DoneBundle(done))
	switch {
	case errors.Is(err, recipe.ErrNoData):
		fmt.Fprintln(out.Stdout(), "No output generated.")
		return res, nil
	case errors.Is(err, recipe.ErrUsage):
		return nil, usageErr("%%nsys recipe: %v", err)
	case err != nil:
		return nil, kernel.Errorf("RecipeError", "%s: %v", r.Name, err)
	}
	return res, nil
}

// bindRecipe leaves the result in the Go variable name.
func (e *Engine) bindRecipe(ctx context.Context, name string, res *recipe.Result) error {
	e.mu.Lock()
	if e.recipes == nil {
		e.recipes = map[string]*recipe.Result{}
	}
	e.recipes[name] = res
	e.mu.Unlock()
	code := fmt.Sprintf("%s := %s.RecipeResult(%q)", name, bindName, name)
	if err := e.Engine.Execute(ctx, code, kernel.TextOutput{W: discard{}}); err != nil {
		return fmt.Errorf("binding %s: %w", name, err)
	}
	return nil
}

// recipeResult returns the result bound to name, or nil.
func (e *Engine) recipeResult(name string) *recipe.Result {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.recipes[name]
}

// showRecipe displays every output table, then the charts.
func (e *Engine) showRecipe(res *recipe.Result, out kernel.Output) error {
	if res == nil || res.Output == nil {
		return nil
	}
	for _, t := range res.Output.Tables {
		if err := out.Display(kernel.Display{Data: FrameBundle(t.Name, t.Frame, e.TableOptions())}); err != nil {
			return err
		}
	}
	cs, err := plots.RecipeCharts(res.Recipe.Name, res.Output)
	if err != nil {
		fmt.Fprintf(out.Stderr(), "charts of %s: %v\n", res.Recipe.Name, err)
		return nil
	}
	for _, c := range cs {
		if err := out.Display(kernel.Display{Data: c.MIMEBundle(), Metadata: c.MIMEMetadata()}); err != nil {
			return err
		}
	}
	return nil
}

// RecipesBundle lists the recipes: name, display name, what it answers.
func RecipesBundle(rs []*recipe.Recipe) map[string]any {
	if len(rs) == 0 {
		return TextBundle("no recipes")
	}
	rows := make([][3]string, len(rs))
	for i, r := range rs {
		rows[i] = [3]string{r.Name, r.DisplayName, r.Help}
	}
	return listBundle("recipe", "name", rows)
}

// completeRecipe completes %nsys recipe: recipe names, then the recipe's
// flags, --mode values and inputs after --input.
func (e *Engine) completeRecipe(args []string, w string) ([]string, int) {
	if len(args) == 0 {
		return prefixed(recipe.Names(), w), len(w)
	}
	r, err := recipe.Lookup(args[0])
	if err != nil {
		return nil, 0
	}
	if strings.HasPrefix(w, "-") {
		return prefixed(append(recipeFlags(r), "--var", "--help"), w), len(w)
	}
	prev := args[len(args)-1]
	switch {
	case prev == "--mode":
		return prefixed([]string{"none", "concurrent", "dask-futures"}, w), len(w)
	case prev == "--output":
		return prefixed(completeFiles(w, true), w), len(w)
	}
	for i := len(args) - 1; i > 0; i-- {
		if strings.HasPrefix(args[i], "-") {
			if args[i] == "--input" {
				return e.completeInput(w), len(w)
			}
			break
		}
	}
	return nil, 0
}
