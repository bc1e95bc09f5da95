package frontend

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/nsysx/nsysx/nsysx/recipe"
	_ "github.com/nsysx/nsysx/nsysx/recipe/all" // registers the recipes
	"github.com/nsysx/nsysx/nsysx/recipe/recipes"
)

// ParseRecipe reads args (the words after "recipe") with parse, which reads the
// recipe's options (recipe.ParseArgs, or a command's own). prog names the
// command in messages, usage is printed for -h; helpTail follows a
// recipe's --help. When ParseRecipe printed what was asked, o is nil.
func ParseRecipe(prog string, args []string, stdout io.Writer, usage, helpTail string,
	parse func(*recipe.Recipe, []string) (*recipe.Options, error)) (r *recipe.Recipe, o *recipe.Options, err error) {
	r, rest, err := recipe.FrontPrint(prog, args, stdout, usage)
	if err != nil || r == nil {
		return nil, nil, err
	}
	o, err = parse(r, rest)
	switch {
	case errors.Is(err, recipe.ErrHelp):
		fmt.Fprint(stdout, recipe.Help(r)+helpTail)
		return nil, nil, nil
	case err != nil:
		return nil, nil, err
	case o.PrintCompat:
		fmt.Fprintf(stdout, "Recipes whose outputs diff compares:\n  %s\n", strings.Join(recipes.CompatRecipes(), "\n  "))
		return nil, nil, nil
	}
	return r, o, nil
}
