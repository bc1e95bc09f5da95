package nsysxengine

import (
	"context"
	"go/token"
	"strings"

	"github.com/nsysx/nsysx/kernel"
	"github.com/nsysx/nsysx/nsysx"
	"github.com/nsysx/nsysx/nsysx/recipe"
)

// recipeFlags lists the flags recipe r takes (the hidden ones left out),
// as recipe.ParseArgs reads them.
func recipeFlags(r *recipe.Recipe) []string {
	var out []string
	for _, op := range recipe.RecipeOptions(r) {
		if !op.Hidden {
			out = append(out, op.Flag)
		}
	}
	return out
}

// recipeInput is one input as the kernel resolved it.
type recipeInput struct {
	path string // the path the recipe sees (Rank order, files.parquet, .nsys-analysis)
	file string // the file opened ("" for the sample)
}

// parseRecipe parses the recipe's options with recipe.ParseArgs, the
// parser of `nsysx recipe`, after resolving the inputs: --input words that
// are names bound by %open (or cell variables holding a profile) and .gz
// files become the profiles' files; without --input, the profiles open in
// the session are the inputs (but the sample, which is no file). It returns the options and the opener of
// the inputs.
func (e *Engine) parseRecipe(ctx context.Context, r *recipe.Recipe, args []string) (*recipe.Options, recipe.Opener, error) {
	words, rest, given := splitInputs(args)
	var ins []recipeInput
	switch {
	case given:
		for _, w := range words {
			in, err := e.resolveRecipeInput(ctx, w)
			if err != nil {
				return nil, nil, err
			}
			ins = append(ins, in)
		}
	case r.Name != recipe.DiffName:
		ps, files := e.profiles.session()
		for i, p := range ps {
			if files[i] != "" { // the sample profile has no file to give a recipe
				ins = append(ins, recipeInput{path: p.Path, file: files[i]})
			}
		}
		if len(ins) == 0 {
			return nil, nil, usageErr("%%nsys recipe: no input: give --input FILE..., or open profiles first (%%open FILE)")
		}
	}
	back := map[string]recipeInput{} // the file ParseArgs sees → the input
	if len(ins) > 0 {
		rest = append(rest, "--input")
	}
	for _, in := range ins {
		f := in.file
		if f == "" {
			return nil, nil, usageErr("%%nsys recipe: the sample profile is not a file; recipes read files (give --input FILE...)")
		}
		back[f] = in
		rest = append(rest, f)
	}
	o, err := recipe.ParseArgs(r, rest)
	if err != nil {
		return nil, nil, usageErr("%%nsys recipe: %v", err)
	}
	files := map[string]string{}
	for i, f := range o.Input {
		if in, ok := back[f]; ok {
			o.Input[i] = in.path
			files[in.path] = in.file
		}
	}
	return o, recipeOpener(files), nil
}

// splitInputs takes the words of --input (and --input=W) out of args.
func splitInputs(args []string) (words, rest []string, given bool) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--input":
			given = true
			for i+1 < len(args) && !strings.HasPrefix(args[i+1], "--") {
				i++
				words = append(words, args[i])
			}
		case strings.HasPrefix(a, "--input="):
			given = true
			words = append(words, strings.TrimPrefix(a, "--input="))
		default:
			rest = append(rest, a)
		}
	}
	return words, rest, given
}

// resolveRecipeInput resolves a --input word: a %open name or a cell
// variable is that profile; a .gz is unpacked (the recipe sees the path
// without .gz); other words are paths that ParseArgs expands (directories
// of reports).
func (e *Engine) resolveRecipeInput(ctx context.Context, w string) (recipeInput, error) {
	name := token.IsIdentifier(w)
	if !name && !strings.HasSuffix(strings.ToLower(w), ".gz") {
		return recipeInput{path: w, file: w}, nil
	}
	p, err := e.resolve(ctx, w)
	if err != nil {
		return recipeInput{}, kernel.Errorf("OpenError", "%v", err)
	}
	f := e.profiles.fileOf(p)
	if f == "" && p.Path != nsysx.SampleName {
		f = p.Path // opened by a cell, outside the cache
	}
	return recipeInput{path: p.Path, file: f}, nil
}

// recipeOpener opens each input: a fresh handle on the kernel's file (the
// runner closes what it opens) under the path the recipe sees.
func recipeOpener(files map[string]string) recipe.Opener {
	return func(_ context.Context, path string) (*nsysx.Profile, error) {
		f, ok := files[path]
		if !ok {
			return nsysx.Open(path)
		}
		p, err := nsysx.Open(f)
		if err == nil {
			p.Path = path
		}
		return p, err
	}
}

// isRecipeHelp reports whether the words ask for the recipe's help.
func isRecipeHelp(args []string) bool {
	for _, a := range args {
		if a == "-h" || a == "--help" {
			return true
		}
	}
	return false
}
