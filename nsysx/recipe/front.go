package recipe

import (
	"fmt"
	"io"
	"strings"
)

// Front actions: what the words before a recipe name ask for.
const (
	FrontRun         = iota // run the recipe Name with Rest
	FrontHelpRecipes        // --help-recipes: list the recipes
	FrontUsage              // -h/--help: the command's usage
)

// Front reads the words before the recipe name of nsys's recipe command
// line: --help-recipes, -h/--help, --clear-output (handed on as a recipe
// option) and the ignored --log-level/--log-stream. prog names the command
// in error messages ("nsysx recipe", "nsysx-beam recipe"). It is shared by
// `nsysx recipe` and `nsysx-beam recipe`.
func Front(prog string, args []string) (action int, name string, rest []string, err error) {
	var pre []string
	for i := 0; i < len(args); i++ {
		switch a, _, _ := strings.Cut(args[i], "="); a {
		case "--help-recipes":
			return FrontHelpRecipes, "", nil, nil
		case "-h", "--help":
			return FrontUsage, "", nil, nil
		case "--log-level", "--log-stream":
			if !strings.Contains(args[i], "=") {
				i++
			}
		case "--clear-output":
			pre = append(pre, args[i])
		default:
			if strings.HasPrefix(args[i], "-") {
				return 0, "", nil, Usagef("unknown option %s before the recipe name; run %s --help", args[i], prog)
			}
			return FrontRun, args[i], append(pre, args[i+1:]...), nil
		}
	}
	return 0, "", nil, Usagef("give a recipe name; run %s --help-recipes", prog)
}

// FrontPrint is Front for a command, with the recipe looked up: it
// prints the recipe list (--help-recipes) or usage (-h/--help) to stdout,
// and then r is nil.
func FrontPrint(prog string, args []string, stdout io.Writer, usage string) (r *Recipe, rest []string, err error) {
	action, name, rest, err := Front(prog, args)
	switch {
	case err != nil:
		return nil, nil, err
	case action == FrontHelpRecipes:
		fmt.Fprint(stdout, HelpRecipes())
		return nil, nil, nil
	case action == FrontUsage:
		fmt.Fprint(stdout, usage)
		return nil, nil, nil
	}
	if r, err = Lookup(name); err != nil {
		return nil, nil, fmt.Errorf("%w; run %s --help-recipes", err, prog)
	}
	return r, rest, nil
}
